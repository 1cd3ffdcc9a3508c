#!/usr/bin/env bash
# Runs every benchmark, one after the other (they time things: nothing else
# should run meanwhile), writes their figures to bench-results/*.json, and
# BENCHMARKS.md from them. About an hour on two cores.
#
#   gevo/bench/run_all.sh                 # everything
#   PAPER_BUDGET=10m gevo/bench/run_all.sh  # longer searches for the paper's claims
set -euo pipefail
cd "$(dirname "$0")/../.."
bazel/setup.sh
out=bench-results
mkdir -p "$out"
bazel build //gevo/bench:all //gevo:search
run() { bazel run --ui_event_filters=-info,-stdout,-stderr --noshow_progress "$@"; }

echo "== throughput"
run //gevo/bench:throughput -- --json="$out/throughput.json"
echo "== search vs random"
run //gevo/bench:search_vs_random -- --json="$out/search_vs_random.json"
echo "== minimisers (on a default search's front)"
rm -rf "$out/minimizer-run"
run //gevo:search -- --out="$out/minimizer-run" --seed=1 >"$out/minimizer-run.log"
run //gevo/bench:minimizers -- --run="$out/minimizer-run" --exhaustive-limit="${EXHAUSTIVE_LIMIT:-8}" \
  --json="$out/minimizers.json"
echo "== the paper's claims"
run //gevo/bench:paper_claims -- --budget="${PAPER_BUDGET:-2m}" --out="$out/paper-claims-runs" \
  --json="$out/paper_claims.json"
echo "== scaling"
run //gevo/bench:scaling -- --json="$out/scaling.json"
run //gevo/bench:benchmarks_md -- --results="$out" -o BENCHMARKS.md
echo "BENCHMARKS.md written from $out/*.json"
