#!/usr/bin/env bash
# Runs every benchmark, one after the other (they time things: nothing else
# should run meanwhile), writes their figures to bench-results/*.json, and
# BENCHMARKS.md from them. About an hour on two cores.
#
#   gevo/bench/run_all.sh                        # everything
#   gevo/bench/run_all.sh minimizers scaling     # only these, then BENCHMARKS.md
#   PAPER_BUDGET=10m gevo/bench/run_all.sh paper_claims  # longer searches
#
# Benchmarks: throughput search_vs_random minimizers paper_claims
# train_ceiling scaling scale_out ir_scaling stress compile_profile
# onnx_conformance racing safety_refusals patch_fuzz steady_state.
set -euo pipefail
cd "$(dirname "$0")/../.."
all=(throughput search_vs_random minimizers paper_claims train_ceiling scaling scale_out ir_scaling stress compile_profile onnx_conformance racing safety_refusals patch_fuzz steady_state)
steps=("$@")
((${#steps[@]})) || steps=("${all[@]}")
for step in "${steps[@]}"; do
  [[ " ${all[*]} " == *" $step "* ]] || { echo "run_all: unknown benchmark '$step' (known: ${all[*]})" >&2; exit 2; }
done
bazel/setup.sh
out=bench-results
mkdir -p "$out"
bazel build //gevo/bench:all //gevo:search
run() { bazel run --ui_event_filters=-info,-stdout,-stderr --noshow_progress "$@"; }

for step in "${steps[@]}"; do
  echo "== $step"
  case "$step" in
  throughput)
    run //gevo/bench:throughput -- --json="$out/throughput.json" ;;
  search_vs_random)
    run //gevo/bench:search_vs_random -- --first-seed=16 --json="$out/search_vs_random.json" ;;
  minimizers)
    # On the front of a search over the objectives the bench minimises for
    # (deterministic: a fixed number of generations, not a time budget, so the
    # same front and the same figures on any machine at any load), so that
    # every front patch has an effect on them to keep.
    rm -rf "$out/minimizer-run"
    run //gevo:search -- --out="$out/minimizer-run" --seed=1 \
      --objectives=static_cost,error --budget=0 --generations=24 \
      >"$out/minimizer-run.log"
    run //gevo/bench:minimizers -- --run="$out/minimizer-run" \
      --exhaustive-limit="${EXHAUSTIVE_LIMIT:-8}" --json="$out/minimizers.json" ;;
  paper_claims)
    run //gevo/bench:paper_claims -- --budget="${PAPER_BUDGET:-3m}" \
      --out="$out/paper-claims-runs" --json="$out/paper_claims.json"
    bazel build //replay:apply //gevo:evaluate
    gevo/bench/check_claims.py --results="$out" ;;
  train_ceiling)
    bazel build //gevo:evaluate
    gevo/bench/train_ceiling.py --results="$out" ;;
  scaling)
    run //gevo/bench:scaling -- --json="$out/scaling.json" ;;
  scale_out)
    run //gevo/bench:scale_out -- --json="$out/scale_out.json" ;;
  stress)
    run //gevo/bench:stress -- --json="$out/stress.json" ;;
  ir_scaling)
    run //gevo/bench:ir_scaling -- --figures="$out/ir_scaling.json" ;;
  compile_profile)
    run //gevo/bench:compile_profile -- --json="$out/compile_profile.json" ;;
  onnx_conformance)
    run //gevo/bench:onnx_conformance -- --json="$out/onnx_conformance.json" ;;
  racing)
    run //gevo/bench:racing -- --budget=6m --json="$out/racing.json" ;;
  safety_refusals)
    run //gevo/bench:safety_refusals -- --measure=all --json="$out/safety_refusals.json" ;;
  patch_fuzz)
    gevo/bench/patch_fuzz.sh "$out/patch_fuzz.json" ;;
  steady_state)
    run //gevo/bench:steady_state -- --json="$out/steady_state.json" ;;
  esac
done
run //gevo/bench:benchmarks_md -- --results="$out" -o BENCHMARKS.md
echo "BENCHMARKS.md written from $out/*.json"
