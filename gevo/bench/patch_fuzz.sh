#!/usr/bin/env bash
# The long patch fuzz run behind BENCHMARKS.md's safety section (issue #33):
# replay/fuzz's patch fuzzer (clang-22, libFuzzer, AddressSanitizer), built in
# a Bazel of its own so the g++ build is left alone, run for FUZZ_SECONDS
# (600) from every patch in the checkout. Each fuzzed patch is replayed onto
# the digits workload its model line names; one that apply accepts and the
# static check, run on the whole patched module, refuses stops the run as a
# finding. Writes the counts as JSON (default bench-results/patch_fuzz.json).
#
#   gevo/bench/patch_fuzz.sh [out.json]
set -euo pipefail
cd "$(dirname "$0")/../.."
json="${1:-bench-results/patch_fuzz.json}"
seconds="${FUZZ_SECONDS:-600}"
home="$(getent passwd "$(id -u)" | cut -d: -f6)"
out="$(mktemp -d /tmp/gevo-patch-fuzz.XXXXXX)"
nested=(env -i "HOME=$home" "PATH=$PATH" "USER=$(id -un)"
  bazel "--output_user_root=$out" --max_idle_secs=60)
cleanup() {
  "${nested[@]}" shutdown >/dev/null 2>&1 || true
  chmod -R u+w "$out" 2>/dev/null || true
  rm -rf "$out"
}
trap cleanup EXIT
"${nested[@]}" build --config=fuzz --symlink_prefix=/ --show_result=0 \
  //replay/fuzz:patch_fuzzer
fuzzer="$("${nested[@]}" info --config=fuzz bazel-bin 2>/dev/null)/replay/fuzz/patch_fuzzer"
mkdir -p "$out/corpus" "$out/artifacts"
n=0
while IFS= read -r seed; do
  n=$((n + 1))
  cp "$seed" "$out/corpus/$n"
done < <(find . -name '*.gevo' -not -path './bazel-*' | sort)
echo "patch_fuzz: $n seeds, $seconds s"
status=0
GEVO_FUZZ_STATS=1 "$fuzzer" -max_total_time="$seconds" -max_len=4096 \
  -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
  -artifact_prefix="$out/artifacts/" "$out/corpus" 2>"$out/log" || status=$?
tail -5 "$out/log"
runs="$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1/p' "$out/log")"
secs="$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$out/log")"
stats="$(grep '^patch_fuzzer: ' "$out/log" | tail -1)"
read -r parsed accepted onto refused < <(echo "$stats" |
  sed -n 's/^patch_fuzzer: \([0-9]*\) patches parsed, \([0-9]*\) replays accepted (\([0-9]*\) onto.*, \([0-9]*\) refused by.*/\1 \2 \3 \4/p')
findings=0
((status == 0)) || findings=1
mkdir -p "$(dirname "$json")"
cat >"$json" <<JSON
{
  "seconds": ${secs:-0},
  "runs": ${runs:-0},
  "seeds": $n,
  "patches_parsed": ${parsed:-0},
  "replays_accepted": ${accepted:-0},
  "accepted_onto_workloads": ${onto:-0},
  "refused_by_check": ${refused:-0},
  "findings": $findings
}
JSON
echo "patch_fuzz: wrote $json"
exit "$status"
