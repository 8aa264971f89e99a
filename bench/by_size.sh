#!/usr/bin/env bash
# By message size (docs/BENCHMARKS.md, "By message size"; issue item "Benchmark and
# picture"): on each network and collective, ccsched's own schedules (for the reductions
# one `solve --bytes M` per table size, each chosen by time; the fastest of them at each
# size is "ccsched") against every classical algorithm `solve --algorithm A` writes, by
# the linear model (`cost --crossover`, t0 = 1 us, t1 = 1 ns/B, tc = 0.25 ns/B for the
# reductions) and by the SimGrid replay (`simulate --crossover`, 1 GB/s channels, 1 us
# start-up), at every size from 8 B to 1 GiB (doubling); one SVG per network (the four
# collectives as four panels, drawn by `cost --plot`) into docs/pictures/, the Markdown
# tables on stdout and in bench/results/by_size/by_size.md. Release build.
#
#   bash bench/by_size.sh [BINARY] [TIME_LIMIT] [NETWORK...]
#     BINARY      build/release/ccsched
#     TIME_LIMIT  seconds per solve (default 20; a solve still running at 6 times it is
#                 stopped and reported as such). A classical algorithm is no search, so
#                 its packing gets 6 times as its own limit (at 1,024 processors in p
#                 blocks it needs more than 10 s; BY_SIZE_CLASSICAL_LIMIT=S to change it)
#     NETWORK     default: torus:8x8 torus:16x16 torus:32x32 mesh:32x32 hypercube:10 fattree:1024
#   BY_SIZE_COLLECTIVES="ALLREDUCE REDUCESCATTER AAB REDUCE"   the collectives
#   BY_SIZE_TABLES_ONLY=1  measure nothing: the tables and pictures from the files there
#   BY_SIZE_SIMULATE=0     leave out the SimGrid replay
#   BY_SIZE_REPLAY="8 65536 1073741824"   the sizes replayed (default: these three; "all":
#                          every size, which costs a SimGrid run per schedule and size --
#                          about 0.3 s each at 64 processors, far more at 1,024)
#   TACOS_DIR=PATH         a TACOS source tree (github.com/astra-sim/tacos): also run its
#                          all-gather synthesizer (bench/tacos_allgather.cpp) on the tori,
#                          meshes and hypercubes, beside ccsched's AAB
#
# Every file goes to bench/results/by_size/<network>/<collective>/: the schedules, each
# solve's summary (with wall seconds and peak KB from /usr/bin/time), cost.json,
# simulate.json, plot.svg.
set -uo pipefail
bin=$(realpath "${1:-build/release/ccsched}")
limit=${2:-20}
shift 2 2>/dev/null || shift $#
networks=("$@")
[ ${#networks[@]} -eq 0 ] &&
  networks=(torus:8x8 torus:16x16 torus:32x32 mesh:32x32 hypercube:10 fattree:1024)
read -r -a collectives <<< "${BY_SIZE_COLLECTIVES:-ALLREDUCE REDUCESCATTER AAB REDUCE}"
simulate=${BY_SIZE_SIMULATE:-1}
# A solve that overruns its time limit this much is stopped (the classical algorithms'
# packing at 1,024 processors in p blocks can take many minutes).
cap=$(( limit * 6 ))
classical_limit=${BY_SIZE_CLASSICAL_LIMIT:-$cap}
replay_sizes=${BY_SIZE_REPLAY:-8 65536 1073741824}
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/bench/results/by_size
pictures=$root/docs/pictures
algorithms=(ring recursive-doubling rabenseifner swing bine binomial)
model=(--t0 1us --t1 1ns)
replay=(--bandwidth 1GBps --latency 1us)
mkdir -p "$out"
started=$(date +%s)

slug() { echo "$1" | tr ':,' '__'; }
processors() {
  "$bin" topo info "$1" 2>/dev/null | sed -n 's/.*(\([0-9][0-9]*\) processors.*/\1/p' | head -1
}

for net in "${networks[@]}"; do
  [ "${BY_SIZE_TABLES_ONLY:-0}" = 1 ] && break
  p=$(processors "$net")
  for cc in "${collectives[@]}"; do
    dir=$out/$(slug "$net")/$cc
    rm -rf "$dir"
    mkdir -p "$dir"
    cd "$dir" || exit 1
    files=()
    tc=()
    [ "$cc" != AAB ] && tc=(--tc 0.25ns)
    # ccsched's own reductions are chosen by time (docs/COST.md "Choosing a schedule by
    # message size": `solve --bytes M` under the model the table uses), one solve at each
    # of the table's sizes; `cost --crossover` then takes the fastest of them at every
    # size. REDUCESCATTER (a block per receiver) and AAB (one message each): one solve.
    case $cc in
      ALLREDUCE|REDUCE) sizes=(8 1024 65536 1048576 1073741824) ;;
      *) sizes=(0) ;;
    esac
    for m in "${sizes[@]}"; do
      name=own.json
      extra=()
      if [ "$m" != 0 ]; then
        name=own_at_$m.json
        extra=(--bytes "$m" "${model[@]}" "${tc[@]}")
      fi
      timeout "$cap" /usr/bin/time -f "wall %e s, peak %M KB" "$bin" solve "$net" --cc "$cc" \
        "${extra[@]}" --time-limit "$limit" -o "$name" > "${name%.json}.txt" 2>&1
      [ $? = 124 ] && echo "ccsched: error: stopped by the script after $cap s (timeout)" >> "${name%.json}.txt"
      [ -s "$name" ] && files+=("$name")
    done
    # The classical algorithms, each at its default block count (ALLREDUCE: p for ring and
    # Rabenseifner, 1 for the latency variants of Swing and Bine), and for ALLREDUCE also
    # Swing's and Bine's bandwidth variants in p blocks (swing-bw, bine-bw).
    variants=("${algorithms[@]}")
    [ "$cc" = ALLREDUCE ] && variants+=(swing-bw bine-bw)
    for a in "${variants[@]}"; do
      extra=()
      case $a in *-bw) extra=(--blocks "$p") ;; esac
      if timeout $(( classical_limit + 60 )) /usr/bin/time -f "wall %e s, peak %M KB" "$bin" solve \
          "$net" --cc "$cc" --algorithm "${a%-bw}" "${extra[@]}" --time-limit "$classical_limit" \
          -o "$a.json" > "$a.txt" 2>&1 &&
          [ -s "$a.json" ]; then
        files+=("$a.json")
      elif ! grep -q "ccsched: error\|^steps" "$a.txt"; then
        echo "ccsched: error: stopped by the script after $(( classical_limit + 60 )) s (timeout)" >> "$a.txt"
      fi
    done
    "$bin" cost "${files[@]}" "${model[@]}" "${tc[@]}" --crossover --from 8 --to 1GiB \
      --plot plot.svg --json > cost.json 2> cost.err
    if [ "$simulate" = 1 ] && [ "$replay_sizes" = all ]; then
      /usr/bin/time -f "wall %e s, peak %M KB" "$bin" simulate "${files[@]}" "${replay[@]}" \
        "${tc[@]}" --crossover --from 8 --to 1GiB --json > simulate.json 2> simulate.err
    elif [ "$simulate" = 1 ]; then
      for m in $replay_sizes; do
        /usr/bin/time -f "wall %e s, peak %M KB" "$bin" simulate "${files[@]}" "${replay[@]}" \
          "${tc[@]}" --bytes "$m" --json > "simulate_$m.json" 2> "simulate_$m.err"
      done
    fi
    echo "$net $cc: ${#files[@]} schedules, $(( $(date +%s) - started )) s so far" >&2
    cd "$root" || exit 1
  done
