#!/usr/bin/env bash
# Rating speed beside serate, in one sitting: every STEP-th puzzle of top1465 (the first LIMIT
# of those, or all) rated by serate
# (its own per-puzzle `%e` time, JVM start excluded) and by `z3doku batch --rate --engine native
# --jobs 1` (each line's `time_ms`, the rating alone, ROUNDS times, alternating with nothing else),
# then the medians, the ratio of the medians, the median of the per-puzzle ratios, and the ratings
# compared. Needs Java (serate) and python3.
#
# Usage: benches/serate_speed.sh [Z3DOKU [LIMIT [ROUNDS [STEP]]]]   (target/release/z3doku, 100, 3, 1)
# LIMIT may be `all`. The set's first 100 are easier than the whole (their serate median is about
# an eighth of the whole's), so `all 3 10`, every 10th of top1465, is the representative sample.
# The shared data is ../shared beside the repository, or SHARED=DIR; SET=FILE rates another file of
# the same form (a puzzle and serate's ER/EP/ED a line), such as qqwing_levels_se1213.txt there.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
z3doku=$(realpath "${1:-$here/target/release/z3doku}")
limit=${2:-100}
rounds=${3:-3}
step=${4:-1}
[[ $limit == all ]] && limit=1000000
shared=${SHARED:-$here/../shared}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
awk -v n="$limit" -v step="$step" '!/^#/ && k++ % step == 0 && taken++ < n' "${SET:-$shared/data/ratings/top1465_se1213.txt}" > "$work/set.txt"
awk '{print $1}' "$work/set.txt" > "$work/puzzles.txt"
"$shared/peers/serate/serate.sh" "$work/puzzles.txt" '--format=%r/%p/%d %e' > "$work/serate.txt"
for round in $(seq "$rounds"); do
  "$z3doku" batch --rate --engine native --jobs 1 -q -o json "$work/puzzles.txt" > "$work/z3doku.$round.json"
done
python3 - "$work" "$rounds" <<'EOF'
import json, re, statistics, sys
work, rounds = sys.argv[1], int(sys.argv[2])

def seconds(text):
    """serate's %e: '1.234 s', '12 ms' or 'm:ss' forms, as seconds."""
    text = text.strip()
    m = re.fullmatch(r"([\d.]+)\s*(ms|s|sec|seconds)?", text)
    if m:
        return float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
    parts = [float(p) for p in text.split(":")]
    total = 0.0
    for p in parts:
        total = total * 60 + p
    return total

serate = []
for line in open(f"{work}/serate.txt"):
    rating, _, elapsed = line.strip().partition(" ")
    serate.append((rating, seconds(elapsed)))
ours = [[json.loads(l) for l in open(f"{work}/z3doku.{r}.json") if l.startswith("{")] for r in range(1, rounds + 1)]
n = len(serate)
assert all(len(o) == n for o in ours), "a different number of lines"
same = sum(
    1 for (rating, _), row in zip(serate, ours[0])
    if "rating" in row and f"{row['rating']['er']:.1f}/{row['rating']['ep']:.1f}/{row['rating']['ed']:.1f}" == rating
)
se_median = statistics.median(t for _, t in serate)
print(f"{n} puzzles; ratings equal to serate's: {same} of {n}")
print(f"serate %e: median {se_median * 1000:.2f} ms, mean {statistics.mean(t for _, t in serate) * 1000:.1f} ms")
for r, rows in enumerate(ours, 1):
    ms = [row["time_ms"] for row in rows]
    ratios = [t * 1000 / m for (_, t), m in zip(serate, ms) if m > 0]
    print(
        f"z3doku round {r}: median {statistics.median(ms):.3f} ms, mean {statistics.mean(ms):.2f} ms; "
        f"ratio of the medians {se_median * 1000 / statistics.median(ms):.0f}x, "
        f"median of the per-puzzle ratios {statistics.median(ratios):.0f}x"
    )
EOF
