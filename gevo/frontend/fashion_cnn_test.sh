#!/usr/bin/env bash
# The shipped exported model, end to end through the .onnx path: the workload
# names model.onnx, which the evaluator imports on load (the eval splits' 1000
# rows as its batch, each row bound as a 1x28x28 image), and gevo-ml scores it
# as PyTorch did when make_model.py exported it: 842/1000 validation rows and
# 848/1000 test rows right. The import is deterministic and takes NCHW input.
set -u
import="$1"
evaluate="$2"
dir=testdata/fashion_cnn_onnx
"$import" "$dir/model.onnx" --batch=1000 -o "$TEST_TMPDIR/a.mlir" || { echo "FAIL: import"; exit 1; }
"$import" "$dir/model.onnx" --batch=1000 -o "$TEST_TMPDIR/b.mlir" || { echo "FAIL: import"; exit 1; }
cmp -s "$TEST_TMPDIR/a.mlir" "$TEST_TMPDIR/b.mlir" || { echo "FAIL: two imports differ"; exit 1; }
grep -q 'func.func @main(%arg0: tensor<1000x1x28x28xf32>) -> (tensor<1000x10xf32>)' "$TEST_TMPDIR/a.mlir" ||
  { echo "FAIL: the model does not take NCHW images: $(grep func.func "$TEST_TMPDIR/a.mlir")"; exit 1; }
grep -q '"module": "model.onnx"' "$dir/workload.json" || { echo "FAIL: the workload does not name model.onnx"; exit 1; }
json=$("$evaluate" --workload="$dir" --repeats=1 --json) || { echo "FAIL: evaluate: $json"; exit 1; }
echo "$json"
grep -q '"source":"onnx"' <<<"$json" || { echo "FAIL: the module is not reported as imported from ONNX"; exit 1; }
grep -q '"validation":{"accuracy":[0-9.e-]*,"correct":842,"non_finite_rows":0,"total":1000}' <<<"$json" ||
  { echo "FAIL: validation is not PyTorch's 842/1000"; exit 1; }
grep -q '"test":{"accuracy":[0-9.e-]*,"correct":848,"non_finite_rows":0,"total":1000}' <<<"$json" ||
  { echo "FAIL: test is not PyTorch's 848/1000"; exit 1; }
echo "PASS"
