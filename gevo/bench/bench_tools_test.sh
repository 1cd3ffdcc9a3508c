#!/usr/bin/env bash
# The benchmark tools that are not timings themselves:
# - benchmarks_md renders BENCHMARKS.md from figures files: the numbers of a
#   throughput (with its search rows), a compile-profile and a minimiser
#   file appear in it, missing files say "Not run.", the static check's
#   refused-but-ok mutants appear sorted into unsafe ones and false refusals,
#   the scale-out rows (with the ranks' idle share), speed-up and projection appear,
#   the steady-state rows and goal line appear, and a results
#   directory that does not exist still gives every section;
# - scaling's generated model (64 -> 256 -> 128 -> 10, weights drawn in the
#   module) is valid MLIR that //gevo:evaluate lowers and runs: one row with a
#   run time and a peak memory, and no search rows when asked for none.
set -euo pipefail
benchmarks_md="$1"
scaling="$2"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$tmp/results"
cat >"$tmp/results/throughput.json" <<'JSON'
{"workload": "digits_mlp_train", "variants": 50, "both_ok": 43, "agree": 42,
 "gevo_ms_per_variant": 229.1, "naive_ms_per_variant": 1414.2, "speedup": 6.18,
 "workers": 2, "gevo_variants_per_s_parallel": 10.1, "build_ms": 8.9,
 "lower_ms": 62.5, "codegen_ms": 106.5, "run_ms": 36.4,
 "compile_overhead_ms": 169, "search_run_ms": 218,
 "search_variants": 60, "search_workers": 2, "search_both_ok": 50,
 "search_agree": 49, "search_vector_over_plain": 1.37,
 "search_plain_evals_per_s": 5.31, "search_plain_evaluations": 120,
 "search_plain_ran": 110, "search_plain_ok": 100, "search_plain_lower_ms": 40.5,
 "search_plain_codegen_ms": 70.25, "search_plain_run_ms": 18.5,
 "search_vector_evals_per_s": 7.27, "search_vector_evaluations": 120,
 "search_vector_ran": 110, "search_vector_ok": 98, "search_vector_lower_ms": 80.5,
 "search_vector_codegen_ms": 120.25, "search_vector_run_ms": 2.1}
JSON
cat >"$tmp/results/compile_profile.json" <<'JSON'
{"digits_mlp_train": {
  "cold_child": {"lower_ms": 95.5, "codegen_ms": 150.5, "llvm_opt_ms": 20.5,
                 "machine_codegen_ms": 130.0, "translate_only_ms": 6.5, "object_only_ms": 125.5,
                 "passes": {"canonicalize": 8.5}},
  "warm_child": {"lower_ms": 82.5, "codegen_ms": 140.5, "llvm_opt_ms": 18.5,
                 "machine_codegen_ms": 122.0, "translate_only_ms": 5.5, "object_only_ms": 120.5,
                 "passes": {"convert-vector-to-llvm": 16.5, "canonicalize": 8.25}},
  "codegen_settings": [{"setting": "O1 + IR passes", "codegen_ms": 125.75, "run_ms": 1.71}]}}
JSON
cat >"$tmp/results/minimizers.json" <<'JSON'
{"run": "r", "objectives": "static_cost,error", "patches_compared": 1,
 "split_evaluations": 6, "split_tests": 7, "split_decided_statically": 3, "split_kept": 2, "split_not_one_minimal": 0,
 "ddmin_evaluations": 10, "ddmin_tests": 12, "ddmin_kept": 2, "ddmin_not_one_minimal": 0,
 "greedy_evaluations": 8, "greedy_tests": 9, "greedy_decided_statically": 1, "greedy_kept": 4, "greedy_not_one_minimal": 1,
 "exhaustive_evaluations": 34, "exhaustive_tests": 40, "exhaustive_kept": 2, "exhaustive_not_one_minimal": 0,
 "patches": [{"patch": "front/01.gevo", "edits": 9, "split_kept": 2, "split_evaluations": 6,
              "split_one_minimal": true, "greedy_kept": 4, "greedy_evaluations": 8,
              "greedy_one_minimal": false}]}
