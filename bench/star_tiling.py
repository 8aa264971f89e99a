#!/usr/bin/env python3
"""Star factorisations of Z_2^n built from linear algebra, for the star exchange
(docs/ENGINES.md, "Reductions: star exchange"; src/engines/reduce/cube.cpp, which checks every
table again with is_tiling before use). Run offline, never at solve time:

    python3 bench/star_tiling.py N A B [SEED]     (N = 1 + 2A + 3B; e.g. 16 3 3, 7 3 0)

The factorisation has T = 1 + A + B stars: the all-ones vector, A stars of three vectors and
B stars of seven, every star covering all N coordinates. Coordinate i gets a column
c_i = (1, g_1(i), ..., g_A(i)) with g_s(i) a nonzero vector of Z_2^2 (the three-vector star s
puts i into its vector g_s(i)), and the seven-vector star t puts i into its vector
f_t(i) = M_t c_i, a nonzero vector of Z_2^3 (M_t a 3 x (1 + 2A) matrix). Why it tiles (the
Fourier criterion of cube.cpp: a star {0} u D kills the character u iff exactly (|D| + 1)/2
of its vectors v have u.v odd; the sizes multiply to 2^N):
  - the all-ones star kills every u of odd weight;
  - for u of even weight the block parities of a three-vector star have even weight, 0 or 2,
    and they are 2 exactly when sum_{i in u} g_s(i) != 0 (the three nonzero vectors of Z_2^2
    are the images of the weight-2 patterns, one to one);
  - otherwise sum_{i in u} c_i = 0, so sum_{i in u} f_t(i) = M_t sum c_i = 0: the block
    parities p of the seven-vector star have even weight and sum_j p_j point_j = 0, where
    point_j runs over the nonzero vectors of Z_2^3 (the Fano plane), so p lies in the
    even-weight Hamming code, the simplex code, whose nonzero words all have weight 4: the
    star kills u unless all its block parities are even;
  - a u left by every star has sum c_i = 0 and even intersections with every block, so it is
    0 when the extended columns (c_i, e_{f_1(i)}, ..., e_{f_B(i)}) of the N coordinates are
    linearly independent, which is what the search asks for (with every vector non-empty).
The search draws the matrices M_t at random (from SEED), keeps the columns on which every
f_t is nonzero, and tries the N-subsets of them. It prints the table in cube.cpp's layout and
checks the tiling by enumerating Z_2^N.
"""
import itertools
import random
import sys


def rank(vectors):
    basis = []
    for v in vectors:
        for b in basis:
            v = min(v, v ^ b)
        if v:
            basis.append(v)
    return len(basis)


def parity(x):
    return bin(x).count("1") & 1


def is_tiling(n, stars):
    seen = bytearray(1 << n)
    seen[0] = 1
    held = [0]
    for star in stars:
        grown = []
        for v in star:
            for x in held:
                if seen[x ^ v]:
                    return False
                seen[x ^ v] = 1
                grown.append(x ^ v)
        held += grown
    return len(held) == 1 << n


def search(n, a, b, rng, tries=100000):
    width = 1 + 2 * a
    columns = [1 | sum(g << (1 + 2 * s) for s, g in enumerate(gs))
               for gs in itertools.product((1, 2, 3), repeat=a)]
    for _ in range(tries):
        rows = [[rng.randrange(1 << width) for _ in range(3)] for _ in range(b)]

        def f(t, c):
            return sum(parity(rows[t][r] & c) << r for r in range(3))

        usable = [c for c in columns if all(f(t, c) != 0 for t in range(b))]
        for chosen in itertools.combinations(usable, n):
            if any(len({f(t, c) for c in chosen}) != 7 for t in range(b)):
                continue
            if any(len({(c >> (1 + 2 * s)) & 3 for c in chosen}) != 3 for s in range(a)):
                continue
            extended = []
            for c in chosen:
                e = c
                for t in range(b):
                    e |= 1 << (width + 7 * t + f(t, c) - 1)
                extended.append(e)
            if rank(extended) != n:
                continue
            stars = [[(1 << n) - 1]]
            for t in range(b):
                star = [0] * 7
                for i, c in enumerate(chosen):
                    star[f(t, c) - 1] |= 1 << i
                stars.append(star)
            for s in range(a):
                star = [0] * 3
                for i, c in enumerate(chosen):
                    star[((c >> (1 + 2 * s)) & 3) - 1] |= 1 << i
                stars.append(star)
            return stars
    return None


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: star_tiling.py N A B [SEED]   (N = 1 + 2A + 3B)")
    n, a, b = (int(x) for x in sys.argv[1:4])
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    if n != 1 + 2 * a + 3 * b:
        sys.exit("N must be 1 + 2A + 3B")
    stars = search(n, a, b, random.Random(seed))
    if stars is None:
        sys.exit("none found")
    print("tiling:", "ok" if is_tiling(n, stars) else "BROKEN")
    print("{%d, {%s}}," % (n, ", ".join("{" + ", ".join(map(str, s)) + "}" for s in stars)))


if __name__ == "__main__":
    main()
