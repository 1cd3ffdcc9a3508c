#!/usr/bin/env bash
# Golden tests of gevo-evaluate's command line: good runs print the scores,
# every bad input gives one line with file:line:col where there is one, and
# exit code 2. Expected output is in testdata/evaluate_cli.checks
# (FileCheck, one prefix per case).
set -u
evaluate="$1"
filecheck="$2"
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
run PARTIAL_PIPELINE 2 --workload=testdata/digits_mlp_train --pipeline=canonicalize
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

if ((failures > 0)); then
  echo "$failures case(s) failed"
  exit 1
fi
