#!/usr/bin/env bash
# //replay:apply's limits (issue #33), each refusal one line naming the patch
# (and its line where there is one), exit 2 and nothing written; each limit's
# flag raises it: the patched module's size (--max-growth, default 8x the
# input in ops and in bytes), edits per patch (--max-edits, default 10 000),
# the same edit twice, and an error line of at most 500 characters.
set -u
apply="$1"
mutate="$2"
scale=testdata/example/scale.mlir
predict=testdata/digits_mlp_predict/model.mlir
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# refused NAME EXPECTED_TEXT APPLY_ARGS...: exit 2, one line holding the text,
# no output file.
refused() {
  local name="$1" expected="$2"
  shift 2
  rm -f "$tmp/out.mlir"
  local output status
  output=$("$apply" "$@" -o "$tmp/out.mlir" 2>&1)
  status=$?
  if [[ $status != 2 ]]; then
    fail "$name: exit $status, expected 2: $output"
  elif [[ $(printf '%s\n' "$output" | wc -l) != 1 ]]; then
    fail "$name: expected one line: $output"
  elif [[ "$output" != *"$expected"* ]]; then
    fail "$name: expected '$expected' in: $output"
  elif [[ -e "$tmp/out.mlir" ]]; then
    fail "$name: wrote an output despite the error"
  else
    echo "ok   $name: $output"
  fi
}
# applies NAME APPLY_ARGS...: exit 0 and an output.
applies() {
  local name="$1"
  shift
  rm -f "$tmp/out.mlir"
  if "$apply" "$@" -o "$tmp/out.mlir" --quiet && [[ -s "$tmp/out.mlir" ]]; then
    echo "ok   $name"
  else
    fail "$name: did not apply"
  fi
}

# Growth in ops: 100 random copies on the 10-op scale model.
"$mutate" --input=$scale --operators=copy --edits=100 --seed=1 -o "$tmp/copies.gevo" ||
  fail "mutate could not draw 100 copies"
# The ops are counted after every edit: the refusal names the edit that
# passed the limit, before the rest make the module larger still.
refused ops "error: the patched module would have" \
  --patch="$tmp/copies.gevo" --input=$scale
refused ops_says_so "more than 8x the input's 10 (--max-growth raises the limit)" \
  --patch="$tmp/copies.gevo" --input=$scale
output=$("$apply" --patch="$tmp/copies.gevo" --input=$scale -o "$tmp/out.mlir" 2>&1)
if [[ "$output" =~ copies\.gevo:([0-9]+):\ error:\ the\ patched\ module\ would\ have\ ([0-9]+)\ ops ]] &&
  ((BASH_REMATCH[1] < 103 && BASH_REMATCH[2] <= 80 + 30)); then
  echo "ok   ops_at_the_edit: line ${BASH_REMATCH[1]}, ${BASH_REMATCH[2]} ops"
else
  fail "ops_at_the_edit: $output"
fi
applies ops_unlimited --patch="$tmp/copies.gevo" --input=$scale --max-growth=0
# Growth in bytes: three copies of a 64x256 weight add 3 ops (of 47) and
# 393 KB (to 410 KB).
weights=replay/testdata/weight_copies.gevo
applies bytes_default --patch=$weights --input=$predict --exact
refused bytes "weight_copies.gevo: error: the patched module would have 802966 bytes, more than 1.5x the input's 410076" \
  --patch=$weights --input=$predict --max-growth=1.5
refused bad_growth "--max-growth must be 0 or more" --patch=$weights --input=$predict --max-growth=-1

# The same edit twice: an error at the second line, naming the first.
{
  head -n 3 testdata/example/double_to_triple.gevo
  grep '^constant' testdata/example/double_to_triple.gevo
  echo "# and again"
  grep '^constant' testdata/example/double_to_triple.gevo
} >"$tmp/twice.gevo"
refused twice "twice.gevo:6:1: error: the same edit as line 4 (a patch holds each edit once)" \
  --patch="$tmp/twice.gevo" --input=$scale

# Edits per patch: 10 001 distinct edits are refused at the 10 001st; the flag
# raises the limit (they then apply: each sets the same constant).
{
  printf 'gevo-patch 1\nmodel 18ecb0b81a5b7756\n'
  for ((i = 0; i <= 10000; i++)); do
    echo "constant @main/arith.constant#0~fbd7c5e7 = $i.5"
  done
} >"$tmp/many.gevo"
refused many "many.gevo:10003:1: error: more than 10000 edits in one patch (apply's --max-edits raises the limit)" \
  --patch="$tmp/many.gevo" --input=$scale
refused few "many.gevo:5:1: error: more than 2 edits" --patch="$tmp/many.gevo" --input=$scale --max-edits=2

# One error line is at most 500 characters, whatever the patch quotes: an
# edit in a function with a megabyte-long name (quoted whole, three times).
{
  printf 'gevo-patch 1\nmodel 18ecb0b81a5b7756\ndelete @'
  head -c 1000000 /dev/zero | tr '\0' 'a'
  printf '/arith.mulf#0~00000000\n'
} >"$tmp/long.gevo"
output=$("$apply" --patch="$tmp/long.gevo" --input=$scale -o "$tmp/out.mlir" 2>&1)
status=$?
if [[ $status != 2 || ${#output} -gt 500 || "$output" != "$tmp/long.gevo:3:"* ||
  "$output" != *"characters elided ...]"* ]]; then
  fail "long line: exit $status, ${#output} characters: ${output:0:600}"
else
  echo "ok   long line: ${#output} characters: $output"
fi

if ((failures > 0)); then
  echo "$failures case(s) failed"
  exit 1
fi
