#!/usr/bin/env python3
"""Writes the native engine's variant test set: tests/data/variants/*.json (f-puzzles JSON).

Usage: python3 benches/variant_set.py [OUT_DIR]   (default tests/data/variants)

For each rule kind it draws a solution grid that keeps the kind's board rules (disjoint groups,
anti-king), states every clue of the kind that grid has (every sandwich sum, every X-sum, the
arrows, thermometers, zippers, ... found in it), then removes clues and givens one at a time, in a
seeded random order, as long as sigh (../shared/peers/sigh, the differential referee) still finds
exactly one solution. So each puzzle is unique and close to minimal by sigh's count. The mixed
puzzle then has one clue changed so that it has no solution. Seeded: the same run writes the same
files (given the same sigh).
"""
import json, os, random, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS = os.path.join(ROOT, '..', 'shared', 'peers', 'sigh')
sys.path.insert(0, PEERS)
from fpuzzles_lib import to_sigh  # noqa: E402

N = 9
CELLS = [(r, c) for r in range(N) for c in range(N)]


def name(rc):
    return 'R%dC%d' % (rc[0] + 1, rc[1] + 1)


def box(r, c):
    return r // 3 * 3 + c // 3


def solution(rng, disjoint=False, antiking=False):
    """A random 9x9 solution keeping the given extra rules (plain backtracking)."""
    g = [[0] * N for _ in range(N)]

    def ok(r, c, d):
        for k in range(N):
            if g[r][k] == d or g[k][c] == d:
                return False
        br, bc = r // 3 * 3, c // 3 * 3
        for i in range(3):
            for j in range(3):
                if g[br + i][bc + j] == d:
                    return False
        if disjoint:
            for (rr, cc) in CELLS:
                if rr % 3 == r % 3 and cc % 3 == c % 3 and g[rr][cc] == d:
                    return False
        if antiking:
            for dr in (-1, 1):
                for dc in (-1, 1):
                    rr, cc = r + dr, c + dc
                    if 0 <= rr < N and 0 <= cc < N and g[rr][cc] == d:
                        return False
        return True

    def fill(k):
        if k == N * N:
            return True
        r, c = divmod(k, N)
        digits = list(range(1, N + 1))
        rng.shuffle(digits)
        for d in digits:
            if ok(r, c, d):
                g[r][c] = d
                if fill(k + 1):
                    return True
                g[r][c] = 0
        return False

    assert fill(0)
    return g


def neighbours(rc):
    r, c = rc
    for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, 1), (-1, -1)):
        if 0 <= r + dr < N and 0 <= c + dc < N:
            yield (r + dr, c + dc)


def paths(rng, length, count, good, tries=4000):
    """Up to `count` random non-overlapping king-move paths of `length` cells that `good` accepts."""
    used, out = set(), []
    for _ in range(tries):
        if len(out) >= count:
            break
        p = [rng.choice(CELLS)]
        while len(p) < length:
            options = [n for n in neighbours(p[-1]) if n not in p and n not in used]
            if not options:
                break
            p.append(rng.choice(options))
        if len(p) == length and not used & set(p) and good(p):
            out.append(p)
            used |= set(p)
    return out


def outside(kind_value):
    """Clues at every rim cell of every row and column: (cell name, line cells from the clue)."""
    out = []
    for k in range(N):
        row = [(k, c) for c in range(N)]
        col = [(r, k) for r in range(N)]
        out.append(('R%dC0' % (k + 1), row))
        out.append(('R%dC10' % (k + 1), row[::-1]))
        out.append(('R0C%d' % (k + 1), col))
        out.append(('R10C%d' % (k + 1), col[::-1]))
    return [(cell, kind_value(line)) for cell, line in out]


