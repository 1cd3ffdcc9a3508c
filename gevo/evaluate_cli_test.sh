#!/usr/bin/env bash
# Golden tests of gevo-evaluate's command line: good runs print the scores,
# every bad input gives one line with file:line:col where there is one, and
# exit code 2; a module that runs but fails in the sandbox (out of bounds, a
# hang) prints its outcome and exits 3, never taking evaluate with it. Expected output is in testdata/evaluate_cli.checks
# (FileCheck, one prefix per case).
set -u
evaluate="$1"
filecheck="$2"
apply="$3"
checks="gevo/testdata/evaluate_cli.checks"
failures=0

# run PREFIX EXPECTED_EXIT ARGS...
run() {
  local prefix="$1" expected="$2"
  shift 2
  local output status
  output=$("$evaluate" "$@" 2>&1)
  status=$?
  if [[ "$status" != "$expected" ]]; then
    echo "FAIL $prefix: exit code $status, expected $expected; output:"
    echo "$output"
    failures=$((failures + 1))
    return
  fi
  # A bad input is reported in exactly one line (llvm::cl's own flag errors
  # excepted: they add a suggestion).
  if [[ "$expected" == 2 && "$prefix" != BAD_FLAG ]] &&
    [[ $(printf '%s\n' "$output" | wc -l) != 1 ]]; then
    echo "FAIL $prefix: expected one line of output, got:"
    echo "$output"
    failures=$((failures + 1))
    return
  fi
  if ! echo "$output" | "$filecheck" --check-prefix="$prefix" "$checks"; then
    echo "FAIL $prefix: output did not match $checks"
    failures=$((failures + 1))
    return
  fi
  echo "ok   $prefix"
}

bad=gevo/testdata/bad
run TRAIN 0 --workload=testdata/digits_mlp_train --repeats=2
run PREDICT_JSON 0 --workload=testdata/digits_mlp_predict --repeats=1 --json
run MISSING_SPEC 2 --workload=no/such/workload
run MISSING_MODULE 2 --workload=$bad/missing_module
run MALFORMED_MLIR 2 --workload=$bad/malformed
run WRONG_SIGNATURE 2 --workload=$bad/wrong_signature
run BAD_JSON 2 --workload=$bad/bad_json
run BAD_SPEC 2 --workload=$bad/bad_spec
run CHECK 0 --check --workload=testdata/digits_mlp_train
run CHECK_SIGNATURE 2 --check --workload=$bad/wrong_signature
run CHECK_ROWS 2 --check --workload=$bad/bad_rows
run UNKNOWN_PASS 2 --workload=testdata/digits_mlp_train --pipeline=no-such-pass
run UNBALANCED 2 --workload=testdata/digits_mlp_train '--pipeline=builtin.module(inline'
# In the sandbox a pipeline that does not lower the module is its outcome;
# in process, bad input.
run PARTIAL_PIPELINE 3 --workload=testdata/digits_mlp_train --pipeline=canonicalize
run PARTIAL_IN_PROCESS 2 --workload=testdata/digits_mlp_train --pipeline=canonicalize --in-process
run IN_PROCESS 0 --workload=testdata/digits_mlp_predict --repeats=1 --in-process --json
run BAD_LLVM_PIPELINE 2 --workload=testdata/digits_mlp_train --llvm-pipeline=bogus
run BAD_FLAG 2 --no-such-flag
run BAD_OPT_LEVEL 2 --opt-level=7
run HELP 0 --help
run BAD_TARGET 2 --workload=testdata/digits_mlp_train --target=tpu
# The GPU target without a driver: one line, exit 2, before any work. (With a
# driver, gevo/gpu_check.sh exercises it.)
if ! /sbin/ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
  run NO_CUDA_DRIVER 2 --workload=testdata/digits_mlp_predict --target=cuda
else
  echo "skip NO_CUDA_DRIVER: this machine has libcuda.so.1"
fi

# Unsafe variants, written by hand from the shipped modules (what issue #33's
# patches make): the first layer reads x[N, N] of the 360x64 input; the
# training loop runs 2^63-1 epochs.
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
for n in 361 100000000; do
  sed "s|^  %h1_zero = linalg.fill ins(%zero : f32)|  %c_oob = arith.constant $n : index\n  %x_oob = tensor.extract %x[%c_oob, %c_oob] : tensor<360x64xf32>\n  %h1_zero = linalg.fill ins(%x_oob : f32)|" \
    testdata/digits_mlp_predict/model.mlir >"$tmp/read_$n.mlir"
  grep -q "constant $n : index" "$tmp/read_$n.mlir" || echo "FAIL: no read_$n"
done
sed 's|%num_epochs  = arith.constant 5 : index|%num_epochs  = arith.constant 9223372036854775807 : index|' \
  testdata/digits_mlp_train/model.mlir >"$tmp/forever.mlir"
grep -q 9223372036854775807 "$tmp/forever.mlir" || echo "FAIL: no forever.mlir"
run READ_PAST 3 --workload=testdata/digits_mlp_predict --module="$tmp/read_361.mlir"
run READ_PAST_JSON 3 --workload=testdata/digits_mlp_predict --module="$tmp/read_361.mlir" --json
run READ_FAR 3 --workload=testdata/digits_mlp_predict --module="$tmp/read_100000000.mlir" --json
run FOREVER 3 --workload=testdata/digits_mlp_train --module="$tmp/forever.mlir"
# The patch itself, while //replay:apply accepts it: what it makes
# fails the same way.
if "$apply" --exact --patch=gevo/testdata/unsafe/read_past_input.gevo \
  --input=testdata/digits_mlp_predict/model.mlir -o "$tmp/patched.mlir" 2>/dev/null; then
  run READ_PAST 3 --workload=testdata/digits_mlp_predict --module="$tmp/patched.mlir"
else
  echo "skip READ_PAST (patch): //replay:apply refuses the patch"
fi

if ((failures > 0)); then
  echo "$failures case(s) failed"
  exit 1
fi
