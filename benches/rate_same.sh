#!/usr/bin/env bash
# Checks that a change to the rating techniques changed no rating, and how much time it took:
# rates serate's fixture sets (../shared/data/ratings, 2,465 puzzles) with two z3doku binaries and
# compares every `batch --rate` line byte for byte, then times both on the first LIMIT puzzles of
# top1465, alternating ROUNDS times (`batch --rate --engine native --jobs 1`, CPU seconds).
#
# Usage: benches/rate_same.sh BEFORE AFTER [LIMIT [ROUNDS]]   (LIMIT 300, ROUNDS 2 by default)
#   BEFORE, AFTER: two z3doku binaries (copy target/release/z3doku aside before the change).
# Prints the lines that differ (none when the ratings are the same), each set's agreement with
# serate for AFTER, and the CPU time of each round. Exit status 1 when any line differs. The shared
# data is ../shared beside the repository, or SHARED=DIR; SETS="top1465_se1213" rates one set only.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
before=$(realpath "$1")
after=$(realpath "$2")
limit=${3:-300}
rounds=${4:-2}
shared=${SHARED:-$here/../shared}
ratings=$shared/data/ratings
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for set in ${SETS:-top1465_se1213 qqwing_levels_se1213}; do
  grep -v '^#' "$ratings/$set.txt" | awk '{print $1}' > "$work/$set.in"
  grep -v '^#' "$ratings/$set.txt" | awk '{print $NF}' > "$work/$set.se"
  for side in before after; do
    bin=$before
    [[ $side == after ]] && bin=$after
    "$bin" batch --rate --engine native --jobs 2 -q "$work/$set.in" > "$work/$set.$side" 2>/dev/null || true
  done
  if ! diff "$work/$set.before" "$work/$set.after"; then
    status=1
  fi
  # serate's 20.0 is "beyond its techniques": z3doku's `ER ?`.
  sed -E 's|.* ER ([^/ ]+)/EP ([^/ ]+)/ED ([^ ]+) .*|\1/\2/\3|; s|^\?[^/]*|20.0|' "$work/$set.after" \
    | paste -d' ' - "$work/$set.se" \
    | awk -v set="$set" '{ n++; if ($1 == $2) same++ } END { printf "%s: %d of %d equal to serate (%.1f%%)\n", set, same, n, 100 * same / n }'
done
grep -v "^#" "$shared/data/puzzles3_magictour_top1465.txt" | sed -n "1,${limit}p" > "$work/time.in"
for ((r = 1; r <= rounds; r++)); do
  for side in before after; do
    bin=$before
    [[ $side == after ]] && bin=$after
    /usr/bin/time -f "round $r $side: %U s user, %S s system, %e s wall" \
      "$bin" batch --rate --engine native --jobs 1 -q "$work/time.in" > /dev/null
  done
done
uptime
exit $status
