#!/usr/bin/env python3
"""A one-block ALLREDUCE template for hypercube:n with 2^n blocks at the volume bound
(docs/ENGINES.md, "Block templates on hypercubes"; the table in
src/engines/reduce/cube_blocks.cpp came from `FLIP=0 MASK=63 python3
bench/cube_blocks_sat.py 6 21 9`, about a second, and the tests verify its schedule). Run
offline, never at solve time; needs the `cadical` binary (Debian package cadical):

    [MASK=m] [FLIP=0|1] [EXCH=i] [TAU_B=k] python3 bench/cube_blocks_sat.py N T TAU

Template A is a one-block ALLREDUCE of one-hop transfers: a reduce tree into node 0 in steps
1..TAU (every other node sends its accumulator once, after its children) and a broadcast
tree from node 0 in steps TAU+1..T (every other node takes the sum once, by copy, and sends
it on only after); EXCH=i: a reduce forest into nodes 0 and e_i, which complete each other
by an exchange in step TAU. Template B is A backwards in time (A's u -> v in step t is
B's v -> u in step T+1-t, again such an ALLREDUCE), or with TAU_B=k a template of its own.
A channel u -> u xor e_i is in class (i, f(u)), f(u) the parity of u & MASK (default 1);
moving a transfer by the vectors h with f(h) = 0 uses every channel of its class once.
The blocks b with f(b) = 0 run A moved by b; the others run B moved by b (FLIP=1, the
default: its classes flip) or by b xor g for a fixed g with f(g) = 1 (FLIP=0: they do not).
The schedule is contention-free when every step uses each class at most once over A and B
together; at the volume bound (T * 2n classes = 4 (2^n - 1) transfers) exactly once.
Prints SATISFIABLE and A's transfers by step (from:dimension) or UNSATISFIABLE.
"""
import itertools
import os
import subprocess
import sys

n, T, TAU = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
# B: A backwards (default), or a template of its own with its own tau (TAU_B=k).
TAU_B = int(os.environ.get("TAU_B", "0"))
FREE = TAU_B > 0
MASK = int(os.environ.get("MASK", "1"))
# FLIP=0: B's root moved off the even-f translates, so that its classes do not flip.
FLIP = int(os.environ.get("FLIP", "1"))
# EXCH=i: the sum is formed by an exchange of nodes 0 and e_i in step tau (both roots).
EXCH = int(os.environ.get("EXCH", "-1"))  # the classes' functional f(u) = parity of u & MASK
P = 1 << n
FULL = T * 2 * n == 4 * (P - 1)
nv = 0
cls = []


def var():
    global nv
    nv += 1
    return nv


def amo(lits):
    lits = list(lits)
    if len(lits) <= 1:
        return
    if len(lits) <= 5:
        for a, b in itertools.combinations(lits, 2):
            cls.append([-a, -b])
        return
    s = [var() for _ in lits[:-1]]
    cls.append([-lits[0], s[0]])
    for i in range(1, len(lits) - 1):
        cls.append([-lits[i], s[i]])
        cls.append([-s[i - 1], s[i]])
        cls.append([-lits[i], -s[i - 1]])
    cls.append([-lits[-1], -s[-1]])


def exactly_one(lits):
    cls.append(list(lits))
    amo(lits)


