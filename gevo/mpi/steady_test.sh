#!/usr/bin/env bash
# --schedule=steady over MPI: rank 0 keeps each evaluating rank's workers
# busy (and one job queued at each), selecting each child as it arrives,
# with no generation barrier. Over 2 evaluating ranks the search completes
# its generations with `population` arrivals each, ends with a front and
# nothing in flight, both ranks took a share, and every child run is counted
# in mpi.json.
set -euo pipefail
search="$1"
source "$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

"${mpirun[@]}" -np 3 "$search" --backend=mpi --schedule=steady \
  --workload=testdata/digits_mlp_predict --objectives=static_cost,error \
  --population=6 --generations=4 --budget=0 --seed=11 --workers=1 --warmup=0 \
  --repeats=1 --front-repeats=1 --timeout=20s --quiet --out="$tmp/mpi" \
  >"$tmp/mpi.txt" 2>"$tmp/mpi.err" || fail "mpirun failed: $(tail -5 "$tmp/mpi.err")"
grep -q "front:" "$tmp/mpi.txt" || fail "no front in rank 0's summary"
history="$tmp/mpi/history.csv"
for g in 1 2 3 4; do
  n=$(awk -F, -v g="$g" 'NR > 1 && $1 == g' "$history" | wc -l)
  [[ "$n" == 6 ]] || fail "generation $g has $n rows, not 6"
done
grep -q '"generation":4[,}]' "$tmp/mpi/checkpoint.json" || fail "not at generation 4"
grep -q '"pending":\[\]' "$tmp/mpi/checkpoint.json" || fail "children left in flight"

stats="$tmp/mpi/mpi.json"
[[ $(grep -c '"state": "ready"' "$stats") == 2 ]] || fail "ranks not ready: $(cat "$stats")"
colnum() { head -1 "$history" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
cached=$(colnum cached)
evaluations=$(tail -n +2 "$history" | awk -F, -v c="$cached" '$c == 0' | wc -l)
grep -q "\"evaluations\": $evaluations," "$stats" ||
  fail "mpi.json does not count the $evaluations evaluations: $(cat "$stats")"
[[ $(grep -c '"evaluations": [1-9]' "$stats") == 3 ]] ||
  fail "a rank evaluated nothing: $(cat "$stats")"
echo PASS