def clues_for(kind, g, rng):
    """Every clue of `kind` the solution `g` has, as (f-puzzles key, item) pairs."""
    V = lambda rc: g[rc[0]][rc[1]]
    out = []
    if kind in ('sandwich', 'mixed'):
        for k in range(N):
            for line, cell in (([(k, c) for c in range(N)], 'R%dC0' % (k + 1)),
                               ([(r, k) for r in range(N)], 'R0C%d' % (k + 1))):
                ds = [V(x) for x in line]
                a, b = sorted((ds.index(1), ds.index(9)))
                if kind == 'sandwich' or rng.random() < 0.3:
                    out.append(('sandwichsum', {'cell': cell, 'value': str(sum(ds[a + 1:b]))}))
    if kind == 'xsum':
        for cell, line in outside(lambda line: line):
            ds = [V(x) for x in line]
            out.append(('xsum', {'cell': cell, 'value': str(sum(ds[:ds[0]]))}))
    if kind == 'skyscraper':
        for cell, line in outside(lambda line: line):
            seen, top = 0, 0
            for x in line:
                if V(x) > top:
                    seen, top = seen + 1, V(x)
            out.append(('skyscraper', {'cell': cell, 'value': str(seen)}))
    if kind in ('littlekiller', 'mixed'):
        starts = [((0, c), 'DR') for c in range(1, N - 1)] + [((0, c), 'DL') for c in range(1, N - 1)] \
            + [((r, 0), 'DR') for r in range(1, N - 1)] + [((r, N - 1), 'DL') for r in range(1, N - 1)]
        step = {'DR': (1, 1), 'DL': (1, -1)}
        for (r, c), d in starts:
            dr, dc = step[d]
            line, (rr, cc) = [], (r, c)
            while 0 <= rr < N and 0 <= cc < N:
                line.append((rr, cc))
                rr, cc = rr + dr, cc + dc
            # The clue sits outside, one step before the first cell.
            clue = 'R%dC%d' % (r - dr + 1, c - dc + 1)
            if kind == 'littlekiller' or rng.random() < 0.3:
                out.append(('littlekillersum', {'cell': clue, 'direction': d,
                                                'value': str(sum(V(x) for x in line))}))
    if kind == 'quadruple':
        for r in range(N - 1):
            for c in range(N - 1):
                four = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
                vals = sorted(rng.sample([V(x) for x in four], rng.choice((2, 3, 4))))
                out.append(('quadruple', {'cells': [name(x) for x in four], 'values': vals}))
    if kind == 'oddeven':
        for rc in CELLS:
            out.append(('odd' if V(rc) % 2 else 'even', {'cell': name(rc)}))
    if kind in ('oddeven', 'arrow', 'mixed'):
        def arrow_ok(p):
            return V(p[0]) == sum(V(x) for x in p[1:])
        for p in paths(rng, 3, 8, arrow_ok) + paths(rng, 4, 6, arrow_ok):
            if kind != 'mixed' or rng.random() < 0.5:
                out.append(('arrow', {'cells': [name(p[0])], 'lines': [[name(x) for x in p]]}))
    if kind == 'zipper':
        def zipper_ok(p):
            if len(p) % 2 == 1:
                mid = len(p) // 2
                return all(V(p[i]) + V(p[-1 - i]) == V(p[mid]) for i in range(mid))
            s = V(p[0]) + V(p[-1])
            return all(V(p[i]) + V(p[-1 - i]) == s for i in range(len(p) // 2))
        for length in (3, 4, 5, 6):
            for p in paths(rng, length, 6, zipper_ok, 20000):
                out.append(('zipperline', {'lines': [[name(x) for x in p]]}))
    if kind == 'regionsum':
        def rs_ok(p):
            segs, cur = [], [p[0]]
            for x in p[1:]:
                if box(*x) == box(*cur[-1]):
                    cur.append(x)
                else:
                    segs.append(cur)
                    cur = [x]
            segs.append(cur)
            if len(segs) < 2 or len({box(*s[0]) for s in segs}) < len(segs):
                return False
            return len({sum(V(x) for x in s) for s in segs}) == 1
        for length in (4, 5, 6, 7):
            for p in paths(rng, length, 6, rs_ok, 20000):
                out.append(('regionsumline', {'lines': [[name(x) for x in p]]}))
    if kind in ('killer', 'mixed'):
        free, cages = set(CELLS), []
        order = CELLS[:]
        rng.shuffle(order)
        for start in order:
            if start not in free:
                continue
            cage, want = [start], rng.choice((2, 2, 3, 3, 4))
            free.discard(start)
            while len(cage) < want:
                options = [n for x in cage for n in neighbours(x)
                           if n in free and abs(n[0] - x[0]) + abs(n[1] - x[1]) == 1
                           and V(n) not in [V(y) for y in cage]]
                if not options:
                    break
                n = rng.choice(options)
                cage.append(n)
                free.discard(n)
            if len(cage) > 1 and (kind == 'killer' or rng.random() < 0.15):
                cages.append(cage)
        for cage in cages:
            out.append(('killercage', {'cells': [name(x) for x in cage],
                                       'value': str(sum(V(x) for x in cage))}))
    if kind in ('thermo', 'mixed'):
        def thermo_ok(p):
            return all(V(a) < V(b) for a, b in zip(p, p[1:]))
        for p in paths(rng, 4, 8, thermo_ok, 20000) + paths(rng, 3, 6, thermo_ok):
            if kind != 'mixed' or rng.random() < 0.4:
                out.append(('thermometer', {'lines': [[name(x) for x in p]]}))
    pairs = [((r, c), (r + dr, c + dc)) for (r, c) in CELLS for dr, dc in ((0, 1), (1, 0))
             if r + dr < N and c + dc < N]
    if kind in ('kropki', 'mixed'):
        for a, b in pairs:
            x, y = V(a), V(b)
            if abs(x - y) == 1 and (kind == 'kropki' or rng.random() < 0.3):
                out.append(('difference', {'cells': [name(a), name(b)]}))
            elif (x == 2 * y or y == 2 * x) and (kind == 'kropki' or rng.random() < 0.3):
                out.append(('ratio', {'cells': [name(a), name(b)]}))
    if kind in ('xv', 'mixed'):
        for a, b in pairs:
            s = V(a) + V(b)
            if s in (5, 10) and (kind == 'xv' or rng.random() < 0.3):
                out.append(('xv', {'cells': [name(a), name(b)], 'value': 'V' if s == 5 else 'X'}))
    return out


def fpuzzles(g, givens, clues, flags):
    grid = [[{} for _ in range(N)] for _ in range(N)]
    for rc in givens:
        grid[rc[0]][rc[1]] = {'value': g[rc[0]][rc[1]], 'given': True}
    out = {'size': N, 'grid': grid}
    out.update(flags)
    for key, item in clues:
        out.setdefault(key, []).append(item)
    return out


def sigh_counts(puzzles):
    """sigh's solution count (0, 1, 2 = none, one, several) for each puzzle."""
    with tempfile.NamedTemporaryFile('w', suffix='.sigh', delete=False) as f:
        for k, p in enumerate(puzzles):
            s, why = to_sigh(p)
            if s is None:
                raise SystemExit('sigh cannot state a puzzle: %s' % why)
            f.write('p%d\t%s\n' % (k, s))
        path = f.name
    # A candidate sigh cannot settle within the cap counts as not unique: the set is for
    # puzzles sigh proves quickly.
    out = subprocess.run(['node', os.path.join(PEERS, 'run.mjs'), '--json', '--max-backtracks',
                          '3000', path],
                         capture_output=True, text=True, check=True).stdout
    os.unlink(path)
    return [json.loads(line)['count'] for line in out.splitlines() if line.strip()]


def reduce(g, givens, clues, flags, rng, batch=12):
    """Drops clues and givens one at a time, in random order, while sigh still sees one solution."""
    items = [('g', x) for x in givens] + [('c', x) for x in clues]
    rng.shuffle(items)
    keep = list(items)
    # Removing a clue only ever adds solutions, so a clue that could not go once never can.
    pos = 0
    while pos < len(keep):
        tries = keep[pos:pos + batch]
        candidates = []
        for t in tries:
            rest = [x for x in keep if x is not t]
            candidates.append(fpuzzles(g, [x for k, x in rest if k == 'g'],
                                       [x for k, x in rest if k == 'c'], flags))
        counts = sigh_counts(candidates)
        dropped = next((i for i, n in enumerate(counts) if n == 1), None)
        if dropped is None:
            pos += len(tries)
        else:
            keep.remove(tries[dropped])
            pos += dropped
    return [x for k, x in keep if k == 'g'], [x for k, x in keep if k == 'c']


KINDS = [
    # (file name, clue kind, board rules)
    ('sandwich', 'sandwich', {}),
    ('xsum', 'xsum', {}),
    ('skyscraper', 'skyscraper', {}),
    ('littlekiller-disjoint', 'littlekiller', {'disjointgroups': True}),
    ('quadruple', 'quadruple', {}),
    ('quadruple-diagonal', 'quadruple', {'diagonal+': True, 'diagonal-': True}),
    ('oddeven-arrow', 'oddeven', {}),
    ('arrow', 'arrow', {}),
    ('zipper', 'zipper', {}),
    ('regionsum', 'regionsum', {}),
    ('killer-antiking', 'killer', {'antiking': True}),
    ('thermo', 'thermo', {}),
    ('kropki', 'kropki', {}),
    ('xv', 'xv', {}),
    ('mixed', 'mixed', {'antiking': True}),
]


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'tests', 'data', 'variants')
    os.makedirs(out_dir, exist_ok=True)
    # Files already made are kept (delete one to make it again).
    solutions_path = os.path.join(out_dir, 'solutions.txt')
    solutions = open(solutions_path).read().split('\n') if os.path.exists(solutions_path) else []
    solutions = [line for line in solutions if line.strip()]
    for k, (file, kind, flags) in enumerate(KINDS):
        name_made = 'mixed-nosolution' if kind == 'mixed' else file
        if os.path.exists(os.path.join(out_dir, name_made + '.json')):
            continue
        rng = random.Random(3000 + k)
        g = solution(rng, disjoint=flags.get('disjointgroups', False),
                     antiking=flags.get('antiking', False))
        if flags.get('diagonal+'):
            # Diagonals: find a solution that keeps them by redrawing (rare but quick to check).
            while not (len({g[i][i] for i in range(N)}) == N and len({g[i][N - 1 - i] for i in range(N)}) == N):
                g = solution(rng)
        clues = clues_for(kind, g, rng)
        # Start from the fewest random givens (of 0, 8, 16, ... 48) that with the clues leave
        # one solution; all 81 when none do.
        order = CELLS[:]
        rng.shuffle(order)
        sizes = list(range(0, 49, 8))
        counts = sigh_counts([fpuzzles(g, order[:n], clues, flags) for n in sizes])
        start = next((order[:n] for n, c in zip(sizes, counts) if c == 1), CELLS[:])
        givens, clues = reduce(g, start, clues, flags, rng)
        puzzle = fpuzzles(g, givens, clues, flags)
        puzzle['title'] = '%s (z3doku native test set, made by benches/variant_set.py)' % file
        if kind == 'mixed':
            # Break it: the first total (cage, little killer, then sandwich), moved by one
            # either way, that leaves no solution (sigh's count); never to a total no such
            # rule can have on its own (a sandwich of 1), so that the rules must be combined.
            tries = []
            for key in ('killercage', 'littlekillersum', 'sandwichsum'):
                for k in range(len(puzzle.get(key) or [])):
                    for step in (1, -1):
                        if key == 'sandwichsum' and int(puzzle[key][k]['value']) + step in (-1, 1, 36):
                            continue
                        broken = json.loads(json.dumps(puzzle))
                        broken[key][k]['value'] = str(int(broken[key][k]['value']) + step)
                        tries.append(broken)
            counts = sigh_counts(tries)
            puzzle = next((t for t, n in zip(tries, counts) if n == 0), None)
            assert puzzle is not None, 'no total moved by one leaves the mixed puzzle without a solution'
            file = 'mixed-nosolution'
        else:
            solutions.append('%s.json %s' % (file, ''.join(str(d) for row in g for d in row)))
        with open(os.path.join(out_dir, file + '.json'), 'w') as f:
            json.dump(puzzle, f, separators=(',', ':'))
            f.write('\n')
        with open(solutions_path, 'w') as f:
            f.write('\n'.join(sorted(solutions)) + '\n')
        print('%s: %d givens, %d clues' % (file, len(givens), len(clues)), file=sys.stderr)


if __name__ == '__main__':
    main()
