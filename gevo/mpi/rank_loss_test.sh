#!/usr/bin/env bash
# Losing an evaluating rank mid-search: rank 2 is killed with SIGKILL once
# the first generation is checkpointed; rank 0 notices its silence, gives its
# variants and recipes to rank 1 and finishes with a complete front, the same
# as a run on rank 1 alone (deterministic objectives; children bred on the
# ranks follow their own seeds), and mpi.json records the loss.
set -euo pipefail
search="$1"
source "$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

flags=(--workload=testdata/digits_mlp_predict --objectives=static_cost,error
       --population=6 --generations=4 --budget=0 --seed=3 --workers=1
       --warmup=0 --repeats=1 --front-repeats=1 --timeout=20s --quiet)
# --enable-recovery: mpirun keeps the other ranks when one dies. The log
# exists before mpirun starts, so that polling it never races its creation.
: >"$tmp/mpi.err"
"${mpirun[@]}" --enable-recovery -np 3 "$search" --backend=mpi --rank-timeout=2s \
  "${flags[@]}" --out="$tmp/mpi" >"$tmp/mpi.txt" 2>"$tmp/mpi.err" &
job=$!
victim=""
for _ in $(seq 900); do
  victim=$(sed -n 's/^gevo rank 2: evaluating on .*, pid \([0-9]*\)$/\1/p' "$tmp/mpi.err")
  if [[ -n "$victim" && -f "$tmp/mpi/checkpoint.json" ]] &&
     grep -q '"generation":[1-9][0-9]*,"operators"' "$tmp/mpi/checkpoint.json"; then
    break
  fi
  sleep 0.1
done
[[ -n "$victim" ]] || { kill $job; fail "rank 2 never started: $(cat "$tmp/mpi.err")"; }
kill -9 "$victim"
for _ in $(seq 1200); do kill -0 $job 2>/dev/null || break; sleep 0.1; done
if kill -0 $job 2>/dev/null; then
  ps -ef --forest >&2
  kill $job
  fail "mpirun did not end within 120 s of the kill: $(tail -5 "$tmp/mpi.err")"
fi
wait $job || true # mpirun may report the killed rank
grep -q "front:" "$tmp/mpi.txt" || fail "no front after losing rank 2: $(tail -5 "$tmp/mpi.err")"

stats="$tmp/mpi/mpi.json"
grep -A8 '"rank": 2' "$stats" | grep -q '"state": "lost"' ||
  fail "mpi.json does not say rank 2 was lost: $(cat "$stats")"
grep -A8 '"rank": 1' "$stats" | grep -q '"state": "ready"' ||
  fail "rank 1 should have stayed: $(cat "$stats")"
grep -q '"generations_done": 4' "$tmp/mpi/run.json" || fail "the search stopped early"

"${mpirun[@]}" -np 2 "$search" --backend=mpi "${flags[@]}" --out="$tmp/local" \
  >/dev/null 2>"$tmp/one.err" || fail "mpirun -np 2 failed: $(tail -5 "$tmp/one.err")"
edits() { for p in "$1"/front/*.gevo; do grep -v '^meta\|^#' "$p"; echo; done; }
[[ -n "$(edits "$tmp/local")" ]] || fail "the one-rank run has no front"
[[ "$(edits "$tmp/local")" == "$(edits "$tmp/mpi")" ]] ||
  fail "the front after losing a rank differs from rank 1's alone"
# history.csv's column named $2, by its header.
colnum() { head -1 "$1/history.csv" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
measured() { cut -d, -f1-8,"$(colnum "$1" cached)" "$1/history.csv"; }
[[ "$(measured "$tmp/local")" == "$(measured "$tmp/mpi")" ]] ||
  fail "history.csv differs from rank 1's alone"
echo PASS
