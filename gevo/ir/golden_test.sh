#!/usr/bin/env bash
# Golden tests of the mutation operators and repairs: each patch in
# testdata/golden/ is applied to testdata/ops.mlir by //replay:apply and its
# output checked against the CHECK lines inside the patch (FileCheck). A patch
# with ERROR lines must fail with exit code 2 and that message.
set -u
apply="$1"
filecheck="$2"
dir=gevo/ir/testdata
failures=0
for patch in "$dir"/golden/*.gevo; do
  name=$(basename "$patch")
  if grep -q '^# ERROR:' "$patch"; then
    output=$(cd "$dir/golden" && "../../../../$apply" --patch="$name" --input=../ops.mlir 2>&1 >/dev/null)
    status=$?
    if [[ $status == 2 ]] && echo "$output" | "$filecheck" --check-prefix=ERROR "$patch"; then
      echo "ok   $name"
    else
      echo "FAIL $name (exit $status): $output"
      failures=$((failures + 1))
    fi
    continue
  fi
  if "$apply" --quiet --patch="$patch" --input="$dir/ops.mlir" | "$filecheck" "$patch"; then
    echo "ok   $name"
  else
    echo "FAIL $name"
    failures=$((failures + 1))
  fi
done
((failures == 0)) || { echo "$failures golden(s) failed"; exit 1; }