def template(tau):
    """A one-block ALLREDUCE of one-hop transfers: x[t, u, i] sends u -> u ^ e_i in step t,
    a merge of the reduce tree into node 0 up to tau, a copy of the broadcast tree after."""
    x = {(t, u, i): var() for t in range(1, T + 1) for u in range(P) for i in range(n)}
    merge = range(1, tau + 1)
    spread = range(tau + 1, T + 1)
    # sent[u][t]: u has sent its merge by the end of step t; got[u][t]: u holds the sum.
    sent = {(u, t): var() for u in range(P) for t in range(0, tau + 1)}
    got = {(u, t): var() for u in range(P) for t in range(tau, T + 1)}
    roots = (0, 1 << EXCH) if EXCH >= 0 else (0,)
    for u in range(P):
        cls.append([-sent[u, 0]])
        for t in merge:
            step = [x[t, u, i] for i in range(n)]
            # sent[u][t] <-> sent[u][t-1] or a send in t
            cls.append([-sent[u, t], sent[u, t - 1]] + step)
            cls.append([sent[u, t], -sent[u, t - 1]])
            for l in step:
                cls.append([sent[u, t], -l])
        if u == 0 and EXCH < 0:
            for t in merge:
                for i in range(n):
                    cls.append([-x[t, u, i]])
        else:
            exactly_one([x[t, u, i] for t in merge for i in range(n)])
            # The parent sends later than its child (the root never sends).
            for t in merge:
                for i in range(n):
                    w = u ^ (1 << i)
                    if u in roots and w in roots:
                        continue  # the exchange, in tau
                    if w != 0 or EXCH >= 0:
                        cls.append([-x[t, u, i], -sent[w, t]])
        if u in roots and EXCH >= 0:
            # The two roots complete each other: each sends its sum to the other in tau.
            cls.append([x[tau, u, EXCH]])
        # got: the roots from tau on; others by one copy in the spread phase.
        if u in roots:
            for t in range(tau, T + 1):
                cls.append([got[u, t]])
        else:
            cls.append([-got[u, tau]])
            for t in spread:
                into = [x[t, u ^ (1 << i), i] for i in range(n)]
                cls.append([-got[u, t], got[u, t - 1]] + into)
                cls.append([got[u, t], -got[u, t - 1]])
                for l in into:
                    cls.append([got[u, t], -l])
            exactly_one([x[t, u ^ (1 << i), i] for t in spread for i in range(n)])
        # A copy is sent only by a node that held the sum before the step.
        for t in spread:
            for i in range(n):
                cls.append([-x[t, u, i], got[u, t - 1]])
    return x


def f(u):
    return bin(u & MASK).count("1") & 1


x = template(TAU)
if FREE:
    y = template(TAU_B)
else:
    # B is A backwards in time: A's u -> v in step T+1-t is B's v -> u in step t.
    y = {(t, u ^ (1 << i), i): x[T + 1 - t, u, i]
         for t in range(1, T + 1) for u in range(P) for i in range(n)}
# Classes: a channel u -> u ^ e_i is in class (i, f(u)); B runs moved by blocks b with
# f(b) = 1, which flips its classes.
for t in range(1, T + 1):
    for i in range(n):
        for c in (0, 1):
            lits = [x[t, u, i] for u in range(P) if f(u) == c]
            lits += [y[t, u, i] for u in range(P) if f(u) ^ FLIP == c]
            amo(lits)
            # At the volume bound every class is busy every step (T * 2n classes for
            # 2 (2^n - 1) transfers of A and as many of B): at least one, too.
            if FULL:
                cls.append(lits)

path = "/tmp/cube_blocks_%d_%d_%d_%d_%d.cnf" % (n, T, TAU, TAU_B, MASK)
with open(path, "w") as f:
    f.write("p cnf %d %d\n" % (nv, len(cls)))
    for c in cls:
        f.write(" ".join(map(str, c)) + " 0\n")
r = subprocess.run(["cadical", "-q", path], capture_output=True, text=True)
if "UNSATISFIABLE" in r.stdout:
    print("UNSATISFIABLE")
    sys.exit(0)
true = set()
for line in r.stdout.splitlines():
    if line.startswith("v"):
        true.update(int(v) for v in line.split()[1:] if int(v) > 0)
print("SATISFIABLE")
moves = sorted((t, u, i) for (t, u, i), v in x.items() if v in true)
print(len(moves), "transfers")
for t in range(1, T + 1):
    print(t, " ".join("%d:%d" % (u, i) for (s, u, i) in moves if s == t))
