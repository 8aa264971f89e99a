#!/usr/bin/env bash
# ALLREDUCE of several blocks at the volume bound (docs/BENCHMARKS.md, "Several blocks at
# the volume bound"; docs/ENGINES.md "Several blocks"): the small networks where the
# volume search finds a schedule at the bound or proves the bound plus one, and the one
# it leaves out (hypercube:6, 64 blocks). Release build; one block of lines per run (the
# bound, the steps and their claim, the engine, wall seconds and peak memory).
#   bash bench/volume_sat.sh [build/release/ccsched]
set -euo pipefail
bin=${1:-build/release/ccsched}
for args in "hypercube:2 --blocks 4" "ring:4 --blocks 4" "hypercube:3 --blocks 8" \
            "mesh:2x3 --blocks 6" "ring:8 --blocks 8" "mesh:1x3 --blocks 2" \
            "mesh:1x3 --blocks 4" "uring:4 --blocks 2" "hypercube:6 --blocks 64"; do
  echo "\$ ccsched solve $args --cc ALLREDUCE --time-limit 60"
  # shellcheck disable=SC2086
  /usr/bin/time -f "  %e s, %M KB" "$bin" solve $args --cc ALLREDUCE --time-limit 60 2>&1 |
    grep -E "lower bound|^steps|^engine| s, [0-9]+ KB"
done
