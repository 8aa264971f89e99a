#!/usr/bin/env python3
"""Runs the seeds' scheduling tables through the ccsched CLI (Release build) and writes
a Markdown table: network, collective, paper steps, our lower bound, our steps, proven
optimal or not, our seconds, the paper's time.

    python3 bench/seed_tables.py [--binary build/release/ccsched] [--time-limit 300]
        [--tables ddn,min1,min3,faults] [--out bench/results/seed_tables.md]

Tables (from tests/data/seed_tables.json):
  ddn     seed 000 Table 6 (steps) with Table 7 (EA times)
  min1    seed 001 Table 1 (unidirectional MINs, 1-port)
  min3    seed 001 Table 3 (trees; FB-Tree OAB/OAS per source level)
  faults  seed 000 Table 5 (Kautz(3,2), one faulty link, root 01)
Only the Python standard library is used (Debian's python3).
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KINDS = ["OAB", "AAB", "OAS", "AAS"]


def run(binary, args, time_limit):
    cmd = [binary, "solve"] + args + ["--json", "--quiet", "--time-limit", str(time_limit)]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode not in (0, 1):
        return {"error": proc.stderr.strip() or f"exit {proc.returncode}", "wall": wall, "cmd": cmd}
    out = json.loads(proc.stdout)
    out["wall"] = wall
    out["cmd"] = cmd
    return out


def paper_cell(value):
    """The paper's figure as text and the step count it reached (b of 'a/b')."""
    if isinstance(value, str):
        head = value.split()[0].rstrip("*")
        reached = int(head.split("/")[-1])
        return value, reached
    return str(value), value


def fbtree_roots(p):
    """One processor per level of fbtree:p, leaf first, root last (generator: node 0 is
    the root, children of i are 2i+1 and 2i+2)."""
    levels = []
    node = 0
    while node < p:
        levels.append(node)
        node = 2 * node + 1
    return list(reversed(levels))


def row_md(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def verdict(ours, paper_reached):
    if "error" in ours or ours.get("steps", -1) < 0:
        return "open"
    s = ours["steps"]
    if s < paper_reached:
        return "better"
    return "same" if s == paper_reached else "worse"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, "build/release/ccsched"))
    ap.add_argument("--time-limit", type=float, default=300)
    ap.add_argument("--tables", default="ddn,min1,min3,faults")
    ap.add_argument("--only", default="", help="substring filter on the network spec")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "seed_tables.md"))
    args = ap.parse_args()
    ref = json.load(open(os.path.join(ROOT, "tests", "data", "seed_tables.json")))
    lines = []
    header = ["table", "network", "ports", "CC", "paper", "our LB", "our steps", "optimal",
              "why", "our s", "paper time", "vs paper"]
    lines.append(row_md(header))
    lines.append(row_md(["---"] * len(header)))
    total_start = time.monotonic()

    def emit(table, spec, ports, kind, paper_value, extra, paper_time):
        if args.only and args.only not in spec:
            return
        text, reached = paper_cell(paper_value)
        ports_args = [] if ports is None else ["--ports", str(ports)]
        ours = run(args.binary, [spec, "--cc", kind] + ports_args + extra, args.time_limit)
        if "error" in ours:
            cells = [table, spec, ports or "default", kind + " ".join([""] + extra), text, "-", "-",
                     "-", ours["error"], f"{ours['wall']:.1f}", paper_time, "open"]
        else:
            cells = [table, spec, ports or "default", kind + " ".join([""] + extra), text,
                     ours["lower_bound"], ours["steps"] if ours["steps"] >= 0 else "-",
                     "yes" if ours["optimal"] else "no", ours["reason"], f"{ours['seconds']:.2f}",
                     paper_time, verdict(ours, reached)]
        lines.append(row_md(cells))
        print(lines[-1], flush=True)

    tables = args.tables.split(",")
    if "ddn" in tables:
        for row in ref["ddn_table6"]["rows"]:
            spec = row["spec"]
            ports = row["ports"] if spec.startswith("ring") else None
            for kind in KINDS:
                paper_time = row.get("time", {}).get(kind, "")
                if spec == "ring:8" and row["ports"] == 1:
                    emit("000 T6", "ring:8", 1, kind, row[kind], [], paper_time)
                    emit("000 T6", "uring:8", 1, kind, row[kind], [], paper_time)
                    continue
                emit("000 T6", spec, ports, kind, row[kind], [], paper_time)
                if spec == "kautz:3,3" and kind == "OAS":
                    emit("000 T6", spec, ports, kind, row[kind], ["--routing", "nonminimal:1"], paper_time)
    if "min1" in tables:
        times = ref["min_table3_bidirectional"].get("min_table6_ea_times_aas", {})
        for row in ref["min_table1_unidirectional"]["rows"]:
            for kind in KINDS:
                emit("001 T1", row["spec"], None, kind, row[kind], [],
                     times.get(row["spec"], "") if kind == "AAS" else "")
    if "min3" in tables:
        t3 = ref["min_table3_bidirectional"]
        for row in t3["rows"]:
            spec = row["spec"]
            for kind in KINDS:
                paper_time = ""
                if kind == "AAS":
                    paper_time = t3.get("min_table6_ea_times_aas", {}).get(spec, "")
                if kind == "AAB":
                    paper_time = t3.get("min_table6_ea_times_aab", {}).get(spec, "")
                value = row[kind]
                if isinstance(value, list):
                    p = int(spec.split(":")[1])
                    for root, v in zip(fbtree_roots(p), value):
                        emit("001 T3", spec, None, kind, v, ["--root", str(root)], paper_time)
                else:
                    emit("001 T3", spec, None, kind, value, [], paper_time)
    elapsed = time.monotonic() - total_start
    fault_text = ""
    if "faults" in tables and (not args.only or args.only in "kautz:3,2"):
        start = time.monotonic()
        proc = subprocess.run([args.binary, "faults", "kautz:3,2", "--cc", "OAB,AAB,OAS,AAS",
                               "--root", "01", "--json", "--cell-time-limit", str(args.time_limit)],
                              capture_output=True, text=True)
        fault_seconds = time.monotonic() - start
        if proc.returncode == 0:
            sweep = json.loads(proc.stdout)
            paper = {r["link"]: r for r in ref["kautz12_faults_table5"]["rows"]}
            fl = [row_md(["link", "OAB paper/ours", "AAB paper/ours", "OAS paper/ours",
                          "AAS paper/ours", "all optimal"]), row_md(["---"] * 6)]
            for r in sweep["rows"]:
                p = paper.get(r["link"], paper.get("all other") if r["link"] != "none" else paper["none"])
                cells = [r["link"]]
                all_opt = True
                for kind in KINDS:
                    c = r["cells"][kind]
                    all_opt = all_opt and c["optimal"]
                    mark = "**" if c["degraded"] else ""
                    cells.append(f"{p[kind]} / {mark}{c['steps']}{mark}")
                cells.append("yes" if all_opt else "no")
                fl.append(row_md(cells))
            fault_text = "\n".join(fl) + f"\n\nfault diameter: {sweep['fault_diameter']}; " \
                f"sweep time {fault_seconds:.1f} s\n"
            print(fault_text)
        else:
            fault_text = "faults sweep failed: " + proc.stderr.strip() + "\n"
        elapsed += fault_seconds
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
        if fault_text:
            f.write("\n" + fault_text)
        f.write(f"\ntotal wall time: {elapsed:.1f} s (time limit per cell {args.time_limit:.0f} s)\n")
    print(f"total {elapsed:.1f} s -> {args.out}")


if __name__ == "__main__":
    sys.exit(main())
