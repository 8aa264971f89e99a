#!/usr/bin/env python3
"""ccsched's own one-block schedules against the classical algorithms in steps
(docs/ENGINES.md, "Classical algorithms"; docs/BENCHMARKS.md, "Classical algorithms at
1,024"): for each network, port model and collective (ALLREDUCE with one block,
REDUCESCATTER, AAB, REDUCE, OAB), `ccsched solve` (the search) and `ccsched solve
--algorithm NAME` for every algorithm that writes the collective (ALLREDUCE: --blocks 1).
Prints one line per problem: ccsched's steps and engine, then each algorithm's steps, with
"<<BEATS" after an algorithm that has fewer steps than ccsched's own.

    python3 bench/classical_steps.py [--binary build/release/ccsched] [--time-limit 10]
        [--kinds ALLREDUCE,AAB] [--ports 1,all] NET...
"""
import argparse
import json
import subprocess

WRITES = {"ALLREDUCE": ["ring", "recursive-doubling", "rabenseifner", "swing", "bine", "binomial"],
          "REDUCESCATTER": ["ring", "rabenseifner", "swing", "bine"],
          "AAB": ["ring", "recursive-doubling", "swing", "bine"],
          "REDUCE": ["binomial", "bine"], "OAB": ["binomial", "bine"]}


def solve(binary, args):
    """The JSON summary of one solve, or None and its error line."""
    done = subprocess.run([binary, "solve"] + args + ["--json", "--quiet"], capture_output=True,
                          text=True)
    if done.returncode != 0:
        return None, done.stderr.strip()
    return json.loads(done.stdout), ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("nets", nargs="+")
    parser.add_argument("--binary", default="build/release/ccsched")
    parser.add_argument("--time-limit", default="10")
    parser.add_argument("--kinds", default=",".join(WRITES))
    parser.add_argument("--ports", default="1,all")
    a = parser.parse_args()
    for net in a.nets:
        for ports in a.ports.split(","):
            for kind in a.kinds.split(","):
                base = [net, "--cc", kind, "--ports", ports]
                own, err = solve(a.binary, base + ["--time-limit", a.time_limit])
                row = []
                for algorithm in WRITES[kind]:
                    blocks = ["--blocks", "1"] if kind == "ALLREDUCE" else []
                    doc, e = solve(a.binary, base + ["--algorithm", algorithm] + blocks)
                    row.append(f"{algorithm}={doc['steps'] if doc else 'error: ' + e}")
                    if doc and own and doc["steps"] < own["steps"]:
                        row.append("<<BEATS")
                print(net, ports, kind, "ccsched", own["steps"] if own else "-",
                      f"({own['engine']})" if own else err, " ".join(row), flush=True)


if __name__ == "__main__":
    main()
