#!/usr/bin/env bash
# gevo-minimize and gevo-analyze with --backend=mpi against the local
# backend: with deterministic objectives (static_cost,error), 2 evaluating
# ranks give the same minimal patch and the same report (run times aside),
# and the ranks, not rank 0, measured the subsets.
set -euo pipefail
minimize="$1"
analyze="$2"
source "$3"
workload=testdata/digits_mlp_train
patch=analysis/testdata/three_edits.gevo
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }
flags=(--patch=$patch --workload=$workload --objectives=static_cost,error)

"$minimize" "${flags[@]}" --workers=2 -o "$tmp/local.min.gevo" 2>"$tmp/local.min.err"
"${mpirun[@]}" -np 3 "$minimize" --backend=mpi "${flags[@]}" --workers=1 \
  -o "$tmp/mpi.min.gevo" 2>"$tmp/mpi.min.err" ||
  fail "mpirun minimize failed: $(tail -5 "$tmp/mpi.min.err")"
grep -q "kept 2 of 3 edits" "$tmp/mpi.min.err" || fail "minimize: $(cat "$tmp/mpi.min.err")"
cmp -s "$tmp/local.min.gevo" "$tmp/mpi.min.gevo" ||
  fail "minimal patches differ: $(diff "$tmp/local.min.gevo" "$tmp/mpi.min.gevo")"
# Every subset that ran, ran on a rank: rank 0 says how many each measured
ran=$(sed -n 's/.* \([0-9]*\) evaluated,.*/\1/p' "$tmp/mpi.min.err")
[[ -n "$ran" && "$ran" -gt 0 ]] || fail "nothing evaluated: $(cat "$tmp/mpi.min.err")"
# (the subsets that ran and the full patch itself).
remote=$(sed -n 's/^mpi: \([0-9]*\) evaluations (rank 1: [0-9]*, rank 2: [0-9]*)$/\1/p' "$tmp/mpi.min.err")
[[ -n "$remote" && "$remote" -ge "$ran" ]] ||
  fail "the ranks did not measure the $ran subsets: $(cat "$tmp/mpi.min.err")"

"$analyze" "${flags[@]}" --pairs=2 --workers=2 --out="$tmp/local" --quiet >"$tmp/local.txt"
"${mpirun[@]}" -np 3 "$analyze" --backend=mpi "${flags[@]}" --pairs=2 --workers=1 \
  --out="$tmp/mpi" --quiet >"$tmp/mpi.txt" 2>"$tmp/mpi.err" ||
  fail "mpirun analyze failed: $(tail -5 "$tmp/mpi.err")"
grep -q "training schedule change: epochs 5 -> 2" "$tmp/mpi.txt" || fail "no labels: $(cat "$tmp/mpi.txt")"
# The findings, without the line naming the report's directory.
[[ "$(grep -v '^report:' "$tmp/local.txt")" == "$(grep -v '^report:' "$tmp/mpi.txt")" ]] ||
  fail "findings differ: $(diff "$tmp/local.txt" "$tmp/mpi.txt")"
for min in "$tmp"/local/*.min.gevo; do
  cmp -s "$min" "$tmp/mpi/$(basename "$min")" || fail "$(basename "$min") differs"
done
# report.md with run times (measured afresh each time) masked.
times() { sed -E 's/run [0-9.]+ ms/run T ms/g; s/run x[0-9.]+/run xT/g' "$1/report.md"; }
[[ "$(times "$tmp/local")" == "$(times "$tmp/mpi")" ]] ||
  fail "report.md differs: $(diff <(times "$tmp/local") <(times "$tmp/mpi") | head -10)"
stats="$tmp/mpi/mpi.json"
[[ -s "$stats" ]] || fail "no mpi.json beside the report"
[[ $(grep -c '"evaluations": [1-9]' "$stats") -ge 2 ]] ||
  fail "the ranks evaluated nothing: $(cat "$stats")"
echo PASS
