#!/usr/bin/env python3
"""The limit campaign (docs/BENCHMARKS.md, "Limits"): random solve problems on networks of
64 to 1,024 processors, every collective kind, with and without link faults, each under a
random --time-limit of 2 to 30 s and a --max-memory, checking that every run ends within
L + 10 % + 1 s, stays under its memory cap (peak resident set, GNU time), exits 0 and
writes a schedule that `ccsched verify` accepts. Each run also records its CPU time and
the machine's load average: on an oversubscribed machine the clock runs while the process
waits for a core, so the wall time says as much about the load as about the run.

    python3 bench/limits.py [--binary build/release/ccsched] [--count 100] [--seed 1]
                            [--max-limit 30] [--memory 4G] [--markdown]
                            [--interrupt | --never-hides]

With --interrupt, each run gets SIGINT (Ctrl-C) at a random moment instead of waiting for
its limit (0.1 s to half the limit, at most 4 s: the path listing, bounds, designs or a
search), and the check is that it ends within 1 s of the signal, exits 130 (or 0 when it
had finished) and that any schedule it wrote verifies.

With --never-hides, each problem is solved twice: without a limit (--time-limit 100000)
and interrupted with SIGINT at L/2, which writes the best schedule reached by then, and
with --time-limit L. The check is that the limited run's steps are at most the
interrupted run's: a limit never hides an answer the unlimited run had found within L/2
(the budget shares must not starve the strategy that wins).

Deterministic for a seed (the problems and limits drawn); never run by the tests.
"""
import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

NETWORKS = [
    "torus:8x8", "mesh:8x8", "hypercube:6", "fattree:64", "kautz:3,3", "debruijn:2,6",
    "torus:10x10", "mesh:12x12", "hypercube:7", "kautz:2,6", "torus:16x16", "hypercube:8",
    "fattree:256", "kautz:3,4", "mesh:16x16", "omega:64", "butterfly:128", "torus:32x32",
    "hypercube:10", "mesh:32x32", "fattree:1024", "kautz:3,5", "levi", "hoffman-singleton",
]
KINDS = ["OAB", "AAB", "OAS", "AAS", "AOG", "MNB", "MNS", "PERM", "REDUCE", "ALLREDUCE",
         "REDUCESCATTER", "SCAN"]


