#!/usr/bin/env bash
# --backend=mpi against the local backend: with deterministic objectives and
# the same seed, a search over 2 evaluating ranks whose rank 0 breeds
# (--breed-on-ranks=0) measures the same individuals with the same outcomes
# and objective values, and ends with the same front, as a local search;
# mpi.json shows both ranks did work. Bred on the ranks (the default), the
# search measures the same individuals over 1 or 2 evaluating ranks.
set -euo pipefail
search="$1"
source "$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

flags=(--workload=testdata/digits_mlp_predict --objectives=static_cost,error
       --population=6 --generations=2 --budget=0 --seed=11 --workers=1
       --warmup=0 --repeats=1 --front-repeats=1 --timeout=20s --quiet)
"$search" "${flags[@]}" --out="$tmp/local" >"$tmp/local.txt"
"${mpirun[@]}" -np 3 "$search" --backend=mpi --breed-on-ranks=0 "${flags[@]}" --out="$tmp/mpi" \
  >"$tmp/mpi.txt" 2>"$tmp/mpi.err" || fail "mpirun failed: $(tail -5 "$tmp/mpi.err")"
grep -q "front:" "$tmp/mpi.txt" || fail "no front in rank 0's summary"

edits() { for p in "$1"/front/*.gevo; do grep -v '^meta\|^#' "$p"; echo; done; }
[[ -n "$(edits "$tmp/local")" ]] || fail "the local run has no front"
[[ "$(edits "$tmp/local")" == "$(edits "$tmp/mpi")" ]] ||
  fail "the MPI run's front differs from the local one"
# generation, key, outcome, edits, kinds, static_cost, error, accuracy; cached
# history.csv's column named $2, by its header.
colnum() { head -1 "$1/history.csv" | tr , '\n' | grep -nx "$2" | cut -d: -f1; }
measured() { cut -d, -f1-8,"$(colnum "$1" cached)" "$1/history.csv"; }
[[ "$(measured "$tmp/local")" == "$(measured "$tmp/mpi")" ]] ||
  fail "history.csv differs: $(diff <(measured "$tmp/local") <(measured "$tmp/mpi") | head -5)"

stats="$tmp/mpi/mpi.json"
[[ -s "$stats" ]] || fail "no mpi.json"
[[ $(grep -c '"state": "ready"' "$stats") == 2 ]] || fail "ranks not ready: $(cat "$stats")"
grep -q '"requeued": 0' "$stats" || fail "jobs were re-queued: $(cat "$stats")"
# Every run of the search happened on ranks 1 and 2, each took a share.
cached=$(colnum "$tmp/mpi" cached)
evaluations=$(tail -n +2 "$tmp/mpi/history.csv" | awk -F, -v c="$cached" '$c == 0' | wc -l)
grep -q "\"evaluations\": $evaluations," "$stats" ||
  fail "mpi.json does not count the $evaluations evaluations: $(cat "$stats")"
[[ $(grep -c '"evaluations": [1-9]' "$stats") == 3 ]] ||
  fail "a rank evaluated nothing: $(cat "$stats")"
grep -q '"bred_on_ranks": 0,' "$stats" || fail "recipes went out: $(cat "$stats")"
# Bred on the ranks: each child's draws on a module follow its own seed, so
# one evaluating rank or two measure the same individuals.
for np in 2 3; do
  "${mpirun[@]}" -np $np "$search" --backend=mpi "${flags[@]}" --out="$tmp/bred$np" \
    >/dev/null 2>"$tmp/bred.err" || fail "mpirun -np $np failed: $(tail -5 "$tmp/bred.err")"
done
[[ "$(measured "$tmp/bred2")" == "$(measured "$tmp/bred3")" ]] ||
  fail "bred on 1 or 2 ranks differs: $(diff <(measured "$tmp/bred2") <(measured "$tmp/bred3") | head -5)"
grep -q '"bred_on_ranks": [1-9]' "$tmp/bred3/mpi.json" ||
  fail "no recipe was bred on a rank: $(cat "$tmp/bred3/mpi.json")"
[[ $(grep -c '"evaluations": [1-9]' "$tmp/bred3/mpi.json") == 3 ]] ||
  fail "a rank evaluated nothing: $(cat "$tmp/bred3/mpi.json")"
# Paired runs go to the ranks too: each rank's child times the variant beside
# the unmodified program, and every row it evaluated has that ratio.
"${mpirun[@]}" -np 3 "$search" --backend=mpi --workload=testdata/digits_mlp_predict \
  --objectives=runtime,error --paired-runs=2 --population=4 --generations=1 \
  --budget=0 --seed=11 --workers=1 --warmup=0 --repeats=1 --front-repeats=1 \
  --timeout=20s --quiet --out="$tmp/paired" >/dev/null 2>"$tmp/paired.err" ||
  fail "paired mpirun failed: $(tail -5 "$tmp/paired.err")"
awk -F, -v r="$(colnum "$tmp/paired" runtime_ratio)" \
  -v o="$(colnum "$tmp/paired" outcome)" -v c="$(colnum "$tmp/paired" cached)" \
  'NR > 1 && $o == "ok" && $c == 0 { n++; if ($r <= 0) bad++ }
   END { exit !(n > 0 && bad == 0) }' "$tmp/paired/history.csv" ||
  fail "paired rows without a ratio: $(cat "$tmp/paired/history.csv")"
[[ $(grep -c '"evaluations": [1-9]' "$tmp/paired/mpi.json") == 3 ]] ||
  fail "a rank evaluated no paired variant: $(cat "$tmp/paired/mpi.json")"
echo PASS
