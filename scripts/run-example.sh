#!/usr/bin/env bash
# Sets up, builds and runs the main job on the built-in example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh release
./build/release/ccsched solve kautz:3,2 --cc AAS --table
