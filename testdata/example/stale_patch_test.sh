#!/usr/bin/env bash
# What a stale patch looks like to users of gevo_patch (//bazel:gevo.bzl):
# the rule's action is `apply --patch=P --input=M -o OUT --exact --quiet`
# (without --exact --quiet under allow_reanchor = True), so this test runs
# exactly that (a test cannot run Bazel) on double_to_triple.gevo and a copy of
# scale.mlir whose 2.0 changed. By default the changed model is refused by
# its fingerprint; with allow_reanchor the patch's anchor is gone. Expected
# either way: exit code 2, one `file:line: error: ...` line, and no output
# file (a build must never get a different program). Also checks the fresh
# model still patches, and what on_mismatch = "skip" gives.
set -u
apply="$1"
model="$2"
patch="$3"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0

fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# The patch applies to the model it was made for.
output=$("$apply" --patch="$patch" --input="$model" -o "$tmp/fresh.mlir" \
  --on-mismatch=error --exact --quiet 2>&1)
status=$?
if [[ "$status" != 0 ]]; then
  fail "fresh: exit code $status, output: $output"
elif ! grep -q 'arith.constant 3.000000e+00 : f32' "$tmp/fresh.mlir"; then
  fail "fresh: the 2.0 did not become 3.0:"
  cat "$tmp/fresh.mlir"
else
  echo "ok   fresh model patches"
fi

# The model changes under the patch: its 2.0 becomes 2.5.
sed 's/arith.constant 2.0 : f32/arith.constant 2.5 : f32/' "$model" \
  >"$tmp/changed.mlir"
if cmp -s "$model" "$tmp/changed.mlir"; then
  fail "stale: could not change $model (no 'arith.constant 2.0 : f32')"
fi
# By default (--exact) the build refuses a model the patch was not made for.
output=$("$apply" --patch="$patch" --input="$tmp/changed.mlir" \
  -o "$tmp/exact.mlir" --on-mismatch=error --exact --quiet 2>&1)
status=$?
if [[ "$status" != 2 ]]; then
  fail "exact: exit code $status, expected 2; output: $output"
elif [[ "$output" != "$patch:2: error: the patch was made for model "* ]]; then
  fail "exact: expected the model line's error, got: $output"
elif [[ -e "$tmp/exact.mlir" ]]; then
  fail "exact: wrote $tmp/exact.mlir despite the error"
else
  echo "ok   exact: $output"
fi

# allow_reanchor = True: the edit's anchor is gone.
rm -f "$tmp/stale.mlir"
output=$("$apply" --patch="$patch" --input="$tmp/changed.mlir" \
  -o "$tmp/stale.mlir" --on-mismatch=error 2>&1)
status=$?
edit_line=$(grep -n '^constant ' "$patch" | cut -d: -f1)
expected="$patch:$edit_line: error: edit 1 (constant @main/arith.constant#0~"
if [[ "$status" != 2 ]]; then
  fail "stale: exit code $status, expected 2; output: $output"
elif [[ $(printf '%s\n' "$output" | wc -l) != 1 ]]; then
  fail "stale: expected one line, got: $output"
elif [[ "$output" != "$expected"* ]]; then
  fail "stale: expected a line starting '$expected', got: $output"
elif [[ "$output" != *"the anchor is gone or changed"* ]]; then
  fail "stale: the error does not say the anchor is gone: $output"
elif [[ -e "$tmp/stale.mlir" ]]; then
  fail "stale: wrote $tmp/stale.mlir despite the error"
else
  echo "ok   stale patch: $output"
fi

# on_mismatch = "skip": the edit is left out, the module is the changed one.
output=$("$apply" --patch="$patch" --input="$tmp/changed.mlir" \
  -o "$tmp/skipped.mlir" --on-mismatch=skip --quiet 2>&1)
status=$?
if [[ "$status" != 0 ]]; then
  fail "skip: exit code $status, output: $output"
elif ! grep -q 'arith.constant 2.500000e+00 : f32' "$tmp/skipped.mlir" ||
  grep -q 'arith.constant 3.000000e+00' "$tmp/skipped.mlir"; then
  fail "skip: expected the changed model unpatched:"
  cat "$tmp/skipped.mlir"
else
  echo "ok   on-mismatch=skip leaves the edit out"
fi

# -o naming the input needs --in-place; with it the input is patched.
cp "$model" "$tmp/inplace.mlir"
output=$("$apply" --patch="$patch" --input="$tmp/inplace.mlir" \
  -o "$tmp/inplace.mlir" --quiet 2>&1)
status=$?
if [[ "$status" != 2 || "$output" != *"give --in-place"* ]] ||
  ! cmp -s "$model" "$tmp/inplace.mlir"; then
  fail "in-place: expected exit 2 and the input untouched, got $status: $output"
elif ! "$apply" --patch="$patch" --input="$tmp/inplace.mlir" \
  -o "$tmp/inplace.mlir" --in-place --quiet ||
  ! grep -q 'arith.constant 3.000000e+00 : f32' "$tmp/inplace.mlir"; then
  fail "in-place: --in-place did not patch the input"
else
  echo "ok   -o equal to the input needs --in-place"
fi

if ((failures > 0)); then
  echo "$failures case(s) failed"
  exit 1
fi
