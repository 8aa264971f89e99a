#!/usr/bin/env bash
# Reductions benchmark (docs/BENCHMARKS.md, "Reductions"; never run by the tests): runs
#   ccsched solve NET --cc KIND --ports 1 --json --time-limit T -o SCHEDULE
# under /usr/bin/time -f %M for each network and kind below, and prints a Markdown table:
# ccsched's steps, its lower bound and the gap, the classical algorithms' step counts, the
# seconds, the peak memory and the design (engine) that won. The classical counts are
# logical rounds, one step each (binomial reduce ceil(log2 p), recursive doubling log2 p,
# Rabenseifner 2 log2 p, ring 2(p-1); ring reduce-scatter p-1); a round whose exchanges
# collide on a channel needs more steps on the network, so they are what each algorithm
# would take on a network where its rounds are contention-free.
# Usage: bash bench/reductions.sh [BUILD_DIR] [TIME_LIMIT]   (defaults build/release, 60)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
LIMIT=${2:-60}
BIN="$BUILD/ccsched"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

ALL="ring:8 ring:16 torus:4x4 torus:8x8 torus:16x16 torus:32x32 mesh:8x8 hypercube:4 hypercube:10 kautz:2,3 fattree:16 omega:16"
SMALL="ring:8 ring:16 torus:4x4 hypercube:4 kautz:2,3 fattree:16 omega:16"

run() {  # NET KIND
  local net=$1 kind=$2
  /usr/bin/time -f %M -o "$TMP/mem" "$BIN" solve "$net" --cc "$kind" --ports 1 --json \
    --time-limit "$LIMIT" -o "$TMP/schedule.json" > "$TMP/summary.json" 2> "$TMP/err" || true
  python3 - "$net" "$kind" "$TMP" <<'PY'
import json, math, sys
net, kind, tmp = sys.argv[1], sys.argv[2], sys.argv[3]
try:
    d = json.load(open(f"{tmp}/summary.json"))
except Exception:
    print(f"| {net} | {kind} | failed: {open(f'{tmp}/err').read().strip()[:80]} |")
    sys.exit(0)
mem = open(f"{tmp}/mem").read().split()[-1]
engine = "?"
procs = None
try:
    s = json.load(open(f"{tmp}/schedule.json"))
    engine = s.get("solver", {}).get("engine", "?")
    procs = len(s["collective"]["senders"])
except Exception:
    pass
p = procs or 0
lg = math.ceil(math.log2(p)) if p > 1 else 0
if kind == "ALLREDUCE":
    classic = f"RD {lg}, Rab {2*lg}, ring {2*(p-1)}"
elif kind == "REDUCE":
    classic = f"binomial {lg}"
else:
    classic = f"RH {lg}, ring {p-1}"
steps, lb = d.get("steps"), d.get("lower_bound")
gap = steps - lb if steps is not None and lb is not None else "?"
proof = "proven" if d.get("optimal") else ""
print(f"| {net} | {kind} | {p} | {steps} {proof} | {lb} | {gap} | {classic} | "
      f"{d.get('seconds', 0):.2f} | {int(mem)//1024} | {engine} |")
PY
}

echo "| network | kind | p | ccsched steps | lower bound | gap | classical (rounds) | seconds | peak MB | design |"
echo "|---|---|---|---|---|---|---|---|---|---|"
for net in $ALL; do run "$net" ALLREDUCE; done
for net in $SMALL; do run "$net" REDUCE; done
for net in $SMALL; do run "$net" REDUCESCATTER; done
