#!/usr/bin/env bash
# A workload's "training" field end to end, through the tools: //gevo:evaluate
# scores the generated program as it scores the shipped model.mlir that
# //:make_training wrote; //gevo:mutate and //gevo:search on the field write
# patches that record 'source training forward=F spec=H', and //replay:apply
# replays them onto the workload (generated afresh) and onto model.mlir byte
# for byte; apply refuses them for another spec and a plain patch for the
# field (exit 2, one line); a bad field is one line at its file:line, exit 2.
set -u
mutate="$1"
apply="$2"
evaluate="$3"
search="$4"
dir=testdata/digits_mlp_train_generated
field="$dir/training.json"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*"; exit 1; }
scores() { grep -o '"\(test\|validation\)":{[^}]*}' "$1"; }

# The same measurement, in the sandbox and in process.
for mode in "" --in-process; do
  "$evaluate" $mode --json --workload="$field" >"$tmp/field.json" || fail "evaluate $mode on the field exited $?"
  "$evaluate" $mode --json --workload="$dir/workload.json" >"$tmp/plain.json" || fail "evaluate $mode exited $?"
  grep -q '"source":"training"' "$tmp/field.json" || fail "source: $(cat "$tmp/field.json")"
  [[ -n "$(scores "$tmp/field.json")" ]] || fail "no scores: $(cat "$tmp/field.json")"
  [[ "$(scores "$tmp/field.json")" == "$(scores "$tmp/plain.json")" ]] ||
    fail "evaluate $mode: $(scores "$tmp/field.json") vs $(scores "$tmp/plain.json")"
done

"$mutate" --input="$field" --edits=3 --seed=3 -o "$tmp/p.gevo" || fail "mutate exited $?"
sed -n 3p "$tmp/p.gevo" | grep -qx 'source training forward=forward.mlir spec=[0-9a-f]\{16\}' ||
  fail "no 'source training' line: $(cat "$tmp/p.gevo")"
"$apply" --quiet --exact --patch="$tmp/p.gevo" --input="$field" -o "$tmp/v1.mlir" || fail "apply onto the field exited $?"
"$apply" --quiet --exact --patch="$tmp/p.gevo" --input="$dir" -o "$tmp/v2.mlir" || fail "apply onto the directory exited $?"
"$apply" --quiet --exact --patch="$tmp/p.gevo" --input="$dir/model.mlir" -o "$tmp/v3.mlir" || fail "apply onto model.mlir exited $?"
cmp -s "$tmp/v1.mlir" "$tmp/v2.mlir" && cmp -s "$tmp/v1.mlir" "$tmp/v3.mlir" || fail "the replays differ"
cmp -s "$tmp/v1.mlir" "$dir/model.mlir" && fail "the patch changed nothing"
# The variant is measured (a random edit may well break it: exit 3).
"$evaluate" --workload="$field" --module="$tmp/v1.mlir" >"$tmp/variant.txt"
status=$?
[[ $status == 0 || $status == 3 ]] && grep -q "outcome" "$tmp/variant.txt" ||
  fail "evaluate on the variant exited $status: $(cat "$tmp/variant.txt")"

# Another spec (a learning rate changed) generates another program.
mkdir -p "$tmp/lr"
cp "$dir/forward.mlir" "$tmp/lr/"
sed -e 's/"learning_rate": 0.01/"learning_rate": 0.02/' -e "s#../digits/digits.csv#$PWD/testdata/digits/digits.csv#" \
  "$field" >"$tmp/lr/workload.json"
"$apply" --quiet --patch="$tmp/p.gevo" --input="$tmp/lr" -o "$tmp/lr.mlir" 2>"$tmp/err"
status=$?
[[ $status == 2 && $(wc -l <"$tmp/err") == 1 ]] || fail "another spec: exit $status, $(cat "$tmp/err")"
grep -q "p.gevo:2: error: the patch was made for .source training forward=forward.mlir spec=" "$tmp/err" ||
  fail "message: $(cat "$tmp/err")"
[[ ! -e "$tmp/lr.mlir" ]] || fail "wrote output for another spec"

# A patch made on the plain module has no 'source training' line.
grep -v '^source ' "$tmp/p.gevo" >"$tmp/plain.gevo"
"$apply" --quiet --patch="$tmp/plain.gevo" --input="$field" -o "$tmp/x.mlir" 2>"$tmp/err"
status=$?
[[ $status == 2 ]] && grep -q "no 'source training' line" "$tmp/err" || fail "plain patch: exit $status, $(cat "$tmp/err")"

# A search on the field: its front's patches replay onto the workload.
"$search" --workload="$field" --generations=1 --population=4 --workers=1 --budget=120s \
  --out="$tmp/run" >"$tmp/search.txt" 2>&1 || fail "search exited $?: $(tail -5 "$tmp/search.txt")"
grep -q -- "--input=$field" "$tmp/search.txt" || fail "search's replay hint: $(tail -4 "$tmp/search.txt")"
for patch in "$tmp"/run/front/*.gevo; do
  sed -n 3p "$patch" | grep -q '^source training ' || fail "$patch: $(head -4 "$patch")"
  "$apply" --quiet --exact --patch="$patch" --input="$field" -o "$tmp/s.mlir" || fail "apply $patch exited $?"
done

# A bad field: one line at its line in the spec, exit 2.
sed -e 's/"kind": "sgd"/"kind": "adam"/' "$tmp/lr/workload.json" >"$tmp/lr/bad.json"
"$evaluate" --workload="$tmp/lr/bad.json" >/dev/null 2>"$tmp/err"
status=$?
[[ $status == 2 && $(wc -l <"$tmp/err") == 1 ]] || fail "bad field: exit $status, $(cat "$tmp/err")"
grep -q "bad.json:8:19: error: at \$.training.optimizer.kind: must be \"sgd\"" "$tmp/err" || fail "message: $(cat "$tmp/err")"
echo PASS
