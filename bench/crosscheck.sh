#!/usr/bin/env bash
# The long cross-check against the oracle (docs/RELIABILITY.md, "Cross-checking"): N random
# small problems from SEED, every claim of the driver, the bounds and the engines compared
# with the oracle's exact optimum (tests/support/oracle.hpp). Release build:
#
#   bench/crosscheck.sh [N=2000] [SEED=1] [BUILD_DIR=build/release]
#
# Writes OUT/summary.txt (counts, then every disagreement with a `ccsched solve` command
# that reproduces it) and OUT/log.txt; OUT is $CROSSCHECK_OUT or /tmp/ccsched-crosscheck-SEED,
# where the files the commands need (topologies, message lists) are written too. Exit
# status 0 when there is no disagreement.
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-2000}"
seed="${2:-1}"
build="${3:-build/release}"
out="${CROSSCHECK_OUT:-/tmp/ccsched-crosscheck-$seed}"
mkdir -p "$out"
status=0
CCSCHED_CROSSCHECK_PROBLEMS="$count" CCSCHED_CROSSCHECK_SEED="$seed" \
  CCSCHED_CROSSCHECK_DIR="$out" CCSCHED_CROSSCHECK_SUMMARY="$out/summary.txt" \
  "$build/tests/engines/engines_crosscheck_test" \
  --gtest_filter='CrossCheck.EveryClaimAgainstTheOracle' >"$out/log.txt" 2>&1 || status=$?
grep -E '^(crosscheck|kinds)' "$out/log.txt" || true
echo "summary: $out/summary.txt"
exit "$status"
