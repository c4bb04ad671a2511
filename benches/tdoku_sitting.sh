#!/usr/bin/env bash
# z3doku's native engine beside tdoku in one sitting, alternating, uniqueness included.
#
# Usage: benches/tdoku_sitting.sh [ROUNDS]   (default 3)
#
# Each round runs, one after the other:
#   - `examples/native_speed 3` (each puzzle's fastest of 3 passes) and tdoku through
#     benches/tdoku_best_pass.cc, timed the same way, on top1465, forum_hardest_1106 and 17_clue;
#   - tdoku's own `run_benchmark -s tdoku -r 0 -t 5 -w 2 -n 20000` on the two hard sets, under GNU
#     time (its wall-clock figure and CPU share);
#   - whole-process CPU time (GNU time: elapsed, user, system) of
#     `z3doku batch --engine native --unique --jobs 1 -q` and of one tdoku pass over the same file:
#     20,000 hard puzzles, forum_hardest_1106 repeated ($OUT/hard20k.txt).
# Quote medians over the rounds and the load (`uptime`, printed each round).
#
# To put builds of z3doku beside each other and tdoku in the same sitting (a change against the
# engine before it), set Z3DOKU_BUILDS to a space-separated list of folders, each holding a
# `z3doku` and a `native_speed` binary (copied from target/release and target/release/examples);
# every round then runs the z3doku steps once per folder, in the order given, instead of once for
# this checkout's target/release.
#
# Needs ../shared (data and peers/tdoku, a C++14 compiler) and
# `cargo build --release --bin z3doku --example native_speed`. tdoku is built with its own
# flags (-O3 -march=native) into $OUT (default /tmp/tdoku-sitting).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
data=${Z3DOKU_DATA:-$here/../shared/data}
peer=${TDOKU:-$here/../shared/peers/tdoku}
out=${OUT:-/tmp/tdoku-sitting}
export Z3DOKU_DATA=$data
mkdir -p "$out"
OUT=$out bash "$peer/build.sh" > /dev/null
g++ -O3 -march=native -std=c++14 -I"$out/gen" -I"$peer/include" -I"$peer/src" \
  -o "$out/tdoku_best_pass" "$here/benches/tdoku_best_pass.cc" \
  "$peer/src/solver_dpll_triad_simd.cc" "$peer/src/util.cc"
awk '!/^#/ { p[n++] = $0 } END { for (i = 0; i < 20000; i++) print p[i % n] }' \
  "$data/puzzles6_forum_hardest_1106.txt" > "$out/hard20k.txt"
sets=("$data/puzzles3_magictour_top1465.txt" "$data/puzzles6_forum_hardest_1106.txt"
  "$data/puzzles2_17_clue.txt")
timed() { /usr/bin/time -f "time %e %U %S" "$@"; }
builds=(${Z3DOKU_BUILDS:-})
if [ ${#builds[@]} -eq 0 ]; then
  mkdir -p "$out/this"
  ln -sf "$here/target/release/z3doku" "$out/this/z3doku"
  ln -sf "$here/target/release/examples/native_speed" "$out/this/native_speed"
  builds=("$out/this")
fi
for r in $(seq "$rounds"); do
  echo "== round $r: $(uptime)"
  for build in "${builds[@]}"; do
    echo "-- z3doku native_speed 3 ($build)"
    "$build/native_speed" 3 | tail -n 3
  done
  echo "-- tdoku, fastest of 3 passes"
  "$out/tdoku_best_pass" 3 "${sets[@]}"
  for set in "${sets[@]:0:2}"; do
    echo "-- tdoku run_benchmark $(basename "$set")"
    timed "$out/run_benchmark" -s tdoku -r 0 -t 5 -w 2 -n 20000 "$set" 2>&1 | tail -n 2
  done
  for build in "${builds[@]}"; do
    echo "-- z3doku batch, hard20k ($build)"
    timed "$build/z3doku" batch --engine native --unique --jobs 1 -q "$out/hard20k.txt" \
      2>&1 > /dev/null
  done
  echo "-- tdoku one pass, hard20k"
  timed "$out/tdoku_best_pass" 1 "$out/hard20k.txt" 2>&1
done