done

# TACOS's all-gather on the networks it has (2-D tori and meshes; hypercubes through its
# Topology interface), one chunk per processor: its time is a number of link rounds times
# alpha + chunk/bandwidth, so two sizes pin it; the script runs every size anyway.
if [ -n "${TACOS_DIR:-}" ] && [ "${BY_SIZE_TABLES_ONLY:-0}" != 1 ]; then
  tacos=$out/tacos_allgather
  g++ -std=c++17 -O2 -DNDEBUG -I"$TACOS_DIR/include" -I"$TACOS_DIR/include/tacos" \
    "$TACOS_DIR"/src/topology/*.cpp "$TACOS_DIR"/src/collective/*.cpp \
    "$TACOS_DIR"/src/event_queue/*.cpp "$TACOS_DIR"/src/synthesizer/*.cpp \
    "$root/bench/tacos_allgather.cpp" -o "$tacos"
  for net in "${networks[@]}"; do
    family=${net%%:*}
    case $family in torus|mesh|hypercube) ;; *) continue ;; esac
    dir=$out/$(slug "$net")
    mkdir -p "$dir"
    : > "$dir/tacos.txt"
    # 1 GB/s = 1e9 / 2^30 GiB/s, TACOS's unit; alpha 1 us. Links are alike, so a run's time
    # is R * (alpha + chunk/bandwidth) for a number of rounds R: one size (1 KiB) gives R;
    # the smallest network checks it at 8 B and 1 MiB. 3 runs (1 past 256 processors: about
    # 80 s of CPU each at 1,024).
    p=$(processors "$net")
    runs=3
    [ "$p" -gt 256 ] && runs=1
    sizes=(1024)
    [ "$p" -le 64 ] && sizes=(8 1024 1048576)
    for m in "${sizes[@]}"; do
      s=$(date +%s.%N)
      t=$("$tacos" "$family" "${net#*:}" "$m" 1 1 0.931322574615 "$runs" | sort -g | sed -n '1p;$p' | tr '\n' ' ')
      echo "$m $t $(echo "$(date +%s.%N) - $s" | bc)" >> "$dir/tacos.txt"
    done
  done
fi

# The tables and the pictures.
python3 - "$out" "$pictures" "${networks[@]}" <<'EOF' | tee "$out/by_size.md"
import json, math, os, re, sys
out, pictures, networks = sys.argv[1], sys.argv[2], sys.argv[3:]
collectives = os.environ.get("BY_SIZE_COLLECTIVES", "ALLREDUCE REDUCESCATTER AAB REDUCE").split()
algorithms = ["ring", "recursive-doubling", "rabenseifner", "swing", "bine", "binomial"]

def slug(n): return n.replace(":", "_").replace(",", "_")

def size(b):
    for unit, k in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if b >= 1 << k and b % (1 << k) == 0: return f"{b >> k} {unit}"
    return f"{b} B"

def us(t):
    """A time given in µs, in the unit that reads best: 6.07 µs, 15.7 ms, 1.36 s."""
    if t is None: return "-"
    if t < 1e3: return f"{t:.4g} µs"
    if t < 1e6: return f"{t / 1e3:.4g} ms"
    return f"{t / 1e6:.4g} s"

def summary(path):
    """steps, bound, engine, wall seconds of a solve's summary (or the error line)."""
    if not os.path.exists(path): return None
    text = open(path).read()
    steps = re.search(r"^steps\s+(\d+)", text, re.M)
    engine = re.search(r"^engine\s+(.*?),", text, re.M)
    wall = re.search(r"wall ([\d.]+) s, peak (\d+) KB", text)
    error = re.search(r"ccsched: error: (.*)", text)
    return {"steps": steps and int(steps.group(1)), "engine": engine and engine.group(1),
            "wall": wall and float(wall.group(1)), "kb": wall and int(wall.group(2)),
            "error": error and error.group(1)}

# The compact table of docs/BENCHMARKS.md: a few sizes, every schedule's model time, the
# ratio of the best classical algorithm to ccsched's best, the largest replay/model ratio.
summary_sizes = {8, 1024, 64 << 10, 1 << 20, 1 << 30}
every = ["ring", "recursive-doubling", "rabenseifner", "swing", "bine", "binomial", "swing-bw", "bine-bw"]
compact = []

for net in networks:
    panels = []
    compact.append(f"\n#### {net}\n\n| collective | size | ccsched (blocks) | " +
                   " | ".join(every) + " | best classical / ccsched | replay / model |\n|" + "---|" * (len(every) + 5))
    print(f"\n### {net}\n")
    for cc in collectives:
        d = os.path.join(out, slug(net), cc)
        if not os.path.exists(os.path.join(d, "cost.json")): continue
        try:
            cost = json.load(open(os.path.join(d, "cost.json")))
        except ValueError:
            print(f"{cc}: cost failed: {open(os.path.join(d, 'cost.err')).read().strip()}\n")
            continue
        # The replays: bytes -> seconds per schedule (one file for every size, or one per size).
        replayed, slowdown = {}, None
        for name in sorted(os.listdir(d)):
            if not re.fullmatch(r"simulate(_\d+)?\.json", name): continue
            try: doc = json.load(open(os.path.join(d, name)))
            except ValueError: continue
            if "sizes" not in doc:  # one schedule: simulate's single-schedule form
                doc = {"sizes": [{"bytes": doc["bytes"], "seconds": [doc["total_seconds"]]}],
                       "slowdown": doc["slowdown"]}
            for row in doc["sizes"]: replayed[row["bytes"]] = row["seconds"]
            slowdown = max(slowdown or 0.0, doc["slowdown"])
        sim = replayed or None
        files = [s["file"] for s in cost["schedules"]]
        own = [k for k, f in enumerate(files) if f.startswith("own")]
        classical = {f[:-5]: k for k, f in enumerate(files) if not f.startswith("own")}
        names = list(classical)
        print(f"**{cc}** — ccsched's own: " + ", ".join(
            f"{s['blocks']} block{'s' if s['blocks'] != 1 else ''} {s['steps']} steps ({s['engine']})"
            for s in (cost["schedules"][k] for k in own)))
        missing = []
        for a in names + [a for a in algorithms if a not in classical]:
            if a in classical:
                s = cost["schedules"][classical[a]]
                missing.append(f"{a} {s['blocks']} block{'s' if s['blocks'] != 1 else ''} {s['steps']} steps")
            else:
                info = summary(os.path.join(d, a + ".txt"))
                missing.append(f"{a}: " + ((info or {}).get("error") or "no schedule"))
        print("; classical: " + "; ".join(missing) + "\n")
        head = ["size", "ccsched", "blocks"] + names
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for i, row in enumerate(cost["sizes"]):
            times = row["us"]
            best = min((k for k in own if times[k] is not None), key=lambda k: times[k], default=None)
            cells = [size(row["bytes"]), us(times[best]) if best is not None else "-",
                     str(cost["schedules"][best]["blocks"]) if best is not None else "-"]
            cells += [us(times[classical[a]]) for a in names]
            print("| " + " | ".join(cells) + " |")
            if row["bytes"] in summary_sizes:
                cls = [times[classical[a]] if a in classical else None for a in every]
                known = [t for t in cls if t is not None]
                ratio = f"{min(known) / times[best]:.2f}" if known and best is not None else "-"
                compact.append(f"| {cc} | {size(row['bytes'])} | " +
                               (f"{us(times[best])} ({cost['schedules'][best]['blocks']})" if best is not None else "-") +
                               " | " + " | ".join(us(t) for t in cls) + f" | {ratio} | " +
                               (f"{slowdown:.3f}" if sim else "-") + " |")
        if sim:
            # The SimGrid replay at the sizes replayed: ccsched's fastest, each algorithm.
            print(f"\nSimGrid replay (replay / model at most {slowdown:.3f}):\n")
            print("| size | ccsched | " + " | ".join(names) + " |")
            print("|" + "---|" * (len(names) + 2))
            for b in sorted(sim):
                st = sim[b]
                sbest = min((st[k] for k in own if st[k] is not None), default=None)
                print(f"| {size(b)} | " + (us(sbest * 1e6) if sbest is not None else "-") + " | " +
                      " | ".join(us(st[classical[a]] * 1e6) if st[classical[a]] is not None else "-"
                                 for a in names) + " |")
        print()
        if os.path.exists(os.path.join(d, "plot.svg")): panels.append(os.path.join(d, "plot.svg"))
    tacos = os.path.join(out, slug(net), "tacos.txt")
    if os.path.exists(tacos):
        # TACOS's rounds: time / (alpha + m * beta), alpha 1 us, beta 1 ns/B.
        print("TACOS all-gather, one chunk each (best and worst run, µs; rounds; wall s): " + "; ".join(
            f"{size(int(l.split()[0]))}: {l.split()[1]}, {l.split()[2]} "
            f"({float(l.split()[1]) / (1 + int(l.split()[0]) * 1e-3):.0f} rounds; {float(l.split()[3]):.1f} s)"
            for l in open(tacos) if l.strip()) + "\n")
    # One picture per network: the panels side by side, two a row.
    if panels:
        docs = []
        for path in panels:
            text = open(path).read()
            text = text[text.index("<svg"):]
            w = float(re.search(r'width="([\d.]+)"', text).group(1))
            h = float(re.search(r'height="([\d.]+)"', text).group(1))
            docs.append((text, w, h))
        cw, ch = max(d[1] for d in docs), max(d[2] for d in docs)
        cols = 2 if len(docs) > 1 else 1
        rows = math.ceil(len(docs) / cols)
        body = ""
        for k, (text, w, h) in enumerate(docs):
            x, y = (k % cols) * cw, (k // cols) * ch
            body += re.sub(r"^<svg ", f'<svg x="{x:.1f}" y="{y:.1f}" ', text, count=1)
        name = os.path.join(pictures, f"by_size_{slug(net)}.svg")
        with open(name, "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" '
                    f'viewBox="0 0 {cols * cw:.1f} {rows * ch:.1f}" width="{cols * cw:.1f}" '
                    f'height="{rows * ch:.1f}">\n{body}</svg>\n')
with open(os.path.join(out, "by_size_summary.md"), "w") as f:
    f.write("\n".join(compact) + "\n")
EOF
echo "done in $(( $(date +%s) - started )) s" >&2
