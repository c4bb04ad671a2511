#!/usr/bin/env python3
"""Times z3doku beside sigh on puzzles of the line kinds taken from sigh, in one sitting.

Usage:
  benches/line_kinds.py make [-b BINARY] [-k NAME,...] > benches/data/line_kinds.txt
  benches/line_kinds.py time [-b BINARY] [-r ROUNDS] [-e ENGINES] benches/data/line_kinds.txt

`make` builds one puzzle per rule set below (the committed file starts with a classic puzzle
without rules, `examples/puzzles/line.txt`, as the baseline of each solver's fixed cost): a board that keeps the rules (the native engine's
first solution of the empty grid), its digits given in a fixed scattered order until the puzzle
is unique, then each given dropped that the puzzle stays unique without; it prints
`name<TAB>sigh string` lines (`solve --output sigh`), which z3doku and sigh both read. `-k`
makes only the rule sets named (`benches/data/more_kinds.txt` is `-k "sum line,full rank,either"`
after the same classic baseline, `benches/data/connected_values.txt` `-k "connected values,connected values (one set)"`,
`benches/data/cage_kinds.txt` `-k "rellik cage,equality cage,lunchbox,equal sum,counting circles"`).

`time` runs, each round, sigh's runner on the whole file (its `total_ms`: building its handlers
and the search for up to 2 solutions), then per engine `z3doku batch --unique --jobs 1 -o json`
on the file's strings, one process for the whole file as sigh's runner is (each line's
`time_ms`: reading, solving, proving unique, checking; Z3 keeps one solver for the houses
from the first puzzle on, so the classic baseline pays for making it and Z3's context, where
sigh's runner warms up untimed), and prints per puzzle the median over the rounds of each, then the median over the
puzzles and each engine's ratio to sigh. A line named `... (warm-up)` is run but left out of the
table (`benches/data/shapes.txt`: before each shape's puzzle, its solution as givens, so that
the shape's houses are built once, as the classic baseline builds 9x9's). Engines are `native` or a Z3 encoding (`int`, `bool`, `pb`).
Needs node (sigh is ../shared/peers/sigh, see ../shared/peers/README.md).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# sigh's runner: under Z3DOKU_SHARED when it is set (a worktree kept elsewhere), as the tests
# take it, else beside the repository.
SIGH = os.path.join(os.environ.get("Z3DOKU_SHARED", os.path.join(HERE, "..", "shared")),
                    "peers", "sigh", "run.mjs")

# A line whose name ends so is timed but not shown or counted in the medians: it makes the
# solver the next puzzles of its shape find kept, as the classic baseline does for 9x9.
WARM_UP = "(warm-up)"

# (name, rule lines): a few instances of each kind on an empty 9x9 board.
RULES = [
    ("lockout", "lockout 4 r1c1 r1c2 r1c3 r1c4\nlockout 3 r5c5 r6c5 r7c5\nlockout 5 r9c1 r9c2 r8c2"),
    ("parity line", "parity line r1c1 r1c2 r1c3 r2c3 r2c4\nparity line r6c6 r7c6 r8c6 r8c7"),
    ("modular line 5", "modular line 5 r1c1 r1c2 r1c3 r1c4 r1c5 r1c6 r1c7\nmodular line 4 r4c4 r5c4 r6c4 r7c4 r8c4"),
    ("value indexing", "value indexing r1c1 r1c2 r4c2 r5c3 r6c4\nvalue indexing r5c5 r5c6 r6c6 r7c6"),
    ("count distinct", "count distinct (r1c1) r2c2 r3c3 r4c4 r5c5\ncount distinct (r9c9) r8c8 r7c8"),
    ("look and say", "look and say 2709 (r1c1 r2c2 r3c3 r4c4)\nlook and say 1305 (r6c1 r6c2 r7c1 r7c2)"),
    ("regex", "regex [1-4]+[6-9]{2,} r1c1 r1c2 r1c3 r1c4 r1c5\nregex (1|9)[^5]*5 r9c9 r8c9 r7c9 r6c9"),
    # sigh's encodings of `([13579][2468])*[13579]?` and of a running sum that ends at 10.
    ("state machine", "state machine BhaUCESUiky1DECCGKOA r1c1 r1c2 r1c3 r1c4 r1c5\n"
     "state machine TgRf8jRWeJoAf80VniaF_orPE0J_VniaEfs8TQh94mhB8TQgeaEB0IBE r9c9 r8c9 r7c9"),
    ("sum line", "sum line 10 r1c1 r1c2 r1c3 r2c3 r2c4 r2c5\n"
     "sum line 13 loop r5c5 r5c6 r6c6 r7c6 r7c5 r6c5"),
    ("full rank", "full rank 6 (row 1)\nfull rank 29 (column 9 from the bottom)\nfull rank 17 (column 4)"),
    ("either", "either thermo r1c1 r1c2 r1c3 r1c4 || thermo r1c4 r1c3 r1c2 r1c1\n"
     "either X (r5c5 r5c6) || V (r5c5 r5c6)\n"
     "either cage 10 (r9c1 r9c2) || white dot 1 (r9c1 r9c2) && thermo r9c1 r9c2"),
    ("connected values", "connected values 1 2 3 4 5\nconnected values 3 4 5 6 7 8 size 54"),
    ("connected values (one set)", "connected values 2 4 6 8 9"),
    # The cage kinds of tests/rule_kinds.rs (benches/data/cage_kinds.txt).
    ("rellik cage", "rellik cage 10 (r1c1 r1c2 r2c1 r2c2)\nrellik cage 6 (r5c4 r5c5 r5c6)\n"
     "rellik cage 14 (r9c8 r9c9)"),
    ("equality cage", "equality cage (r1c1 r1c2 r2c1 r2c2)\n"
     "equality cage (r5c3 r5c4 r5c5 r5c6 r5c7 r5c8)"),
    ("lunchbox", "lunchbox 7 (r1c1 r1c2 r1c3 r1c4 r1c5)\nlunchbox 0 (r4c4 r5c4 r6c4)\n"
     "lunchbox 15 (r9c2 r9c3 r8c3 r8c4)"),
    ("equal sum", "equal sum (r1c1 r1c2) (r2c5) (r3c8 r3c9)\n"
     "equal sum (r5c1 r6c1 r7c1) (r9c9 r8c9) (r5c5 r5c6)"),
    ("counting circles", "counting circles (r1c1 r2c4 r3c7 r5c2 r6c5 r7c9 r9c3 r4c8)"),
]


def run(binary, args):
    out = subprocess.run([binary, *args], capture_output=True, text=True, check=False)
    return out.stdout


def solve_json(binary, text, extra):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
        path = f.name
    try:
        return json.loads(run(binary, ["solve", path, "--engine", "native", "-o", "json", *extra]))
    finally:
        os.unlink(path)


def unique(binary, givens, rules):
    # A check that takes over 10 s counts as not unique: the native engine proves some sparse
    # puzzles slowly (full rank clues), and more givens settle them.
    got = solve_json(binary, givens + "\n" + rules + "\n", ["--unique", "--timeout", "10000"])
    return got["status"] == "unique"


def make(binary, names=None):
    for name, rules in RULES:
        if names is not None and name not in names:
            continue
        board = solve_json(binary, "." * 81 + "\n" + rules + "\n", [])["solutions"][0]
        order = [k * 37 % 81 for k in range(81)]
        givens = ["."] * 81
        for cell in order:
            if unique(binary, "".join(givens), rules):
                break
            givens[cell] = board[cell]
        for cell in order:
            if givens[cell] == ".":
                continue
            fewer = givens.copy()
            fewer[cell] = "."
            if unique(binary, "".join(fewer), rules):
                givens = fewer
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("".join(givens) + "\n" + rules + "\n")
            path = f.name
        string = run(binary, ["solve", path, "--engine", "native", "--output", "sigh"]).split("\n")[0]
        os.unlink(path)
        print(f"{name}\t{string}")


def time(binary, rounds, engines, path):
    lines = [l.rstrip("\n").split("\t") for l in open(path) if l.strip() and not l.startswith("#")]
    sigh = {name: [] for name, _ in lines}
    ours = {(name, e): [] for name, _ in lines for e in engines}
    for _ in range(rounds):
        out = subprocess.run(["node", SIGH, "--json", path], capture_output=True, text=True, check=True)
        for row in out.stdout.splitlines():
            row = json.loads(row)
            sigh[row["name"]].append(row["total_ms"])
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write("".join(string + "\n" for _, string in lines))
            strings = f.name
        try:
            for e in engines:
                args = ["--engine", "native"] if e == "native" else ["--engine", "z3", "--encoding", e]
                out = run(binary, ["batch", strings, "--unique", "--jobs", "1", "-o", "json", *args])
                records = [json.loads(r) for r in out.splitlines()]
                records = [r for r in records if "line" in r]
                assert len(records) == len(lines), (e, out)
                for (name, _), got in zip(lines, records):
                    assert got["status"] == "unique", (name, e, got["status"])
                    ours[(name, e)].append(got["time_ms"])
        finally:
            os.unlink(strings)
    print("puzzle\tsigh ms\t" + "\t".join(f"{e} ms\tvs sigh" for e in engines))
    medians = {e: [] for e in ["sigh", *engines]}
    for name, _ in lines:
        if name.endswith(WARM_UP):
            continue
        s = statistics.median(sigh[name])
        medians["sigh"].append(s)
        row = [name, f"{s:.2f}"]
        for e in engines:
            m = statistics.median(ours[(name, e)])
            medians[e].append(m)
            row += [f"{m:.2f}", f"{m / s:.2f}x"]
        print("\t".join(row))
    s = statistics.median(medians["sigh"])
    row = ["median", f"{s:.2f}"]
    for e in engines:
        m = statistics.median(medians[e])
        row += [f"{m:.2f}", f"{m / s:.2f}x"]
    print("\t".join(row))


def main():
    args = sys.argv[1:]
    binary = os.path.join(HERE, "target", "release", "z3doku")
    rounds, engines = 3, ["native", "bool", "pb", "int"]
    rest, names = [], None
    while args:
        a = args.pop(0)
        if a == "-b":
            binary = args.pop(0)
        elif a == "-r":
            rounds = int(args.pop(0))
        elif a == "-e":
            engines = args.pop(0).split(",")
        elif a == "-k":
            names = args.pop(0).split(",")
        else:
            rest.append(a)
    if rest[:1] == ["make"]:
        make(binary, names)
    elif rest[:1] == ["time"] and len(rest) == 2:
        time(binary, rounds, engines, rest[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
