#!/usr/bin/env bash
# Times z3doku (uniqueness included) beside sigh on f-puzzles JSON files, in one sitting.
#
# Usage: benches/variant_speed.sh [-b BINARY] [-e ENGINES] [-t TIMEOUT_MS] [-r ROUNDS] FILE.json...
#   -b  the z3doku binary (default target/release/z3doku)
#   -e  engines, comma-separated, each `native`, `race` or a Z3 encoding `int|bool|pb`
#       (default native,bool,race)
#   -t  each puzzle's timeout in ms (default 30000); a puzzle past it shows `timeout`
#   -r  rounds (default 3): each round runs sigh's runner, then each engine's batch; each figure
#       is the median over the rounds
#
# z3doku's figure is each line's `time_ms` from `batch --unique --jobs 1 -o json` (reading,
# solving, proving unique, checking; not the process start), sigh's its runner's `total_ms`
# (building its handlers and the search for up to 2 solutions), as docs/variants.md measures.
# Prints one tab-separated row per puzzle: file, sigh's count, ms and guesses, then per engine
# the status, ms and (native, from one `check --stats`) search nodes; then the median of each column. Needs
# `pip install lzstring` and node (sigh is ../shared/peers/sigh, see ../shared/peers/README.md).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$here/target/release/z3doku
engines=native,bool,race
timeout=30000
rounds=3
while getopts b:e:t:r: opt; do
  case $opt in
    b) bin=$OPTARG ;;
    e) engines=$OPTARG ;;
    t) timeout=$OPTARG ;;
    r) rounds=$OPTARG ;;
    *) exit 2 ;;
  esac
done
shift $((OPTIND - 1))
sigh=$here/../shared/peers/sigh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$sigh/fpuzzles_to_sigh.py" "$@" > "$tmp/p.sigh"
python3 - "$@" > "$tmp/p.txt" <<'EOF'
import json, lzstring, sys
z = lzstring.LZString()
for f in sys.argv[1:]:
    print(z.compressToBase64(json.dumps(json.load(open(f)), separators=(',', ':'))))
EOF
IFS=, read -r -a list <<< "$engines"
for r in $(seq "$rounds"); do
  node "$sigh/run.mjs" --json "$tmp/p.sigh" > "$tmp/sigh.$r" 2>/dev/null
  for e in "${list[@]}"; do
    case $e in
      native) args=(--engine native) ;;
      race) args=(--engine race) ;;
      *) args=(--engine z3 --encoding "$e") ;;
    esac
    "$bin" batch "$tmp/p.txt" "${args[@]}" --unique --jobs 1 --timeout "$timeout" -o json \
      > "$tmp/$e.$r" 2>/dev/null || true
  done
done
# Search nodes (deterministic) from one `check --stats` per puzzle.
for f in "$@"; do
  n=$("$bin" check "$f" --engine native --timeout "$timeout" --stats -o line 2>&1 >/dev/null \
    | grep -oE 'nodes[^0-9]*[0-9]+' | grep -oE '[0-9]+$' | tail -1 || true)
  echo "${n:--}"
done > "$tmp/nodes"
python3 - "$tmp" "$rounds" "$engines" "$@" <<'EOF'
import json, os, statistics, sys
tmp, rounds, engines, files = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(','), sys.argv[4:]
def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None
sigh = [{} for _ in files]
for r in range(1, rounds + 1):
    for line in open(os.path.join(tmp, 'sigh.%d' % r)):
        row = json.loads(line)
        k = [os.path.basename(f) for f in files].index(row['name'])
        sigh[k].setdefault('ms', []).append(row['total_ms'])
        sigh[k]['count'], sigh[k]['guesses'] = row['count'], row.get('guesses')
eng = {e: [{} for _ in files] for e in engines}
for e in engines:
    for r in range(1, rounds + 1):
        rows = [json.loads(l) for l in open(os.path.join(tmp, '%s.%d' % (e, r))) if l.strip()]
        rows = [x for x in rows if 'line' in x]
        for x in rows:
            k = x['line'] - 1
            cell = eng[e][k]
            cell['status'] = x.get('status') or x.get('error', '?')
            cell.setdefault('ms', []).append(x.get('time_ms'))
nodes = open(os.path.join(tmp, 'nodes')).read().split()
for k in range(len(files)):
    if 'native' in eng and k < len(nodes):
        eng['native'][k]['nodes'] = nodes[k]
head = ['file', 'sigh', 'sigh_ms', 'sigh_guesses']
for e in engines:
    head += [e, e + '_ms', e + '_nodes']
print('\t'.join(head))
cols = [[] for _ in head]
for k, f in enumerate(files):
    row = [os.path.basename(f), str(sigh[k].get('count')), med(sigh[k].get('ms', [])),
           sigh[k].get('guesses')]
    for e in engines:
        c = eng[e][k]
        row += [c.get('status', 'none'), med(c.get('ms', [])), c.get('nodes', '-')]
    for j, v in enumerate(row):
        cols[j].append(v)
    print('\t'.join('%.2f' % v if isinstance(v, float) else str(v) for v in row))
out = ['median']
for j in range(1, len(head)):
    vals = []
    for v in cols[j]:
        try:
            vals.append(float(v))
        except (TypeError, ValueError):
            pass
    out.append('%.2f' % statistics.median(vals) if vals and len(vals) == len(files) else '-')
print('\t'.join(out))
EOF
