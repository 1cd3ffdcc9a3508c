#!/usr/bin/env bash
# The shipped exported model, end to end: importing testdata/fashion_cnn_onnx/model.onnx
# gives exactly the committed model.mlir (so the workload is never stale), and gevo-ml
# scores it as PyTorch did when make_model.py exported it: 839/1000 validation rows and
# 835/1000 test rows right.
set -u
import="$1"
evaluate="$2"
dir=testdata/fashion_cnn_onnx
fresh="$TEST_TMPDIR/model.mlir"
"$import" "$dir/model.onnx" --batch=1000 -o "$fresh" || { echo "FAIL: import"; exit 1; }
cmp -s "$fresh" "$dir/model.mlir" || { echo "FAIL: model.mlir differs from a fresh import of model.onnx"; exit 1; }
json=$("$evaluate" --workload="$dir" --repeats=1 --json) || { echo "FAIL: evaluate: $json"; exit 1; }
echo "$json"
grep -q '"validation":{"accuracy":[0-9.e-]*,"correct":839,' <<<"$json" ||
  { echo "FAIL: validation is not PyTorch's 839/1000"; exit 1; }
grep -q '"test":{"accuracy":[0-9.e-]*,"correct":835,' <<<"$json" ||
  { echo "FAIL: test is not PyTorch's 835/1000"; exit 1; }
echo "PASS"
