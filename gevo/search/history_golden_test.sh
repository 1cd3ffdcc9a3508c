#!/usr/bin/env bash
# A fixed-seed search draws the same children as before: generation, key and
# outcome of every row of history.csv, against a copy recorded from an
# earlier build (static_cost and error only, so nothing depends on timing).
# Work that makes the search cheaper (what rank 0 does over MPI included)
# must leave this file as it is; a change meant to draw other children
# regenerates it with the command below, and says so in its commit.
set -euo pipefail
search="$1"
expected="$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
flags=(--workload=testdata/digits_mlp_train --objectives=static_cost,error
       --population=16 --generations=4 --budget=0 --seed=3 --workers=2
       --front-repeats=1 --front-limit=4 --quiet)
# Regenerate: $search "${flags[@]}" --out=DIR; cut -d, -f1-3 DIR/history.csv
"$search" "${flags[@]}" --out="$tmp/run" >"$tmp/out.txt" 2>"$tmp/err.txt" || {
  echo "FAIL: the search failed: $(tail -5 "$tmp/err.txt")" >&2
  exit 1
}
got=$(cut -d, -f1-3 "$tmp/run/history.csv")
if [[ "$got" != "$(cat "$expected")" ]]; then
  echo "FAIL: history.csv differs from $expected:" >&2
  diff <(echo "$got") "$expected" | head -10 >&2
  exit 1
fi
[[ $(wc -l <"$expected") -gt 60 ]] || { echo "FAIL: too few rows" >&2; exit 1; }
echo PASS
