#!/usr/bin/env bash
# Several blocks and the choice by message size (docs/BENCHMARKS.md, "Several blocks and
# message sizes"): the targets of --blocks (reductions and the AAB all-gather) and the
# block counts solve --bytes picks on a torus:16x16. Release build; prints one line per run (wall seconds, peak memory).
#   bash bench/blocks.sh [build/release/ccsched]
set -euo pipefail
bin=${1:-build/release/ccsched}
run() {
  /usr/bin/time -f "  %e s, %M KB" "$bin" "$@" 2>&1 | grep -E "lower bound|^steps|^engine|estimate  | s, [0-9]+ KB"
}
for args in "ring:8 --cc ALLREDUCE --blocks 8 --ports 1" \
            "torus:8x8 --cc ALLREDUCE --blocks 64" \
            "hypercube:6 --cc ALLREDUCE --blocks 64" \
            "ring:8 --cc SCAN --blocks 2 --ports 1" \
            "ring:8 --cc REDUCE --blocks 8 --ports 1" \
            "torus:16x16 --cc ALLREDUCE --blocks 256" \
            "ring:8 --cc AAB --blocks 3" \
            "ring:8 --cc AAB --blocks 2 --ports 1" \
            "torus:8x8 --cc AAB --blocks 4" \
            "mesh:8x8 --cc AAB --blocks 4" \
            "torus:32x32 --cc AAB --blocks 2" \
            "hypercube:10 --cc AAB --blocks 2" \
            "mesh:32x32 --cc AAB --blocks 2"; do
  echo "\$ ccsched solve $args --time-limit 60"
  # shellcheck disable=SC2086
  run solve $args --time-limit 60
done
for m in 64 1GiB; do
  echo "\$ ccsched solve torus:16x16 --cc ALLREDUCE --bytes $m --t0 1us --t1 1ns --time-limit 60"
  run solve torus:16x16 --cc ALLREDUCE --bytes "$m" --t0 1us --t1 1ns --time-limit 60
done
