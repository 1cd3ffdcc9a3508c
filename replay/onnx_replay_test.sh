#!/usr/bin/env bash
# The ONNX door end to end, through the tools: //gevo:mutate on the shipped
# model.onnx writes a patch that records 'source onnx batch=1000' and the
# imported module's fingerprint; //replay:apply --exact replays it onto a fresh
# import of the file byte for byte, and onto //:import's MLIR of it alike,
# refuses it without the line or for another batch (exit 2, naming the patch),
# and //gevo:evaluate scores the variant on the workload.
set -u
mutate="$1"
apply="$2"
import="$3"
evaluate="$4"
workload=testdata/fashion_cnn_onnx
model="$workload/model.onnx"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*"; exit 1; }

message=$("$mutate" --input="$model" --edits=1 -o "$tmp/none.gevo" 2>&1)
status=$?
[[ $status == 2 ]] || fail "mutate without --batch exited $status"
echo "$message" | grep -q -- "--batch=N" || fail "message: $message"

"$mutate" --input="$model" --batch=1000 --edits=2 --seed=5 --operators=constant,shrink \
  -o "$tmp/p.gevo" || fail "mutate exited $?"
sed -n 3p "$tmp/p.gevo" | grep -qx 'source onnx batch=1000' || fail "no 'source onnx' line: $(cat "$tmp/p.gevo")"
grep -q '^shrink \|^constant ' "$tmp/p.gevo" || fail "no edit: $(cat "$tmp/p.gevo")"

"$apply" --quiet --exact --patch="$tmp/p.gevo" --input="$model" -o "$tmp/v1.mlir" || fail "apply exited $?"
"$apply" --quiet --exact --patch="$tmp/p.gevo" --input="$model" -o "$tmp/v2.mlir" || fail "apply exited $?"
cmp -s "$tmp/v1.mlir" "$tmp/v2.mlir" || fail "two replays onto fresh imports differ"
"$import" "$model" --batch=1000 -o "$tmp/imported.mlir" || fail "import exited $?"
"$apply" --quiet --exact --patch="$tmp/p.gevo" --input="$tmp/imported.mlir" -o "$tmp/v3.mlir" \
  || fail "apply onto the imported MLIR exited $?"
cmp -s "$tmp/v1.mlir" "$tmp/v3.mlir" || fail "the replay onto the imported MLIR differs"
cmp -s "$tmp/v1.mlir" "$tmp/imported.mlir" && fail "the patch changed nothing"

grep -v '^source ' "$tmp/p.gevo" > "$tmp/linalg.gevo"
message=$("$apply" --patch="$tmp/linalg.gevo" --input="$model" -o "$tmp/v4.mlir" 2>&1)
status=$?
[[ $status == 2 ]] || fail "a patch without 'source onnx' exited $status on an ONNX input"
echo "$message" | grep -q "linalg.gevo:2: error: the input is an ONNX model" || fail "message: $message"

sed 's/^source onnx batch=1000$/source onnx batch=999/' "$tmp/p.gevo" > "$tmp/other.gevo"
message=$("$apply" --exact --patch="$tmp/other.gevo" --input="$model" -o "$tmp/v5.mlir" 2>&1)
status=$?
[[ $status == 2 ]] || fail "a patch for another batch exited $status under --exact"
echo "$message" | grep -q "other.gevo:2: error: the patch was made for model" || fail "message: $message"

"$evaluate" --workload="$workload" --module="$tmp/v1.mlir" --repeats=1 --json > "$tmp/v.json" \
  || fail "evaluate of the variant exited $?: $(cat "$tmp/v.json")"
grep -q '"total":1000' "$tmp/v.json" || fail "no scored validation split: $(cat "$tmp/v.json")"
echo "ok"
