#!/usr/bin/env bash
# The README's test command (CI runs exactly this, .ci/run): the release build and its
# tests, then the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer
# (the `dev` preset: Debug, -fsanitize=address,undefined), then the fuzzing regression.
# Measured times on 2 cores: docs/RELIABILITY.md, "Sanitizers". Set CCSCHED_SKIP_SANITIZERS=1
# to run the release part alone (local iteration only; CI never sets it).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh release
ctest --preset release

if [[ "${CCSCHED_SKIP_SANITIZERS:-0}" != 1 ]]; then
  # A sanitizer report fails the test that triggered it (UBSan halts instead of printing
  # and going on); leaks are reported too.
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  bash scripts/build.sh dev
  ctest --preset dev
fi

# Fuzzing regression: every reader's libFuzzer target for 30 s on its corpus (the long runs
# are recorded in docs/RELIABILITY.md).
bash scripts/fuzz.sh 30
