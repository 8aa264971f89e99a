#!/usr/bin/env bash
# Exact reductions on small networks (docs/BENCHMARKS.md, "Exact reductions"; never run by
# the tests): for every network below (at most 8 processors), the four reductions, one-port
# and all-port, runs
#   ccsched solve NET --cc KIND --ports K --json --time-limit T -o SCHEDULE
# and the same for the network exported to JSON (topo export NET --format json), and
# prints a Markdown table: steps, lower bound, proven, the CPU seconds (user + system) and
# wall-clock seconds of the run, the engine, and whether the exported file got the same
# steps and claim. Every schedule is checked again
# with `ccsched verify`.
# Usage: bash bench/exact_reductions.sh [BUILD_DIR] [TIME_LIMIT|none] [NETWORKS...]
#   (defaults build/release, 30, the list below; `none` runs without --time-limit, where
#   only the work allowances stop the searches, docs/ARCHITECTURE.md "Budgets")
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
LIMIT=${2:-30}
shift $(( $# > 2 ? 2 : $# ))
BIN="${CCSCHED_BIN:-$BUILD/ccsched}"
CAP=(--time-limit "$LIMIT")
[ "$LIMIT" = none ] && CAP=()
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
NETS=("$@")
if [ ${#NETS[@]} -eq 0 ]; then
  NETS=(ring:3 ring:4 ring:5 ring:6 ring:7 ring:8 uring:4 uring:8 mesh:2x2 mesh:2x3 mesh:2x4
        torus:2x4 hypercube:1 hypercube:2 hypercube:3 complete:4 complete:8 octagon utility
        fbtree:7 btree:8 fattree:8 kautz:2,2 debruijn:2,3 butterfly:4 butterfly:8 omega:8)
fi

echo "| network | p | collective | ports | steps | lower bound | proven | CPU s | wall s | engine | exported file | verify |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for net in "${NETS[@]}"; do
  file="$TMP/net.json"
  "$BIN" topo export "$net" --format json -o "$file"
  for kind in REDUCE ALLREDUCE REDUCESCATTER SCAN; do
    for ports in all 1; do
      for which in spec file; do
        src=$net; [ "$which" = file ] && src=$file
        /usr/bin/time -f "%U %S %e" -o "$TMP/$which.seconds" \
          "$BIN" solve "$src" --cc "$kind" --ports "$ports" --json "${CAP[@]}" \
          -o "$TMP/$which.schedule.json" > "$TMP/$which.json" 2> "$TMP/err" || true
        if "$BIN" verify "$TMP/$which.schedule.json" > /dev/null 2>&1; then
          echo ok > "$TMP/$which.verify"; else echo FAILED > "$TMP/$which.verify"; fi
      done
      python3 - "$net" "$kind" "$ports" "$TMP" <<'PY'
import json, sys
net, kind, ports, tmp = sys.argv[1:5]
def load(which):
    try:
        return json.load(open(f"{tmp}/{which}.json"))
    except Exception:
        return None
a, b = load("spec"), load("file")
if a is None:
    print(f"| {net} | | {kind} | {ports} | failed: {open(f'{tmp}/err').read().strip()[:80]} |")
    sys.exit(0)
def seconds(which):  # CPU (user + system) and wall-clock seconds of the whole run
    user, system, wall = map(float, open(f"{tmp}/{which}.seconds").read().split()[-3:])
    return user + system, wall
sec, wall = seconds("spec")
fsec, _ = seconds("file")
ok = open(f"{tmp}/spec.verify").read().strip()
fok = open(f"{tmp}/file.verify").read().strip()
same = b is not None and (a["steps"], a["optimal"]) == (b["steps"], b["optimal"])
other = "same" if same else (f"{b['steps']} {'proven' if b['optimal'] else 'not proven'}" if b else "failed")
other += f", {fsec:.1f} s CPU"
if fok != "ok":
    other += ", verify FAILED"
print(f"| {net} | {a['network']['processors']} | {kind} | {ports} | {a['steps']} | {a['lower_bound']} | "
      f"{'yes' if a['optimal'] else 'no'} | {sec:.1f} | {wall:.1f} | {a['engine']} | {other} | {ok} |")
PY
    done
  done
done
