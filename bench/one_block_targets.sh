#!/usr/bin/env bash
# One-block ALLREDUCE and SCAN at about 1,024 processors against the targets of
# docs/BENCHMARKS.md, "One-block reductions at 1,024 processors" (never run by the tests).
# Each cell runs
#   ccsched solve NET --cc KIND [--ports 1] --time-limit T -o SCHEDULE --json
# under /usr/bin/time -f %M, checks the written schedule with `ccsched verify`, and prints a
# Markdown row: steps, lower bound, the target, whether it is met, the winning design,
# seconds, peak MB.
# Usage: bash bench/one_block_targets.sh [BUILD_DIR] [TIME_LIMIT]   (defaults build/release, 60)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build/release}
LIMIT=${2:-60}
BIN="$BUILD/ccsched"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# network kind ports target
CELLS="torus:32x32 ALLREDUCE all 7
torus:32x32 ALLREDUCE 1 15
mesh:32x32 ALLREDUCE all 8
mesh:32x32 ALLREDUCE 1 15
hypercube:10 ALLREDUCE all 5
kautz:3,5 ALLREDUCE all 7
kautz:3,5 ALLREDUCE 1 14
torus:32x32 SCAN all 10
torus:32x32 SCAN 1 20
mesh:32x32 SCAN 1 20
kautz:3,5 SCAN all 10"

echo "| network | collective | ports | steps | lower bound | target | met | design | seconds | peak MB | verify |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
while read -r net kind ports target; do
  extra=()
  [ "$ports" = all ] || extra=(--ports "$ports")
  /usr/bin/time -f %M -o "$TMP/mem" "$BIN" solve "$net" --cc "$kind" "${extra[@]}" --json \
    --time-limit "$LIMIT" -o "$TMP/s.json" > "$TMP/sum.json" 2> "$TMP/err" || true
  verdict=$("$BIN" verify "$TMP/s.json" > /dev/null 2>&1 && echo ok || echo FAILED)
  python3 - "$net" "$kind" "$ports" "$target" "$TMP" "$verdict" <<'PY'
import json, sys
net, kind, ports, target, tmp, verdict = sys.argv[1:]
try:
    d = json.load(open(f"{tmp}/sum.json"))
    s = json.load(open(f"{tmp}/s.json"))
except Exception:
    print(f"| {net} | {kind} | {ports} | failed: {open(f'{tmp}/err').read().strip()[:80]} |")
    sys.exit(0)
mem = int(open(f"{tmp}/mem").read().split()[-1]) // 1024
steps, lb = d.get("steps"), d.get("lower_bound")
met = "yes" if steps is not None and steps <= int(target) else "no"
print(f"| {net} | {kind} | {ports} | {steps} | {lb} | ≤ {target} | {met} | "
      f"{s.get('solver', {}).get('engine', '?')} | {d.get('seconds', 0):.1f} | {mem} | {verdict} |")
PY
done <<< "$CELLS"
