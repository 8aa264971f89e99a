#!/usr/bin/env bash
# Builds the libFuzzer targets of the readers (the `fuzz` preset: clang-14, ASan + UBSan)
# and runs each for SECONDS on a copy of its corpus (tests/fuzz/corpus/<target>/), so the
# repository is never modified. Exits non-zero when any target finds a crash, a leak, a
# sanitizer report, a timeout or an out-of-memory; the reproducer stays in the work
# directory it prints.
#
#   bash scripts/fuzz.sh SECONDS [target...]     (default: every target)
#
# Targets: topology_json topology_dot topology_edges topology_anynet schedule_json messages
# spec. Environment: FUZZ_WORK_DIR (default: a fresh mktemp -d), FUZZ_NICE (default 10),
# FUZZ_EXTRA (more libFuzzer flags, e.g. "-jobs=1 -dict=...").
set -euo pipefail

usage() { echo "usage: $0 SECONDS [target...]" >&2; exit 2; }
[ $# -ge 1 ] || usage
seconds=$1
shift
[[ "$seconds" =~ ^[0-9]+$ ]] && [ "$seconds" -ge 1 ] || usage

root=$(cd "$(dirname "$0")/.." && pwd)
all_targets=(topology_json topology_dot topology_edges topology_anynet schedule_json messages
             spec)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  [[ " ${all_targets[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t'" >&2; exit 2; }
done

for tool in clang++-14 cmake ninja; do
  if ! command -v "$tool" >/dev/null; then
    echo "fuzz: $tool not found (needs clang-14 and libclang-rt-14-dev)" >&2
    exit 2
  fi
done

build="$root/build/fuzz"
cd "$root"
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake --preset fuzz >/dev/null
fi
build_targets=()
for t in "${targets[@]}"; do build_targets+=("${t}_fuzz"); done
# The build's own output only when it fails (a compile error must not vanish).
if ! nice -n "${FUZZ_NICE:-10}" cmake --build "$build" --target "${build_targets[@]}" -j2 \
    >"$build/fuzz-build.log" 2>&1; then
  grep -E "error|FAILED" "$build/fuzz-build.log" | head -20 >&2
  echo "fuzz: the fuzz targets did not build (log $build/fuzz-build.log)" >&2
  exit 1
fi

work=${FUZZ_WORK_DIR:-$(mktemp -d -t ccsched-fuzz.XXXXXX)}
mkdir -p "$work"
failed=()
for t in "${targets[@]}"; do
  dir="$work/$t"
  mkdir -p "$dir/corpus" "$dir/artifacts"
  cp "$root/tests/fuzz/corpus/$t/"* "$dir/corpus/"
  echo "fuzz: $t for ${seconds}s ($dir)" >&2
  set +e
  # -timeout: one input taking 30 s is a hang; -rss_limit_mb: an input that makes a reader
  # allocate gigabytes is a defect too (the readers refuse oversized networks up front).
  # shellcheck disable=SC2086
  nice -n "${FUZZ_NICE:-10}" "$build/fuzz/${t}_fuzz" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=30 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" ${FUZZ_EXTRA:-} "$dir/corpus" >"$dir/log.txt" 2>&1
  rc=$?
  set -e
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt" | tail -1)
  corpus=$(find "$dir/corpus" -type f | wc -l)
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    echo "fuzz: $t FAILED (exit $rc); log $dir/log.txt, reproducer in $dir/artifacts/" >&2
    grep -E "^(==[0-9]+==ERROR|SUMMARY|.*runtime error|terminate called|  what\(\))" \
      "$dir/log.txt" | head -5 >&2 || true
  else
    echo "fuzz: $t ok: ${execs:-?} executions in ${seconds}s, corpus $corpus files" >&2
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failures in ${failed[*]} (work directory $work)" >&2
  exit 1
fi
[ -n "${FUZZ_WORK_DIR:-}" ] || rm -rf "$work"
exit 0
