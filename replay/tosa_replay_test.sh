#!/usr/bin/env bash
# The TOSA door end to end, through the tools: //gevo:mutate on the TOSA CNN
# writes a patch that records 'source tosa'; //replay:apply replays it onto the
# TOSA file (legalised first) byte for byte as mutate's own variant, refuses it
# without the line (exit 2, naming the patch), and //gevo:evaluate scores the
# variant; the model itself reports it was legalised.
set -u
mutate="$1"
apply="$2"
evaluate="$3"
workload=testdata/digits_cnn_tosa
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*"; exit 1; }

"$mutate" --input="$workload/model.mlir" --edits=2 --seed=5 --operators=constant,shrink \
  -o "$tmp/p.gevo" || fail "mutate exited $?"
sed -n 3p "$tmp/p.gevo" | grep -qx 'source tosa' || fail "no 'source tosa' line: $(cat "$tmp/p.gevo")"

"$apply" --quiet --patch="$tmp/p.gevo" --input="$workload/model.mlir" -o "$tmp/v1.mlir" \
  || fail "apply exited $?"
grep -q 'tosa\.' "$tmp/v1.mlir" && fail "the variant still holds TOSA ops"
"$apply" --quiet --patch="$tmp/p.gevo" --input="$workload/model.mlir" -o "$tmp/v2.mlir"
cmp -s "$tmp/v1.mlir" "$tmp/v2.mlir" || fail "two replays differ"

grep -v '^source ' "$tmp/p.gevo" > "$tmp/linalg.gevo"
message=$("$apply" --patch="$tmp/linalg.gevo" --input="$workload/model.mlir" -o "$tmp/v3.mlir" 2>&1)
status=$?
[[ $status == 2 ]] || fail "a patch without 'source tosa' exited $status on a TOSA input"
echo "$message" | grep -q "linalg.gevo:2: error: the input is TOSA" || fail "message: $message"

"$evaluate" --workload="$workload" --module="$tmp/v1.mlir" --json > "$tmp/v.json" \
  || fail "evaluate of the variant exited $?"
grep -q '"total":360' "$tmp/v.json" || fail "no scored validation split: $(cat "$tmp/v.json")"
"$evaluate" --workload="$workload" --json | grep -q '"source":"tosa"' || fail "the TOSA model is not reported as legalised"
echo "ok"
