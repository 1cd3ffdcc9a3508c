#!/usr/bin/env bash
# --schedule=steady over MPI: rank 0 keeps each evaluating rank's workers
# busy (and one job queued at each), selecting each child as it arrives,
# with no generation barrier. Over 2 evaluating ranks the search completes
# its generations with `population` arrivals each, ends with a front and
# nothing in flight, both ranks took a share, and every child run is counted
# in mpi.json; the ranks bred the children, and with one rank of one worker
# the same seed measures the same children. Then rank 2 is killed mid-search: its children go to rank 1
# and the search completes its generations.
set -euo pipefail
search="$1"
source "$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

flags=(--backend=mpi --schedule=steady --workload=testdata/digits_mlp_predict
       --objectives=static_cost,error --population=6 --generations=4 --budget=0
       --seed=11 --workers=1 --warmup=0 --repeats=1 --front-repeats=1
       --timeout=20s --quiet)
"${mpirun[@]}" -np 3 "$search" "${flags[@]}" --out="$tmp/mpi" \
  >"$tmp/mpi.txt" 2>"$tmp/mpi.err" || fail "mpirun failed: $(tail -5 "$tmp/mpi.err")"
# Run directory $1 completed generations 1-4 with 6 arrivals each.
completed() {
  grep -q "front:" "$1.txt" || fail "no front in rank 0's summary: $(tail -5 "$1.err")"
  for g in 1 2 3 4; do
    n=$(awk -F, -v g="$g" 'NR > 1 && $1 == g' "$1/history.csv" | wc -l)
    [[ "$n" == 6 ]] || fail "$1: generation $g has $n rows, not 6"
  done
  grep -q '"generation":4,"operators"' "$1/checkpoint.json" || fail "$1: not at generation 4"
  grep -q '"pending":\[\]' "$1/checkpoint.json" || fail "$1: children left in flight"
}
completed "$tmp/mpi"
history="$tmp/mpi/history.csv"

stats="$tmp/mpi/mpi.json"
[[ $(grep -c '"state": "ready"' "$stats") == 2 ]] || fail "ranks not ready: $(cat "$stats")"
colnum() { head -1 "$history" | tr , '\n' | grep -nx "$1" | cut -d: -f1; }
cached=$(colnum cached)
evaluations=$(tail -n +2 "$history" | awk -F, -v c="$cached" '$c == 0' | wc -l)
grep -q "\"evaluations\": $evaluations," "$stats" ||
  fail "mpi.json does not count the $evaluations evaluations: $(cat "$stats")"
[[ $(grep -c '"evaluations": [1-9]' "$stats") == 3 ]] ||
  fail "a rank evaluated nothing: $(cat "$stats")"
grep -q '"bred_on_ranks": [1-9]' "$stats" || fail "no child was bred on a rank: $(cat "$stats")"
# One evaluating rank of one worker: the children follow one another and
# each follows its recipe's seed, so two runs measure the same individuals.
for run in a b; do
  "${mpirun[@]}" -np 2 "$search" "${flags[@]}" --out="$tmp/one-$run" \
    >"$tmp/one-$run.txt" 2>"$tmp/one-$run.err" || fail "mpirun -np 2 failed: $(tail -5 "$tmp/one-$run.err")"
done
drawn() { cut -d, -f1-4 "$1/history.csv"; }
[[ "$(drawn "$tmp/one-a")" == "$(drawn "$tmp/one-b")" ]] ||
  fail "one rank, same seed, other children: $(diff <(drawn "$tmp/one-a") <(drawn "$tmp/one-b") | head -5)"

# Rank 2 killed once generation 1 is checkpointed (see rank_loss_test.sh).
: >"$tmp/loss.err"
"${mpirun[@]}" --enable-recovery -np 3 "$search" "${flags[@]}" --rank-timeout=2s \
  --out="$tmp/loss" >"$tmp/loss.txt" 2>"$tmp/loss.err" &
job=$!
victim=""
for _ in $(seq 900); do
  victim=$(sed -n 's/^gevo rank 2: evaluating on .*, pid \([0-9]*\)$/\1/p' "$tmp/loss.err")
  if [[ -n "$victim" && -f "$tmp/loss/checkpoint.json" ]] &&
    grep -q '"generation":[1-9][0-9]*,"operators"' "$tmp/loss/checkpoint.json"; then
    break
  fi
  sleep 0.1
done
[[ -n "$victim" ]] || { kill $job; fail "rank 2 never started: $(cat "$tmp/loss.err")"; }
kill -9 "$victim"
for _ in $(seq 1200); do kill -0 $job 2>/dev/null || break; sleep 0.1; done
if kill -0 $job 2>/dev/null; then
  kill $job
  fail "mpirun did not end within 120 s of the kill: $(tail -5 "$tmp/loss.err")"
fi
wait $job || true # mpirun may report the killed rank
completed "$tmp/loss"
grep -A8 '"rank": 2' "$tmp/loss/mpi.json" | grep -q '"state": "lost"' ||
  fail "mpi.json does not say rank 2 was lost: $(cat "$tmp/loss/mpi.json")"
echo PASS