JSON
cat >"$tmp/results/scale_out.json" <<'JSON'
{"workload": "digits_mlp_train", "population": 16, "generations": 3,
 "setups": [{"ranks": 1, "workers": 1, "evaluations_per_s": 2.1, "rank0_waiting_share": 0.9,
             "rank0_dispatch_ms_per_evaluation": 0.21, "rank0_polling_ms_per_evaluation": 0.5,
             "rank0_search_ms_per_evaluation": 4.3},
            {"ranks": 2, "workers": 1, "evaluations_per_s": 3.9, "rank0_waiting_share": 0.81,
             "ranks_idle_share": 0.064, "rank0_dispatch_ms_per_evaluation": 0.25, "rank0_polling_ms_per_evaluation": 0.4,
             "rank0_search_ms_per_evaluation": 4.5}],
 "speedup_2_ranks": 1.857, "evaluation_s": 0.476, "rank0_serial_ms_per_evaluation": 4.75,
 "bottleneck_cores": 100.2,
 "projection": [{"cores": 64, "population": 64, "evaluations_per_s": 82.4, "rank0_share": 0.39}]}
JSON
cat >"$tmp/results/safety_refusals.json" <<'JSON'
{"variants": 1000, "refused": 63, "unproven": 4,
 "refused_outcomes": {"ok": 2, "out_of_bounds": 61},
 "accepted_outcomes": {"ok": 900, "non_finite": 37},
 "false_refusals": ["not proven safe: @main/tensor.extract#0~1: index 0 is in [0, 400], outside [0, 359] of tensor<360x64xf32>\n    constant x"],
 "refused_ok": [
  {"refusal": "not proven safe: @main/scf.for#1~2: the step is in [0, 0]: a loop's step must be positive\n    constant y",
   "unsafe": true, "rule": "a loop's step must be positive", "sandbox_missed": "the loop is folded away"},
  {"refusal": "not proven safe: @main/tensor.extract#0~1: index 0 is in [0, 400], outside [0, 359] of tensor<360x64xf32>\n    constant x",
   "unsafe": false, "rule": "", "sandbox_missed": ""}],
 "refused_ok_unsafe": 1, "checked_us_per_edit": 1800, "unchecked_us_per_edit": 1500}
JSON
cat >"$tmp/results/steady_state.json" <<'JSON'
{"budget": "5m", "workers": 2, "runs": [
 {"workload": "testdata/fashion_mlp_train", "seed": 1, "schedule": "generational",
  "evaluations_per_s": 0.5, "hypervolume": 0.4},
 {"workload": "testdata/fashion_mlp_train", "seed": 1, "schedule": "steady",
  "evaluations_per_s": 0.6, "hypervolume": 0.42, "checkpoint_ms": 3.25},
 {"workload": "testdata/digits_mlp_train", "seed": 1, "schedule": "steady",
  "evaluations_per_s": 1.9, "hypervolume": 0.3},
 {"workload": "testdata/digits_mlp_train", "seed": 1, "schedule": "generational",
  "evaluations_per_s": 2.0, "hypervolume": 0.3}]}
JSON
"$benchmarks_md" --results="$tmp/results" -o "$tmp/B.md" || fail "benchmarks_md failed"
md=$(cat "$tmp/B.md")
grep -q 'GENERATED' <<<"$md" || fail "no GENERATED header"
grep -q '\*\*6.18x\*\*' <<<"$md" || fail "throughput ratio missing"
grep -q '| 8.9 | 62.5 | 106.5 | 36.4 |' <<<"$md" || fail "throughput split missing"
grep -q 'evaluates \*\*1.37x\*\* the plain' <<<"$md" || fail "search pipeline ratio missing"
grep -q '| vector | 7.27 | 120 | 110 | 98 | 80.5 | 120.2 | 2.10 |' <<<"$md" || fail "search vector row missing"
grep -q '| digits_mlp_train | child of a warmed process | 82.5 | 140.5 | 18.5 | 122.0 | 5.5 | 120.5 |' <<<"$md" ||
  fail "compile profile row missing"
