#!/usr/bin/env bash
# Sets up, builds (release preset) and runs every test through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh release
ctest --preset release
