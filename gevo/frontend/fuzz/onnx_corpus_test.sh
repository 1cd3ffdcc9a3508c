#!/usr/bin/env bash
# The ONNX fuzzer's checks in the normal build, over small models of the backend
# suite, each also cut in half and with a byte flipped: no crash, every error
# says something, every imported module verifies.
set -euo pipefail
fuzzer="$1"
suite=/usr/share/libonnx-testdata/data
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
n=0
for file in "$suite"/node/test_{conv,gemm,maxpool,softmax,reshape,slice,pad,concat}*/model.onnx \
  "$suite"/pytorch-converted/test_Conv2d*/model.onnx; do
  [[ -f "$file" ]] || continue
  n=$((n + 1))
  cp "$file" "$tmp/$n.onnx"
  size=$(wc -c <"$file")
  head -c $((size / 2)) "$file" >"$tmp/$n.half"
  { head -c $((size / 3)) "$file"; printf '\x07'; tail -c +$((size / 3 + 2)) "$file"; } >"$tmp/$n.flip"
done
# Inputs the fuzzer once failed on, kept as regressions.
for file in gevo/frontend/fuzz/regressions/*; do
  n=$((n + 1))
  cp "$file" "$tmp/regression-$n"
done
((n > 20)) || { echo "too few models under $suite (install libonnx-testdata)"; exit 1; }
"$fuzzer" "$tmp"/*
echo "$n models, each whole, halved and with a byte flipped"
