#!/usr/bin/env bash
# CI's fuzzing run, part of `bazel test //...`: builds the patch fuzzer and
# the workload spec fuzzer with --config=fuzz (clang-22, libFuzzer,
# AddressSanitizer) in a Bazel of its own (its own output root, so the g++
# build here is left alone), and runs them for FUZZ_SECONDS (45) from every
# patch and WORKLOAD_FUZZ_SECONDS (15) from every workload.json in the
# checkout, and the ONNX importer's fuzzer for ONNX_FUZZ_SECONDS (20) from the
# backend suite's small models. A crash, a leak, a timeout or a broken check (patch_fuzzer.cc,
# workload_fuzzer.cc) fails the test and prints the input that did it.
set -euo pipefail
# Runfiles link into the checkout: the nested Bazel builds the checkout.
script="$(readlink -f "$0")"
root="$(cd "$(dirname "$script")/../.." && pwd)"
if [[ ! -f "$root/WORKSPACE" ]]; then
  echo "fuzz_ci_test: cannot find the checkout from $script"
  exit 1
fi
for tool in clang-22 bazel; do
  command -v "$tool" >/dev/null || {
    echo "fuzz_ci_test: $tool is missing: run bazel/setup.sh"
    exit 1
  }
done
home="$(getent passwd "$(id -u)" | cut -d: -f6)"
out="$(mktemp -d /tmp/gevo-fuzz.XXXXXX)"
nested=(env -i "HOME=$home" "PATH=$PATH" "USER=$(id -un)"
  bazel "--output_user_root=$out" --max_idle_secs=60)
cleanup() {
  (cd "$root" && "${nested[@]}" shutdown >/dev/null 2>&1) || true
  chmod -R u+w "$out" 2>/dev/null || true
  rm -rf "$out"
}
trap cleanup EXIT

cd "$root"
"${nested[@]}" build --config=fuzz --symlink_prefix=/ --show_result=0 \
  //replay/fuzz:patch_fuzzer //gevo/eval/fuzz:workload_fuzzer \
  //gevo/frontend/fuzz:onnx_fuzzer
bin="$("${nested[@]}" info --config=fuzz bazel-bin 2>/dev/null)"
tmp="${TEST_TMPDIR:-$out}"

# fuzz NAME FUZZER SECONDS SEED... : a libFuzzer run from the seeds; a
# finding prints the input and fails the test.
fuzz() {
  local name="$1" fuzzer="$2" seconds="$3"
  shift 3
  # Read the whole help first: grep -q closing the pipe early would kill the
  # fuzzer with SIGPIPE, which pipefail reports as a failure.
  local help
  help="$("$fuzzer" -help=1 2>&1 || true)"
  [[ "$help" == *libFuzzer* ]] ||
    { echo "fuzz_ci_test: $fuzzer is not a libFuzzer build"; exit 1; }
  mkdir -p "$tmp/$name/corpus" "$tmp/$name/artifacts"
  local n=0 seed
  for seed in "$@"; do
    n=$((n + 1))
    cp "$seed" "$tmp/$name/corpus/$n"
  done
  ((n > 0)) || { echo "fuzz_ci_test: no seeds for $name"; exit 1; }
  echo "fuzz_ci_test: $name: $n seeds, $seconds s"
  local status=0
  "$fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$tmp/$name/artifacts/" "$tmp/$name/corpus" || status=$?
  if ((status != 0)); then
    for input in "$tmp/$name"/artifacts/*; do
      [[ -f "$input" ]] || continue
      echo "fuzz_ci_test: $name: failing input $(basename "$input"):"
      od -c "$input" | head -40
    done
    exit "$status"
  fi
}

mapfile -t patches < <(find . -name '*.gevo' -not -path './bazel-*' | sort)
mapfile -t specs < <(find . -name 'workload.json' -not -path './bazel-*' | sort)
fuzz patches "$bin/replay/fuzz/patch_fuzzer" "${FUZZ_SECONDS:-45}" \
  "${patches[@]}"
fuzz workload_specs "$bin/gevo/eval/fuzz/workload_fuzzer" \
  "${WORKLOAD_FUZZ_SECONDS:-15}" "${specs[@]}"
# The ONNX importer from the backend suite's small models (libonnx-testdata).
mapfile -t models < <(find /usr/share/libonnx-testdata/data/node -name model.onnx \
  -size -4k | sort | head -300)
fuzz onnx_models "$bin/gevo/frontend/fuzz/onnx_fuzzer" \
  "${ONNX_FUZZ_SECONDS:-20}" "${models[@]}"
