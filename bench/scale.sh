#!/usr/bin/env bash
# Scale benchmark (docs/BENCHMARKS.md, "Scale"; never run by the tests): runs
#   ccsched solve NET --cc CC --ports K --json --time-limit T -o SCHEDULE
# under /usr/bin/time -f "%e %M" for each cell below and prints one Markdown table row per
# run: network, processors, collective, ports, steps, lower bound, gap (%), whether the
# schedule is proven optimal, wall seconds, peak memory and the engine that won. The
# schedule written is checked again with `ccsched verify`.
# Usage: bash bench/scale.sh [BUILD_DIR] [TIME_LIMIT] [CELLS]
#   TIME_LIMIT: seconds, or "default" (the default, no --time-limit: 45 s above 256
#   processors, so the wall time includes writing and verifying the schedule).
#   CELLS: "large" (1,000 processors, the default), "reductions" (the same networks, the four
#   reductions), "medium" (100-300 processors),
#   "curve" (torus 8x8 .. 64x64, OAB/AAB/AAS all-port), or "NET;CC;PORTS ..." cells.
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
LIMIT=${2:-default}
WHICH=${3:-large}
BIN="$BUILD/ccsched"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

cells=()
case "$WHICH" in
  large)
    for net in torus:32x32 mesh:32x32 hypercube:10 fattree:1024 kautz:3,5; do
      for cc in OAB AAB AAS; do for k in all 1; do cells+=("$net|$cc|$k"); done; done
    done ;;
  reductions)
    for net in torus:32x32 mesh:32x32 hypercube:10 fattree:1024 kautz:3,5; do
      for cc in REDUCE ALLREDUCE REDUCESCATTER SCAN; do
        for k in all 1; do cells+=("$net|$cc|$k"); done
      done
    done ;;
  medium)
    for net in kautz:3,4 hypercube:8 torus:16x16 mesh:16x16 fattree:256; do
      for cc in OAB AAB AAS; do cells+=("$net|$cc|all"); done
    done ;;
  curve)
    # AAS on torus:64x64 has 16.8 million messages (two transfers each): past what one
    # machine's memory holds as a schedule, so the curve stops at 1,024 for it.
    for net in torus:8x8 torus:16x16 torus:32x32 torus:64x64; do
      for cc in OAB AAB AAS; do
        [ "$net|$cc" = "torus:64x64|AAS" ] || cells+=("$net|$cc|all")
      done
    done ;;
  *)
    for c in $WHICH; do cells+=("$(echo "$c" | tr ';' '|')"); done ;;
esac

echo "| network | p | collective | ports | steps | lower bound | gap | proven | seconds | peak MB | engine | verify |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
for cell in "${cells[@]}"; do
  IFS='|' read -r net cc k <<<"$cell"
  rm -f "$TMP/s.json" "$TMP/sum.json"
  limit=()
  [ "$LIMIT" != default ] && limit=(--time-limit "$LIMIT")
  /usr/bin/time -f "%e %M" -o "$TMP/time" "$BIN" solve "$net" --cc "$cc" --ports "$k" --json \
    "${limit[@]}" -o "$TMP/s.json" >"$TMP/sum.json" 2>"$TMP/err"
  read -r secs mem < <(tail -1 "$TMP/time")
  ver="-"
  if [ -s "$TMP/s.json" ]; then
    if "$BIN" verify "$TMP/s.json" >/dev/null 2>&1; then ver=ok; else ver=REJECTED; fi
  fi
  python3 - "$net" "$cc" "$k" "$secs" "$mem" "$ver" "$TMP" <<'PY'
import json, sys
net, cc, k, secs, mem, ver, tmp = sys.argv[1:]
try:
    d = json.load(open(f"{tmp}/sum.json"))
except Exception:
    err = open(f"{tmp}/err").read().strip().splitlines()
    print(f"| {net} | | {cc} | {k} | failed: {(err[-1] if err else '?')[:90]} | | | | {float(secs):.1f} | {int(mem)//1024} | | |")
    sys.exit(0)
# The schedule file can hold millions of transfers: read only its tail (the solver block
# comes last); the processor count from the summary (`ccsched topo info` computes the
# invariants, over 7 minutes on hypercube:16).
engine = "?"
try:
    with open(f"{tmp}/s.json", "rb") as f:
        f.seek(0, 2)
        f.seek(max(0, f.tell() - 4096))
        tail = f.read().decode(errors="replace")
    engine = tail.split('"engine": "', 1)[1].split('"', 1)[0]
except Exception:
    pass
p = d.get("network", {}).get("processors", "")
steps, lb = d.get("steps"), d.get("lower_bound")
gap = f"{100.0 * (steps - lb) / lb:.2f} %" if steps and lb else "?"
proven = "yes" if d.get("optimal") else ""
print(f"| {net} | {p} | {cc} | {k} | {steps} | {lb} | {gap} | {proven} | {float(secs):.1f} | "
      f"{int(mem)//1024} | {engine} | {ver} |")
PY
done