grep -q '| digits_mlp_train | O1 + IR passes | 125.8 | 1.71 |' <<<"$md" || fail "codegen setting row missing"
grep -q 'convert-vector-to-llvm 16.5, canonicalize 8.2' <<<"$md" || fail "pass ranking missing"
grep -q '| split | 6 | 7 | 3 | 2 | 0 |' <<<"$md" || fail "split totals missing"
grep -q '| greedy | 8 | 9 | 1 | 4 | 1 |' <<<"$md" || fail "greedy totals missing"
grep -q '4 kept / 8 evals (not 1-minimal)' <<<"$md" || fail "per-patch cell missing"
grep -q '| front/01.gevo | 9 | 2 kept / 6 evals | - |' <<<"$md" || fail "a method that did not run is not '-'"
grep -q '| 2 x 1 | 3.90 | 81% | 6.4% | 0.250 | 0.400 | 4.50 |' <<<"$md" || fail "scale-out row missing"
grep -q '\*\*1.86x\*\* one rank' <<<"$md" || fail "scale-out speed-up missing"
grep -q 'about \*\*100 cores\*\*' <<<"$md" || fail "scale-out bottleneck missing"
grep -q '| 64 | 64 | 82.4 | 39% |' <<<"$md" || fail "scale-out projection missing"
grep -q 'of the 2 refused that the sandbox runs ok, 1 are (a) unsafe by the issue.s rules, which the sandbox did not see, and 1 are (b) false refusals' <<<"$md" ||
  fail "safety classification missing"
grep -q '^- (a) unsafe, a loop.s step must be positive; the sandbox ran it ok as the loop is folded away: not proven safe: @main/scf.for#1~2' <<<"$md" ||
  fail "unsafe refusal line missing"
grep -q '^- (b) false refusal: not proven safe: @main/tensor.extract#0~1: index 0 is in \[0, 400\]' <<<"$md" ||
  fail "false refusal line missing"
grep -q '^\*\*Goal missed\*\*: 0 accepted mutants' <<<"$md" || fail "a false refusal does not miss the goal"
grep -q '| testdata/fashion_mlp_train seed 1 | 0.500 | 0.600 | 1.20x | 0.4000 | 0.4200 | 1.050 |' <<<"$md" ||
  fail "steady-state fashion row missing"
grep -q '| testdata/digits_mlp_train seed 1 | 2.000 | 1.900 | 0.95x |' <<<"$md" || fail "steady-state digits row missing"
grep -q "Goal missed\*\*: on Fashion median 1.20x .* median hypervolume ratio 1.050 (goal 1.0); digits' median 0.95x" <<<"$md" ||
  fail "steady-state goal line: digits' lower rate must miss the goal"
grep -q 'checkpoint took at most 3.2 ms' <<<"$md" || fail "steady-state checkpoint cost missing"
sections=$(grep -c '^## ' <<<"$md")
((sections >= 8)) || fail "only $sections sections"
# Every section but the six whose figures are here says so, once per
# figures file it reads (the safety and imported-models sections read two).
files=$((sections + 2))
[[ $(grep -c '^Not run\.$' <<<"$md") == $((files - 6)) ]] || fail "expected $((files - 6)) figures files not run"

"$benchmarks_md" --results="$tmp/none" -o "$tmp/empty.md" || fail "benchmarks_md failed on no results"
[[ $(grep -c '^Not run\.$' "$tmp/empty.md") == "$files" ]] || fail "expected $files figures files not run"

TMPDIR="$tmp" "$scaling" --widths=1 --populations= --json="$tmp/scaling.json" >"$tmp/scaling.out" 2>&1 ||
  fail "scaling failed: $(cat "$tmp/scaling.out")"
grep -q '"hidden": "256x128"' "$tmp/scaling.json" || fail "no x1 row: $(cat "$tmp/scaling.json")"
grep -q '"parameters": 50432' "$tmp/scaling.json" || fail "x1 parameter count"
run_ms=$(grep -o '"median_run_ms": [0-9.e+-]*' "$tmp/scaling.json" | head -1)
[[ -n "$run_ms" && "$run_ms" != '"median_run_ms": 0' ]] || fail "no run time"
grep -q '"search": \[\]' "$tmp/scaling.json" || fail "search rows when none were asked for"
echo PASS
