#!/usr/bin/env bash
# //replay:apply's static-check flags end to end: an unproven edit applies with
# its warning line even under --quiet and fails with --unproven=error; a new
# external call fails unless --allow-external-calls; a loop nest past the limit
# fails unless --max-loop-iterations raises it. Each failure is exit 2 with
# the patch's line.
set -uo pipefail
apply="$1"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
failures=0
expect() { # expect STATUS PATTERN -- apply arguments...
  local status="$1" pattern="$2"
  shift 3
  local output
  output=$("$apply" "$@" -o "$tmp/out.mlir" 2>&1)
  local got=$?
  if [[ $got == "$status" ]] && grep -q -- "$pattern" <<<"$output"; then
    echo "ok   $*"
  else
    echo "FAIL $* (exit $got, want $status and '$pattern'): $output"
    failures=$((failures + 1))
  fi
}
cat >"$tmp/dyn.mlir" <<'MLIR'
func.func @main(%x: tensor<?x4xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = tensor.extract %x[%i, %c3] : tensor<?x4xf32>
    %s = arith.addf %acc, %v : f32
    scf.yield %s : f32
  }
  return %sum : f32
}
MLIR
printf 'gevo-patch 1\nmodel ee238105d9341c4e\nconstant @main/arith.constant#1~5b471f57 = 2\n' >"$tmp/step.gevo"
expect 0 "step.gevo:3: warning: unproven: @main/scf.for#0" -- \
  --quiet --patch="$tmp/step.gevo" --input="$tmp/dyn.mlir"
expect 2 "step.gevo:3: error: unproven (--unproven=error)" -- \
  --unproven=error --patch="$tmp/step.gevo" --input="$tmp/dyn.mlir"
cat >"$tmp/ext.mlir" <<'MLIR'
func.func private @host_log(i64)
func.func @scale(%v: tensor<4xf32>) -> tensor<4xf32> {
  return %v : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %code = arith.constant 1 : i64
  func.call @host_log(%code) : (i64) -> ()
  %y = func.call @scale(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
MLIR
printf 'gevo-patch 1\nmodel baeb524b75be0cfe\ncopy @main/func.call#0~cd1dc355 before @scale/func.return#0~f365b8d7 ; new[0] <- const(7)\n' >"$tmp/call.gevo"
expect 2 "call.gevo:3: error: edit 1 (copy .*calls @host_log" -- \
  --patch="$tmp/call.gevo" --input="$tmp/ext.mlir"
expect 0 "1 applied" -- --allow-external-calls --patch="$tmp/call.gevo" \
  --input="$tmp/ext.mlir"
train=testdata/digits_mlp_train/model.mlir
printf 'gevo-patch 1\nmodel 925d89644e457032\nconstant @main/arith.constant#5~23e58424 = 1000000\n' >"$tmp/epochs.gevo"
expect 2 "epochs.gevo:3: error: .*more than the limit of 16777216" -- \
  --patch="$tmp/epochs.gevo" --input="$train"
expect 0 "1 applied" -- --max-loop-iterations=100000000 \
  --patch="$tmp/epochs.gevo" --input="$train"
((failures == 0)) || { echo "$failures case(s) failed"; exit 1; }
