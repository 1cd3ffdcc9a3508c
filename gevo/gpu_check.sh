#!/usr/bin/env bash
# The GPU target on a machine with a GPU (issue #20): one command from a fresh
# checkout. Builds the tools, checks the CUDA pipeline's tests, evaluates both
# digits workloads on the CPU target and with --target=cuda, and prints per
# workload: accuracy on each target (they must agree within one row of 360),
# GPU kernel time (CUDA events on the variant stream), launches per run, and
# the speed ratio of the CPU target's run time to the GPU's.
#
#   gevo/gpu_check.sh            # from the repository root
#
# It has never run: no GPU was available where it was written. A GPU search
# (//gevo:search --target=cuda) does not exist yet; the script says so.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

bazel/setup.sh
if [[ ! -x "${CUDA_ROOT:-/usr/local/cuda}/bin/ptxas" ]]; then
  echo "gpu_check: no CUDA toolkit at ${CUDA_ROOT:-/usr/local/cuda} (ptxas, nvvm/libdevice); set CUDA_ROOT" >&2
  exit 2
fi
bazel build //gevo:evaluate //gevo:cuda_lower
bazel test //gevo:cuda_lower_test //gevo/eval:cuda_runtime_test \
  //gevo/eval:cuda_pipeline_test //gevo:evaluate_cli_test

evaluate=bazel-bin/gevo/evaluate
work=$(mktemp -d)
failures=0
for workload in digits_mlp_predict digits_mlp_train; do
  "$evaluate" --workload="testdata/$workload" --json >"$work/$workload.cpu.json"
  if ! "$evaluate" --workload="testdata/$workload" --target=cuda --json \
    >"$work/$workload.cuda.json" 2>"$work/$workload.cuda.err"; then
    echo "FAIL $workload on cuda: $(cat "$work/$workload.cuda.err")"
    failures=$((failures + 1))
    continue
  fi
  python3 - "$work/$workload.cpu.json" "$work/$workload.cuda.json" <<'PY' ||
import json, sys
cpu = json.load(open(sys.argv[1]))
gpu = json.load(open(sys.argv[2]))
name = cpu["workload"]
ok = True
for split in ("validation", "test"):
    c, g = cpu[split], gpu[split]
    agree = abs(c["correct"] - g["correct"]) <= 1 and g["non_finite_rows"] == 0
    ok &= agree
    print(f"{name} {split}: accuracy cpu {c['accuracy']:.4f} ({c['correct']}/{c['total']}), "
          f"cuda {g['accuracy']:.4f} ({g['correct']}/{g['total']}) {'ok' if agree else 'DIFFERENT'}")
kernel, host = gpu["kernel_ms"], gpu["host_run_ms"]
print(f"{name} cuda: kernel time {kernel:.3f} ms (CUDA events), host {host:.3f} ms, "
      f"{gpu['launches_per_run']} launches per run, lower {gpu['lower_ms']:.0f} ms, "
      f"codegen {gpu['codegen_ms']:.0f} ms")
cpuMs = cpu["run_ms_median"]
print(f"{name} speed: cpu {cpuMs:.3f} ms per run; cpu/gpu-kernel {cpuMs / max(kernel, 1e-9):.2f}x, "
      f"cpu/gpu-host {cpuMs / max(host, 1e-9):.2f}x")
sys.exit(0 if ok else 1)
PY
    failures=$((failures + 1))
done

echo "GPU search: not run: //gevo:search has no --target=cuda yet (the sandboxed variant session is CPU-only)"
echo "gpu_check: $((SECONDS - start)) s, $failures failure(s)"
((failures == 0))
