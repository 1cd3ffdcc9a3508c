#!/usr/bin/env bash
# The GPU target on a machine with a GPU (issue #20): one command from a fresh
# checkout. Builds the tools, checks the CUDA pipeline's tests, evaluates both
# digits workloads on the CPU target and with --target=cuda, and prints per
# workload: accuracy on each target (they must agree within one row of 360),
# GPU kernel time (CUDA events on the variant stream), launches per run, and
# the speed ratio of the CPU target's run time to the GPU's; then a 2-minute
# search with --target=cuda on the prediction workload (variants lowered,
# compiled and timed on the GPU in sandboxed children) and its outcome counts.
#
#   gevo/gpu_check.sh            # from the repository root
#   SEARCH_BUDGET=30s gevo/gpu_check.sh
#
# It has never run: no GPU was available where it was written.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS

bazel/setup.sh
if [[ ! -x "${CUDA_ROOT:-/usr/local/cuda}/bin/ptxas" ]]; then
  echo "gpu_check: no CUDA toolkit at ${CUDA_ROOT:-/usr/local/cuda} (ptxas, nvvm/libdevice); set CUDA_ROOT" >&2
  exit 2
fi
bazel build //gevo:evaluate //gevo:cuda_lower //gevo:search
bazel test //gevo:cuda_lower_test //gevo/eval:cuda_runtime_test \
  //gevo/eval:cuda_pipeline_test //gevo:evaluate_cli_test

evaluate=bazel-bin/gevo/evaluate
work=$(mktemp -d)
failures=0
for workload in digits_mlp_predict digits_mlp_train; do
  # In process: the device's kernel and host times and launches come from the
  # in-process report (a sandboxed one has the outcome and median times only).
  "$evaluate" --workload="testdata/$workload" --json --in-process >"$work/$workload.cpu.json"
  if ! "$evaluate" --workload="testdata/$workload" --target=cuda --json --in-process \
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

# A GPU search: every variant in a forked child that initialises the driver.
search_out="$work/search"
if bazel-bin/gevo/gevo_search --workload=testdata/digits_mlp_predict --target=cuda \
  --budget="${SEARCH_BUDGET:-2m}" --seed=1 --out="$search_out" --quiet \
  >"$work/search.txt" 2>"$work/search.err"; then
  python3 - "$search_out" <<'PY' || failures=$((failures + 1))
import csv, json, sys
run = json.load(open(sys.argv[1] + "/run.json"))
base = run["baseline"]
outcomes = {}
for row in csv.DictReader(open(sys.argv[1] + "/history.csv")):
    outcomes[row.get("outcome", "?")] = outcomes.get(row.get("outcome", "?"), 0) + 1
print(f"GPU search: {run['evaluations']} evaluations in {run['seconds']:.0f} s, "
      f"{run['generations_done']} generations; outcomes {outcomes}")
print(f"GPU search: unmodified program {base.get('outcome')} at "
      f"{base.get('median_run_ms', 0):.3f} ms (kernel time)")
front = json.load(open(sys.argv[1] + "/front.json"))
print(f"GPU search: front of {len(front['members'])} members")
sys.exit(0 if run["config"]["target"] == "cuda" and base.get("outcome") == "ok" else 1)
PY
  cat "$work/search.txt"
else
  echo "FAIL GPU search: $(cat "$work/search.err")"
  failures=$((failures + 1))
fi
echo "gpu_check: $((SECONDS - start)) s, $failures failure(s)"
((failures == 0))
