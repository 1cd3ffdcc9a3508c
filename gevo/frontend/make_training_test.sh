#!/bin/bash
# make_training_test.sh: //:make_training writes the shipped generated module
# byte for byte (digits, the Fashion MLP, and the CNN from its model.onnx), and refuses a bad spec with one line naming the field, exit 2.
set -u
make_training="$1"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$make_training" --workload=testdata/digits_mlp_train_generated/training.json \
  -o "$dir/model.mlir" || fail "make_training failed on the shipped spec"
cmp "$dir/model.mlir" testdata/digits_mlp_train_generated/model.mlir ||
  fail "testdata/digits_mlp_train_generated/model.mlir is stale"

"$make_training" --workload=testdata/fashion_mlp_train/training.json \
  -o "$dir/fashion.mlir" || fail "make_training failed on the Fashion spec"
cmp "$dir/fashion.mlir" testdata/fashion_mlp_train/model.mlir ||
  fail "testdata/fashion_mlp_train/model.mlir is stale"

"$make_training" --workload=testdata/fashion_cnn_train_generated/training.json \
  -o "$dir/cnn.mlir" || fail "make_training failed on the imported CNN's spec"
cmp "$dir/cnn.mlir" testdata/fashion_cnn_train_generated/model.mlir ||
  fail "testdata/fashion_cnn_train_generated/model.mlir is stale"

cp testdata/digits_mlp_train_generated/forward.mlir "$dir/"
data="$PWD/testdata/digits/digits.csv"
sed -e 's/"batch": 32/"batch": 5000/' -e "s#../digits/digits.csv#$data#" \
  testdata/digits_mlp_train_generated/training.json >"$dir/workload.json"
"$make_training" --workload="$dir" -o "$dir/out.mlir" 2>"$dir/err"
rc=$?
[ "$rc" = 2 ] || fail "a batch larger than the data: exit $rc, want 2"
[ "$(wc -l <"$dir/err")" = 1 ] || fail "want one line, got: $(cat "$dir/err")"
grep -q "workload.json:9:5: error: at \$.training.batch: 5000 is larger than the 1077 training rows" \
  "$dir/err" || fail "unexpected message: $(cat "$dir/err")"
[ ! -e "$dir/out.mlir" ] || fail "wrote output despite the error"

sed -e 's/"kind": "sgd"/"kind": "adam"/' -e "s#../digits/digits.csv#$data#" \
  testdata/digits_mlp_train_generated/training.json >"$dir/workload.json"
"$make_training" --workload="$dir" -o "$dir/out.mlir" 2>"$dir/err"
rc=$?
[ "$rc" = 2 ] && grep -q "workload.json:8:19: error: at \$.training.optimizer.kind: must be" "$dir/err" ||
  fail "an unknown optimizer: exit $rc, $(cat "$dir/err")"
echo PASS