def processors(binary, spec):
    out = subprocess.run([binary, "topo", "info", spec], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        if line.startswith("nodes"):
            words = line.split()
            total = int(words[1])
            if "processors" in line:
                return total, int(line.split("(")[1].split()[0])
            return total, total
    raise RuntimeError(f"no node count for {spec}")


def links(binary, spec):
    out = subprocess.run([binary, "topo", "export", spec, "--format", "edges"],
                         capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        words = line.split()
        if len(words) == 2 and words[0].isdigit() and words[1].isdigit():
            found.append(f"{words[0]}-{words[1]}")
        elif len(words) == 3 and words[1] == "->":
            found.append(f"{words[0]}-{words[2]}")
    return found


def problem(rng, binary, cache):
    spec = rng.choice(NETWORKS)
    if spec not in cache:
        cache[spec] = (processors(binary, spec), links(binary, spec))
    (_, procs), edges = cache[spec]
    kind = rng.choice(KINDS)
    args = [spec, "--cc", kind]
    if rng.random() < 0.5:
        args += ["--ports", "1"]
    if kind in ("MNB", "MNS"):
        ids = list(range(procs)) if not spec.startswith(("fattree", "omega", "butterfly")) else None
        if ids is None:
            kind = "AAS"
            args[2] = kind
        else:
            k = max(2, procs // 4)
            args += ["--senders", ",".join(map(str, sorted(rng.sample(ids, k)))),
                     "--receivers", ",".join(map(str, sorted(rng.sample(ids, k))))]
    faults = 0 if not edges or rng.random() < 0.5 else rng.randint(1, 2)
    for link in rng.sample(edges, faults):
        args += ["--fault", link]
    limit = rng.randint(2, 30)
    return spec, kind, args, limit, faults


def run(binary, args, limit, memory, workdir):
    out = os.path.join(workdir, "s.json")
    if os.path.exists(out):
        os.remove(out)
    cmd = ["/usr/bin/time", "-f", "%e %M %U %S", binary, "solve", *args, "--time-limit",
           str(limit), "--max-memory", memory, "--quiet", "-o", out]
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=10 * limit + 120)
    wall = time.monotonic() - start
    words = p.stderr.strip().splitlines()[-1].split()
    peak_kb = int(words[1])
    cpu = float(words[2]) + float(words[3])
    verified = None
    if p.returncode == 0 and os.path.exists(out):
        v = subprocess.run([binary, "verify", out], capture_output=True, text=True)
        verified = v.returncode == 0
    first_err = next((l for l in p.stderr.splitlines() if l.strip()), "")
    return p.returncode, wall, peak_kb, verified, first_err, cpu


def steps_of(path):
    with open(path) as f:
        return json.load(f)["steps"]


def run_interrupted(binary, args, limit, memory, workdir, after, keep=None):
    """Solve with SIGINT after `after` seconds: (status, seconds from the signal to the
    exit, peak KB, verified or None, first stderr line). With `keep`, the schedule written
    is left there."""
    out = keep or os.path.join(workdir, "s.json")
    if os.path.exists(out):
        os.remove(out)
    cmd = ["/usr/bin/time", "-f", "%e %M", binary, "solve", *args, "--time-limit", str(limit),
           "--max-memory", memory, "--quiet", "-o", out]
    # GNU time passes SIGINT on to its child and reports it; the process group gets it as a
    # terminal's Ctrl-C would deliver it.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        p.wait(timeout=after)
        signalled = None
    except subprocess.TimeoutExpired:
        signalled = time.monotonic()
        os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=10 * limit + 120)
    late = time.monotonic() - signalled if signalled is not None else 0.0
    lines = err.strip().splitlines()
    words = lines[-1].split() if lines else []
    peak_kb = int(words[-1]) if words and words[-1].isdigit() else 0
    verified = None
    if os.path.exists(out):
        v = subprocess.run([binary, "verify", out], capture_output=True, text=True)
        verified = v.returncode == 0
    first_err = next((l for l in lines if l.strip() and not l.startswith("Command")), "")
    if any("terminated by signal" in l for l in lines):
        first_err = "killed by the signal (no handler)"
    return p.returncode, late, peak_kb, verified, first_err, signalled is not None


def interrupt_campaign(a, rng, cache, cap_kb):
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        for i in range(a.count):
            spec, kind, args, limit, faults = problem(rng, a.binary, cache)
            limit = min(limit, a.max_limit)
            after = rng.uniform(0.1, max(0.3, min(4.0, limit / 2)))
            status, late, peak_kb, verified, err, signalled = run_interrupted(
                a.binary, args, limit, a.memory, workdir, after)
            # GNU time exits with its child's status; a child killed by the signal it
            # could not handle would show as a signal, never as 130 or 0.
            ok = (late <= 1.0 and peak_kb <= cap_kb and status in (0, 1, 2, 130) and
                  verified is not False and not err.startswith("killed"))
            rows.append(dict(i=i, command=" ".join(args), after=after, late=late,
                             signalled=signalled, peak_mb=peak_kb / 1024, status=status,
                             verified=verified, ok=ok, error=err))
            print(f"{i:3d} {'ok ' if ok else 'BAD'} SIGINT at {after:5.2f} s, exit "
                  f"{late:5.2f} s later, peak {peak_kb / 1024:7.1f} MB exit {status} "
                  f"{'verified' if verified else 'no schedule' if verified is None else 'INVALID'}"
                  f"  solve {' '.join(args)}", file=sys.stderr, flush=True)
    bad = [r for r in rows if not r["ok"]]
    summary = dict(runs=len(rows), signalled=sum(r["signalled"] for r in rows),
                   within_1s=sum(r["late"] <= 1.0 for r in rows),
                   max_late_s=max(r["late"] for r in rows),
                   wrote_schedule=sum(r["verified"] is not None for r in rows),
                   verified=sum(bool(r["verified"]) for r in rows),
                   max_peak_mb=max(r["peak_mb"] for r in rows), bad=len(bad))
    if a.markdown:
        print("| # | command | SIGINT at (s) | exit after (s) | exit | schedule |")
        print("|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['i']} | `solve {r['command']}` | {r['after']:.2f} | {r['late']:.2f} | "
                  f"{r['status']} | {'verified' if r['verified'] else 'none' if r['verified'] is None else 'INVALID'} |")
        print()
    print(json.dumps(summary, indent=1))
    return 1 if bad else 0


def never_hides_campaign(a, rng, cache):
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        half = os.path.join(workdir, "half.json")
        for i in range(a.count):
            spec, kind, args, limit, faults = problem(rng, a.binary, cache)
            limit = min(limit, a.max_limit)
            _, _, _, half_ok, _, _ = run_interrupted(a.binary, args, 100000, a.memory, workdir,
                                                     limit / 2, keep=half)
            at_half = steps_of(half) if half_ok else None
            status, wall, _, verified, err, _ = run(a.binary, args, limit, a.memory, workdir)
            limited = steps_of(os.path.join(workdir, "s.json")) if verified else None
            ok = at_half is None or (limited is not None and limited <= at_half)
            rows.append(dict(i=i, command=" ".join(args), limit=limit, at_half=at_half,
                             limited=limited, wall=wall, ok=ok))
            print(f"{i:3d} {'ok ' if ok else 'BAD'} limit {limit:2d} s: unlimited at L/2 "
                  f"{at_half if at_half is not None else '-':>5} steps, limited {limited if limited is not None else '-':>5} "
                  f"({wall:5.2f} s)  solve {' '.join(args)}", file=sys.stderr, flush=True)
    bad = [r for r in rows if not r["ok"]]
    if a.markdown:
        print("| # | command | limit L (s) | unlimited, stopped at L/2 | with --time-limit L |")
        print("|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['i']} | `solve {r['command']}` | {r['limit']} | "
                  f"{r['at_half'] if r['at_half'] is not None else 'none'} | "
                  f"{r['limited'] if r['limited'] is not None else 'none'} |")
        print()
    print(json.dumps(dict(runs=len(rows), compared=sum(r["at_half"] is not None for r in rows),
                          never_hidden=len(rows) - len(bad),
                          better_with_limit=sum(r["at_half"] is not None and r["limited"] is not None
                                                and r["limited"] < r["at_half"] for r in rows),
                          bad=[r["command"] for r in bad]), indent=1))
    return 1 if bad else 0


def parse_bytes(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return float(text[:-1]) * units[text[-1].upper()] if text[-1].upper() in units else float(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", default="build/release/ccsched")
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-limit", type=int, default=30)
    ap.add_argument("--memory", default="4G")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--interrupt", action="store_true",
                    help="send SIGINT at a random moment and check the exit within 1 s")
    ap.add_argument("--never-hides", action="store_true",
                    help="compare each limited run with the unlimited run stopped at L/2")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    cache = {}
    cap_kb = parse_bytes(a.memory) / 1024
    if a.interrupt:
        return interrupt_campaign(a, rng, cache, cap_kb)
    if a.never_hides:
        return never_hides_campaign(a, rng, cache)
    rows = []
    with tempfile.TemporaryDirectory() as workdir:
        for i in range(a.count):
            spec, kind, args, limit, faults = problem(rng, a.binary, cache)
            limit = min(limit, a.max_limit)
            load = os.getloadavg()[0]
            status, wall, peak_kb, verified, err, cpu = run(a.binary, args, limit, a.memory,
                                                            workdir)
            allowed = 1.1 * limit + 1.0
            ok = wall <= allowed and peak_kb <= cap_kb and (status == 2 or verified)
            rows.append(dict(i=i, command=" ".join(args), limit=limit, wall=wall,
                             overrun=wall - limit, peak_mb=peak_kb / 1024, status=status,
                             verified=verified, ok=ok, faults=faults, error=err, cpu=cpu,
                             load=load))
            print(f"{i:3d} {'ok ' if ok else 'BAD'} limit {limit:2d} s wall {wall:6.2f} s "
                  f"cpu {cpu:6.2f} s load {load:4.1f} "
                  f"peak {peak_kb / 1024:7.1f} MB exit {status} "
                  f"{'verified' if verified else err[:60]}  solve {' '.join(args)}",
                  file=sys.stderr, flush=True)
    bad = [r for r in rows if not r["ok"]]
    worst = max(rows, key=lambda r: r["wall"] - (1.1 * r["limit"] + 1.0))
    summary = dict(runs=len(rows), within_limits=len(rows) - len(bad),
                   refused=sum(r["status"] == 2 for r in rows),
                   verified=sum(bool(r["verified"]) for r in rows),
                   max_overrun_s=max(r["overrun"] for r in rows),
                   worst=worst["command"], worst_limit=worst["limit"], worst_wall=worst["wall"],
                   max_peak_mb=max(r["peak_mb"] for r in rows),
                   mean_load=sum(r["load"] for r in rows) / len(rows))
    if a.markdown:
        print("| # | command | limit (s) | wall (s) | cpu (s) | load | peak (MB) | exit | "
              "verified |")
        print("|---|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(f"| {r['i']} | `solve {r['command']}` | {r['limit']} | {r['wall']:.2f} | "
                  f"{r['cpu']:.2f} | {r['load']:.1f} | "
                  f"{r['peak_mb']:.0f} | {r['status']} | "
                  f"{'yes' if r['verified'] else ('refused' if r['status'] == 2 else 'no')} |")
        print()
    print(json.dumps(summary, indent=1))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
