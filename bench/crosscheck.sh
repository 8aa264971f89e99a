#!/usr/bin/env bash
# The long cross-check (issue 7): every engine against every other on ROUNDS random small
# problems (default 2000), from a Release build: bench/crosscheck.sh [ROUNDS] [BUILD_DIR].
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-2000}"
build="${2:-build/release}"
CCSCHED_CROSSCHECK_ROUNDS="$rounds" "$build/tests/engines/engines_crosscheck_test" \
  --gtest_filter='CrossCheck.AllEnginesAgree'
