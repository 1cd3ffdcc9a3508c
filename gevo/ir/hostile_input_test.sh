#!/usr/bin/env bash
# Hostile input through the tools: a model nested 4 000 deep (which overflows
# MLIR's recursive parser) is a one-line error with file:line and exit 2 from
# //replay:apply and //gevo:mutate (list and mutate), never SIGSEGV; a
# far-off ordinal is refused beyond --max-fuzz and re-anchors within it; the
# address list reads as it did before it was made linear.
set -u
apply="$1"
mutate="$2"
dir=gevo/ir/testdata
tmp="${TEST_TMPDIR:-/tmp}"
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }

# expect_error NAME EXPECTED_SUBSTRING COMMAND...
expect_error() {
  local name="$1" want="$2"
  shift 2
  local output status
  output=$("$@" 2>&1 >/dev/null)
  status=$?
  if [[ $status != 2 ]]; then
    fail "$name: exit $status (want 2): $output"
  elif [[ $(printf '%s\n' "$output" | wc -l) != 1 ]]; then
    fail "$name: not one line: $output"
  elif [[ "$output" != *"$want"* ]]; then
    fail "$name: '$output' does not contain '$want'"
  else
    echo "ok   $name"
  fi
}

{ for i in $(seq 4000); do echo 'module {'; done
  for i in $(seq 4000); do echo '}'; done; } >"$tmp/deep_modules.mlir"
{ echo 'func.func @main() -> i32 {'
  for i in $(seq 4000); do echo "%r$i = scf.execute_region -> i32 {"; done
  echo '%c = arith.constant 1 : i32'
  echo 'scf.yield %c : i32'
  for i in $(seq 4000 -1 2); do echo '}'; echo "scf.yield %r$i : i32"; done
  echo '}'; echo 'return %r1 : i32'; echo '}'; } >"$tmp/deep_regions.mlir"

patch="$dir/golden/delete.gevo"
for model in deep_modules deep_regions; do
  in="$tmp/$model.mlir"
  want="$in:1001:"
  expect_error "apply $model" "$want" "$apply" --patch="$patch" --input="$in"
  expect_error "mutate --list $model" "$want" "$mutate" --input="$in" --list
  expect_error "mutate $model" "$want" "$mutate" --input="$in" --edits=4
done

far="$dir/golden/far_fuzz.gevo"
expect_error "apply far ordinal" "beyond the fuzz limit of 100" \
  "$apply" --patch="$far" --input="$dir/ops.mlir"
expect_error "apply far ordinal, --max-fuzz=10" "beyond the fuzz limit of 10 " \
  "$apply" --patch="$far" --input="$dir/ops.mlir" --max-fuzz=10
expect_error "apply negative --max-fuzz" "--max-fuzz must be 0 or more" \
  "$apply" --patch="$far" --input="$dir/ops.mlir" --max-fuzz=-1
summary=$("$apply" --patch="$far" --input="$dir/ops.mlir" --max-fuzz=1000000 \
  -o "$tmp/out.mlir" 2>&1)
if [[ $? == 0 && "$summary" == *"re-anchored with fuzz 999999"* ]]; then
  echo "ok   apply far ordinal, --max-fuzz=1000000"
else
  fail "apply far ordinal, --max-fuzz=1000000: $summary"
fi

# --list prints with one printer state for the module now (linear time); its
# text is the one the per-op printing gave (recorded before the change).
if "$mutate" --input="$dir/ops.mlir" --list | diff - "$dir/ops_list.txt"; then
  echo "ok   mutate --list unchanged"
else
  fail "mutate --list differs from $dir/ops_list.txt"
fi

((failures == 0)) || { echo "$failures case(s) failed"; exit 1; }
