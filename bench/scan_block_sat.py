#!/usr/bin/env python3
"""Block programs for the hypercube SCAN by levels (docs/ENGINES.md, "Reductions: hypercube
SCAN by levels"; src/engines/reduce/hscan.cpp, whose tables came from here and whose
schedules the tests verify). Run offline, never at solve time; needs the `cadical` binary (Debian package cadical):

    python3 bench/scan_block_sat.py K T [pure|window [noinput]]
                                        (CAP=2 in the environment: two flip orders a segment)

One block of the K-cube (positions 0..2^K-1) over T steps, every block running the same
moves. A window program (default) must leave position m with its own block's 0..m and the
previous block's m+1..2^K-1; its cross moves come from the previous block over the high path
taken at one block position x, at most one a step at each x. `pure`: a plain prefix (the
top level, no cross moves). `noinput`: no `input` move after step 1 (a level that is not the
first). Variables: a[t][m][i] (item i in m's accumulator after step t), one per candidate
move (step, input or acc, from, to, flip order, x); clauses: a channel of the block at most
once a step, each item into an accumulator at most once a step (R2), the accumulators only
grow (no copies), the window at the end. Prints SATISFIABLE and the moves, or UNSATISFIABLE,
and writes them to /tmp/sol_K_T_pure.json, then as the rows of hscan.cpp (Move).
Found: pure 3 2 (P8), pure 5 3 with CAP=2 (P32, 15 s); none: 3 2 and 4 2 (windows),
pure 4 2.
"""
import itertools, subprocess, sys, json
k = int(sys.argv[1]); T = int(sys.argv[2]); PURE = len(sys.argv) > 3 and sys.argv[3] == "pure"; NOINPUT = len(sys.argv) > 4
K = 1 << k
CAP = int(__import__("os").environ.get("CAP", "1000"))
nv = 0
cls = []
def var():
    global nv; nv += 1; return nv
def amo(lits):
    lits = list(lits)
    if len(lits) <= 1: return
    if len(lits) <= 5:
        for a, b in itertools.combinations(lits, 2): cls.append([-a, -b])
        return
    s = [var() for _ in lits[:-1]]
    cls.append([-lits[0], s[0]])
    for i in range(1, len(lits) - 1):
        cls.append([-lits[i], s[i]]); cls.append([-s[i-1], s[i]]); cls.append([-lits[i], -s[i-1]])
    cls.append([-lits[-1], -s[-1]])
def win(m):  # items (o, j)
    return [(0, j) for j in range(m + 1)] + ([] if PURE else [(-1, j) for j in range(m + 1, K)])
def bits(x): return [d for d in range(k) if x >> d & 1]
def walks(a, b):  # all flip orders a->b, as list of channels (node, dim)
    out = []
    perms = list(itertools.permutations(bits(a ^ b)))
    if len(perms) > CAP: perms = perms[:: max(1, len(perms) // CAP)][:CAP]
    for perm in perms:
        u = a; ch = []
        for d in perm: ch.append((u, d)); u ^= 1 << d
        out.append(ch)
    return out
acc = {}
for m in range(K):
    for i in win(m):
        acc[0, m, i] = var()
        cls.append([acc[0, m, i]] if i == (0, m) else [-acc[0, m, i]])
transfers = []  # (t, kind, l, m, cross, x, channels, sel)
for t in range(1, T + 1):
    for m in range(K):
        for i in win(m): acc[t, m, i] = var()
    for l in range(K):
        for m in range(K):
            for cross in ((False,) if PURE else (False, True)):
                if l == m and not cross: continue
                if (not cross and l >= m) or (cross and l <= m): continue
                paths = []
                if not cross:
                    for w in walks(l, m): paths.append((None, w))
                else:
                    for x in range(K):
                        if (x ^ l) & ~(l ^ m): continue
                        for w1 in walks(l, x):
                            for w2 in walks(x, m): paths.append((x, w1 + w2))
                for kind in (('input',) if t == 1 else (('acc',) if NOINPUT else ('input', 'acc'))):
                    for x, ch in paths:
                        transfers.append((t, kind, l, m, cross, x, ch, var()))
# carries
into = {}
for e in transfers:
    t, kind, l, m, cross, x, ch, sel = e
    if kind == 'input':
        items = [((0, l), None)]
    else:
        items = [(i, acc[t-1, l, i]) for i in win(l)]
    for i, a in items:
        j = (i[0] - 1, i[1]) if cross else i
        if j not in win(m):
            if a is None: cls.append([-sel])
            else: cls.append([-sel, -a])
            continue
        if a is None:
            c = sel
        else:
            c = var(); cls += [[-c, sel], [-c, a], [-sel, -a, c]]
        into.setdefault((t, m, j), []).append(c)
for t in range(1, T + 1):
    for m in range(K):
        for i in win(m):
            cs = into.get((t, m, i), [])
            amo([acc[t-1, m, i]] + cs)
            cls.append([-acc[t, m, i], acc[t-1, m, i]] + cs)
            cls.append([acc[t, m, i], -acc[t-1, m, i]])
            for c in cs: cls.append([acc[t, m, i], -c])
            if t == T: cls.append([acc[t, m, i]])
    use = {}
    for e in transfers:
        if e[0] != t: continue
        for c in e[6]: use.setdefault(c, []).append(e[7])
        if e[4]: use.setdefault(('x', e[5]), []).append(e[7])
    for lits in use.values(): amo(lits)
with open('/tmp/w_%d_%d_%d.cnf' % (k, T, PURE) + '', 'w') as f:
    f.write(f'p cnf {nv} {len(cls)}\n')
    for c in cls: f.write(' '.join(map(str, c)) + ' 0\n')
print('vars', nv, 'clauses', len(cls), 'transfers', len(transfers), file=sys.stderr)
r = subprocess.run(['cadical', '-q', '/tmp/w_%d_%d_%d.cnf' % (k, T, PURE) + ''], capture_output=True, text=True)
first = r.stdout.splitlines()[0] if r.stdout else ''
print(first)
if 'UNSAT' in first or 'SATISFIABLE' not in first: sys.exit()
val = set()
for line in r.stdout.splitlines():
    if line.startswith('v'):
        val.update(int(v) for v in line.split()[1:] if int(v) > 0)
sol = []
for e in transfers:
    if e[7] in val:
        t, kind, l, m, cross, x, ch, sel = e
        sol.append(dict(t=t, kind=kind, l=l, m=m, cross=cross, x=x, ch=ch))
        print(t, kind, l, '->', m, 'cross' if cross else '', x, ch)
for t in range(1, T + 1):
    print('after', t, {m: sorted(i for i in win(m) if acc[t, m, i] in val) for m in range(K)})
json.dump(sol, open(f'/tmp/sol_{k}_{T}_{int(PURE)}.json', 'w'))
# The moves as hscan.cpp's Move rows: {step, input, from, to, flips}, '^' the high path.
for e in sorted(sol, key=lambda e: (e['t'], e['m'], e['l'])):
    s, u, rest = '', e['l'], list(e['ch'])
    if e['cross']:
        while u != e['x']:
            d = rest.pop(0)[1]; s += str(d); u ^= 1 << d
        s += '^'
    s += ''.join(str(c[1]) for c in rest)
    print('{%d, %s, %d, %d, "%s"},' % (e['t'], 'true' if e['kind'] == 'input' else 'false',
                                       e['l'], e['m'], s))
