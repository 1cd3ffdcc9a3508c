#!/usr/bin/env bash
# The GPU target without a GPU: both digits workloads lower to few kernels
# (bounded counts, no host loop that fusion could remove: FileCheck in
# testdata/cuda_lower.checks), to PTX for sm_90, and through ptxas to an sm_90
# cubin. The cubin part is skipped, saying so, only when the CUDA toolkit's
# ptxas is absent (/usr/local/cuda/bin/ptxas; Debian does not package CUDA 13).
set -u
lower="$1"
filecheck="$2"
readelf="$3"
checks="gevo/testdata/cuda_lower.checks"
failures=0
work="${TEST_TMPDIR:-$(mktemp -d)}"

fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# check WORKLOAD PREFIX MAX_KERNELS MAX_KERNELS_IN_LOOPS
check() {
  local workload="$1" prefix="$2" max="$3" maxInLoops="$4"
  local module="testdata/$workload/model.mlir" kernels="$work/$workload.mlir"
  if ! "$lower" --stage=kernels "$module" >"$kernels"; then
    fail "$workload: the kernel stage failed"
    return
  fi
  "$filecheck" --check-prefix="$prefix" "$checks" <"$kernels" ||
    fail "$workload: kernels did not match $checks"
  local launches modules inLoops
  launches=$(grep -c 'gpu.launch_func' "$kernels")
  modules=$(grep -c '^  gpu.module @' "$kernels")
  # Launches nested in host loops are indented deeper than the function body.
  inLoops=$(grep -c '^        *gpu.launch_func' "$kernels")
  echo "$workload: $launches launch sites, $modules kernels, $inLoops in host loops"
  ((launches >= 1 && launches <= max)) ||
    fail "$workload: $launches launch sites, expected 1..$max"
  ((modules == launches)) || fail "$workload: $modules kernels for $launches launch sites"
  ((inLoops <= maxInLoops)) ||
    fail "$workload: $inLoops launches in host loops, expected at most $maxInLoops"

  local ptx="$work/$workload.ptx"
  if ! "$lower" --quiet --format=ptx --objects-dir="$ptx" "$module"; then
    fail "$workload: PTX lowering failed"
    return
  fi
  local count
  count=$(ls "$ptx" | wc -l)
  ((count == modules)) || fail "$workload: $count PTX objects for $modules kernels"
  for object in "$ptx"/*.ptx; do
    "$filecheck" --check-prefix=PTX "$checks" <"$object" || fail "$object: not sm_90 PTX"
  done

  if [[ ! -x /usr/local/cuda/bin/ptxas ]]; then
    echo "SKIP $workload cubin: /usr/local/cuda/bin/ptxas not found (no CUDA toolkit)"
    return
  fi
  local cubin="$work/$workload.cubin"
  if ! "$lower" --quiet --format=cubin --objects-dir="$cubin" "$module"; then
    fail "$workload: cubin lowering failed"
    return
  fi
  count=$(ls "$cubin" | wc -l)
  ((count == modules)) || fail "$workload: $count cubins for $modules kernels"
  for object in "$cubin"/*.cubin; do
    "$readelf" -h "$object" | "$filecheck" --check-prefix=CUBIN "$checks" ||
      fail "$object: not an sm_90 cubin"
  done
  echo "ok   $workload: PTX and cubin for every kernel"
}

check digits_mlp_predict PREDICT 8 0
check digits_mlp_train TRAIN 24 18

# Without ptxas a cubin request fails in one clear line, before any work.
output=$(CUDA_ROOT="$work/no-toolkit" "$lower" --format=cubin \
  testdata/digits_mlp_predict/model.mlir 2>&1)
status=$?
[[ $status == 2 && "$output" == *"needs ptxas from the CUDA toolkit: $work/no-toolkit/bin/ptxas not found"* &&
  $(printf '%s\n' "$output" | wc -l) == 1 ]] ||
  fail "no ptxas: exit $status, got '$output'"

if ((failures > 0)); then
  echo "$failures failure(s)"
  exit 1
fi
echo "all passed"
