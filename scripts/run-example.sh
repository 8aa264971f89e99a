#!/usr/bin/env bash
# Sets up, builds the `ccsched` command alone (not the tests, so a fresh machine gets
# there quickly) and runs the main job on the built-in example.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh release ccsched
./build/release/ccsched solve kautz:3,2 --cc AAS --table
