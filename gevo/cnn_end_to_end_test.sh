#!/usr/bin/env bash
# A CNN workload end to end through the tools: a short search (evaluating
# convolution variants, shrinks included), its front patches (recording
# 'source tosa' when the workload is written in TOSA, and nothing otherwise),
# the best patch replayed and evaluated, and //analysis:analyze of the front
# writing a report. Usage: cnn_end_to_end_test.sh SEARCH APPLY EVALUATE ANALYZE
# WORKLOAD [tosa].
set -euo pipefail
search="$1"
apply="$2"
evaluate="$3"
analyze="$4"
workload="$5"
source_form="${6:-}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

"$search" --workload="$workload" --generations=2 --population=6 --budget=0 \
  --front-repeats=2 --front-limit=3 --workers=2 --seed=3 --warmup=0 --repeats=2 \
  --out="$tmp/run" >"$tmp/search.txt" 2>&1 || fail "search: $(tail -3 "$tmp/search.txt")"
grep -q "unmodified: run" "$tmp/search.txt" || fail "no summary: $(cat "$tmp/search.txt")"
ls "$tmp/run"/front/*.gevo >/dev/null || fail "no front patches"
# The search evaluated variants of the convolution (not only failures).
grep -q ',ok,' "$tmp/run/history.csv" || fail "no variant evaluated ok"
for patch in "$tmp/run"/front/*.gevo; do
  if [[ -n $source_form ]]; then
    sed -n 3p "$patch" | grep -qx "source $source_form" || fail "$patch: no 'source $source_form'"
  else
    grep -q '^source ' "$patch" && fail "$patch records a source form"
  fi
done

best=$(ls "$tmp/run"/front/*.gevo | head -1)
"$apply" --quiet --patch="$best" --input="$workload/model.mlir" -o "$tmp/best.mlir"
"$evaluate" --workload="$workload" --module="$tmp/best.mlir" --json >"$tmp/best.json" ||
  fail "the replayed best patch does not evaluate"

"$analyze" --run="$tmp/run" --max-variants=1 --pairs=2 --optimized-check=false \
  --workers=2 >"$tmp/analyze.txt" 2>&1 || fail "analyze: $(tail -3 "$tmp/analyze.txt")"
for file in report.html report.md report.json; do
  [[ -s $tmp/run/analysis/$file ]] || fail "analyze wrote no $file"
done
echo "ok"
