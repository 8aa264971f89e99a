#!/usr/bin/env bash
# Configures and builds one CMake preset (default: release) after making sure the
# dependencies are installed; with target names, builds only those (and what they need).
#
#   bash scripts/build.sh [PRESET [TARGET...]]     e.g. build.sh release ccsched
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
[ $# -gt 0 ] && shift
targets=()
[ $# -gt 0 ] && targets=(--target "$@")
bash scripts/setup.sh
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$(nproc)" "${targets[@]}"
