#!/usr/bin/env bash
# Tries every command on networks well past the seeds' sizes (docs/RELIABILITY.md): hypercube:10
# (1024 nodes), torus:32x32 (1024 nodes), kautz:3,5 (324 nodes). Each run gets a 10 s
# --time-limit where the command has one, a 90 s SIGINT watchdog and a 10 GB address-space
# cap, and is measured with /usr/bin/time -v. Prints one Markdown table row per run.
#
#   bash bench/large_networks.sh [BINARY] > rows.md
set -uo pipefail
bin=$(realpath "${1:-build/release/ccsched}")
work=$(mktemp -d)
cd "$work"
run() {
  (ulimit -v 10000000; /usr/bin/time -v timeout -s INT 90 "$bin" "$@" >o.txt 2>e.txt)
  local rc=$?
  local secs mem msg out
  secs=$(grep "Elapsed (wall" e.txt | awk '{print $NF}')
  mem=$(grep "Maximum resident" e.txt | awk '{printf "%.0f MB", $NF/1024}')
  msg=$(grep -v -E "^\s|Command being|Command exited|^$" e.txt | tr '\r' '\n' | grep -v "^$" |
        tail -1 | cut -c1-140 | tr '|' '/')
  out=$(grep -E "^steps|^lower bound|^valid|^total" o.txt | tr '\n' ' ' | cut -c1-140 | tr '|' '/')
  echo "| \`$*\` | $rc | $secs | $mem | ${out:-$msg} |"
}
echo "| command | exit | wall | peak RSS | outcome |"
echo "|---|---|---|---|---|"
for net in hypercube:10 torus:32x32 kautz:3,5; do
  run topo info "$net"
  run bounds "$net" --cc AAS
  for cc in OAB AAS AAB; do
    for eng in greedy sat umda hgsa; do
      run solve "$net" --cc "$cc" --engine "$eng" --time-limit 10 --quiet
    done
  done
  run solve "$net" --cc OAB --time-limit 10 --quiet -o s.json
  if [ -s s.json ]; then
    run verify s.json
    run cost s.json --t0 1us --t1 0.5ns --bytes 1024
    run render s.json -o s.html
    run codegen mpi s.json -o s.c
    run simulate s.json --bandwidth 2GBps --latency 1us --bytes 1024
  fi
  run faults "$net" --cc OAB --time-limit 10
  rm -f s.json
done
rm -rf "$work"
