#!/usr/bin/env bash
# Beyond 1,024 (docs/BENCHMARKS.md, "Beyond 1,024"; never run by the tests): seconds and
# peak memory against the processor count, 1,024 to 65,536, for the one-block collectives
# (OAB, REDUCE, ALLREDUCE, SCAN, AOG) and all-to-all at 4,096, each cell one run of
#   ccsched solve NET --cc CC --ports all --json -o SCHEDULE
# under /usr/bin/time, the schedule then checked by `ccsched verify` (bench/scale.sh prints
# the rows: steps, lower bound, gap, proven, seconds, peak MB, engine, verify).
# Usage: bash bench/beyond.sh [BUILD_DIR] [TIME_LIMIT] [SET] [COLLECTIVES]
#   SET: "curve" (torus 32x32 .. 256x256 and hypercube 10 .. 16, the collectives),
#        "families" (mesh:128x128 and fattree:16384, the collectives),
#        "alltoall" (torus:64x64 AAB, AAS; hypercube:12 AAS), or "NET;CC;PORTS ..." cells.
#   COLLECTIVES: the one-block collectives of "curve" and "families" (default all five,
#        "OAB REDUCE ALLREDUCE SCAN AOG"), e.g. "OAB REDUCE AOG".
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
LIMIT=${2:-default}
SET=${3:-curve}
one_block=${4:-"OAB REDUCE ALLREDUCE SCAN AOG"}
cells=()
case "$SET" in
  curve)
    for net in torus:32x32 torus:64x64 torus:128x128 torus:256x256 \
               hypercube:10 hypercube:12 hypercube:14 hypercube:16; do
      for cc in $one_block; do cells+=("$net;$cc;all"); done
    done ;;
  families)
    for net in mesh:128x128 fattree:16384; do
      for cc in $one_block; do cells+=("$net;$cc;all"); done
    done ;;
  alltoall)
    cells=("torus:64x64;AAB;all" "torus:64x64;AAS;all" "hypercube:12;AAS;all") ;;
  *)
    cells=($SET) ;;
esac
exec bash bench/scale.sh "$BUILD" "$LIMIT" "${cells[*]}"
