#!/usr/bin/env bash
# The commands that read a schedule, on all-to-all broadcasts of 1M and 16.8M transfers
# (docs/BENCHMARKS.md, "Outputs at 16.8 million transfers"): `solve torus:NxN --cc AAB`
# writes the schedule once (the gossip design's translation schedule at the bound), then
# verify, cost, simulate, show, render (.svg and .html) and codegen mpi each run once under
# /usr/bin/time -v. Prints one Markdown table row per command.
#
#   bash bench/outputs.sh [BINARY] [SIDES...]      # default sides: 32 64
#
# torus:64x64 takes minutes and about 9 GB to solve (`--time-limit 600`; issue of the
# solver side); pass only 32 for a quick run. SCHEDULE_DIR=DIR keeps (and reuses) the
# schedules there instead of a temporary folder.
set -uo pipefail
bin=$(realpath "${1:-build/release/ccsched}")
shift || true
sides=("$@")
[ ${#sides[@]} -eq 0 ] && sides=(32 64)
work=${SCHEDULE_DIR:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
run() {
  /usr/bin/time -v "$bin" "$@" >o.txt 2>e.txt
  local rc=$?
  local secs mem size
  secs=$(grep "Elapsed (wall" e.txt | awk '{print $NF}')
  mem=$(grep "Maximum resident" e.txt | awk '{printf "%.2f GB", $NF/1024/1024}')
  size=$(wc -c <o.txt)
  echo "| \`ccsched $*\` | $rc | $secs | $mem | $size B |"
}
echo "| command | exit | wall | peak RSS | stdout |"
echo "|---|---|---|---|---|"
for n in "${sides[@]}"; do
  f=aab$n.json
  [ -s "$f" ] || run solve "torus:${n}x${n}" --cc AAB --time-limit 600 -o "$f"
  run verify "$f"
  run cost "$f" --t0 1us --t1 0.5ns --bytes 1024
  run simulate "$f" --bandwidth 2GBps --latency 1us --bytes 1024
  run show "$f"
  run render "$f" -o "s$n.svg"
  run render "$f" -o "r$n.html"
  run codegen mpi "$f" -o "p$n.c"
  ls -l "$f" "s$n.svg" "r$n.html" "p$n.c" | awk '{print "<!-- " $5 " bytes " $NF " -->"}'
done
