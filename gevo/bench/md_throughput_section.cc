//===- md_throughput_section.cc - Throughput and the compile profile -----===//
//
// Evaluation throughput (gevo-ml vs the tool pipeline; a default search with
// the plain and the vector pipeline) and where a variant's compile time goes:
// sections of BENCHMARKS.md (see benchmarks_md.h).
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/bench/benchmarks_md.h"
#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

using llvm::json::Object;

void throughput(std::ostringstream &md) {
  md << "## 1. Evaluation throughput (goal: at least 5x the tool pipeline)\n\n"
        "`bazel run //gevo/bench:throughput -- --json=bench-results/"
        "throughput.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "throughput.json", v);
  if (!o)
    return;
  md << absl::StrFormat(
      "%d random variants of `%s`, each evaluated both ways, interleaved: "
      "gevo-ml %.1f ms per variant, `mlir-opt | mlir-runner` %.1f ms: "
      "**%.2fx**. With %d workers gevo-ml evaluates %.1f variants/s. Both "
      "ran %d variants; they agree on the accuracy of %d.\n\n"
      "| per variant (gevo-ml) | build | lower | codegen | run | compile "
      "overhead | the variant's own runs in a search |\n|---|---|---|---|---|"
      "---|---|\n| ms | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n\n",
      int(num(o, "variants")), str(o, "workload"),
      num(o, "gevo_ms_per_variant"), num(o, "naive_ms_per_variant"),
      num(o, "speedup"), int(num(o, "workers")),
      num(o, "gevo_variants_per_s_parallel"), int(num(o, "both_ok")),
      int(num(o, "agree")), num(o, "build_ms"), num(o, "lower_ms"),
      num(o, "codegen_ms"), num(o, "run_ms"), num(o, "compile_overhead_ms"),
      num(o, "search_run_ms"));
  if (num(o, "search_variants") <= 0)
    return;
  md << absl::StrFormat(
      "A default search's evaluation path (a Workbench with the search's "
      "settings, %d workers, its own cache, the unmodified program measured "
      "first) over the same %d random lists of 1-4 edits, with each "
      "pipeline, two rounds each in alternating order: the vector pipeline "
      "evaluates **%.2fx** the plain pipeline's evaluations/s (goal 2x: "
      "%s). Both ran %d variants ok; they agree on the validation accuracy "
      "of %d.\n\n"
      "| pipeline | evaluations/s | evaluations | run in a child | ok | "
      "lower ms | codegen ms | run ms |\n|---|---|---|---|---|---|---|---|\n",
      int(num(o, "search_workers")), int(num(o, "search_variants")),
      num(o, "search_vector_over_plain"),
      num(o, "search_vector_over_plain") >= 2 ? "met" : "missed",
      int(num(o, "search_both_ok")), int(num(o, "search_agree")));
  for (const char *pipeline : {"plain", "vector"}) {
    std::string p = absl::StrCat("search_", pipeline, "_");
    md << absl::StrFormat(
        "| %s | %.2f | %d | %d | %d | %.1f | %.1f | %.2f |\n", pipeline,
        num(o, p + "evals_per_s"), int(num(o, p + "evaluations")),
        int(num(o, p + "ran")), int(num(o, p + "ok")), num(o, p + "lower_ms"),
        num(o, p + "codegen_ms"), num(o, p + "run_ms"));
  }
  md << "\n";
}

namespace {

/// One row of the compile profile: a stage's figures.
void profileRow(std::ostringstream &md, const char *workload, const char *label,
                const Object *stage) {
  if (!stage)
    return;
  md << absl::StrFormat(
      "| %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", workload,
      label, num(stage, "lower_ms"), num(stage, "codegen_ms"),
      num(stage, "llvm_opt_ms"), num(stage, "machine_codegen_ms"),
      num(stage, "translate_only_ms"), num(stage, "object_only_ms"));
}

} // namespace

void compileProfile(std::ostringstream &md) {
  md << "## 9. Where a variant's compile time goes (CPU ms)\n\n"
        "`bazel run //gevo/bench:compile_profile -- "
        "--json=bench-results/compile_profile.json`\n\n";
  std::optional<llvm::json::Value> v;
  const Object *o = figuresOf(md, "compile_profile.json", v);
  if (!o)
    return;
  md << "The unmodified program, default (vector) pipeline, median of the "
        "repeats; CPU time, which other processes' load changes little. "
        "Codegen is the JIT's whole compile: the LLVM IR passes, and "
        "translation plus machine code; the last two columns do the same "
        "work without the JIT (as llc would), on the whole module with "
        "every kernel lowered. Each linalg op is a kernel function "
        "(outline_kernels.h) lowered and compiled once per process "
        "(kernel_cache.h): the child of a cold process lowers and compiles "
        "them all, a warmed process and its children (a search's) find them "
        "compiled, leave them out of the lowering and compile only the code "
        "around them; a variant lowers and compiles the kernels it changed. "
        "The rows marked 'whole module' compile without the cache.\n\n"
        "| workload | where | lower | codegen | LLVM IR passes | translation "
        "+ machine code | translation alone | IR passes + object alone |\n"
        "|---|---|---|---|---|---|---|---|\n";
  for (const char *workload : {"digits_mlp_train", "digits_mlp_predict"}) {
    const Object *w = o->getObject(workload);
    if (!w)
      continue;
    profileRow(md, workload, "child of a cold process",
               w->getObject("cold_child"));
    profileRow(md, workload, "child of a warmed process",
               w->getObject("warm_child"));
    profileRow(md, workload, "warm process", w->getObject("warm_process"));
  }
  md << "\n| workload | codegen setting | codegen | run ms |\n|---|---|---|---|"
        "\n";
  for (const char *workload : {"digits_mlp_train", "digits_mlp_predict"}) {
    const Object *w = o->getObject(workload);
    const llvm::json::Array *settings =
        w ? w->getArray("codegen_settings") : nullptr;
    if (!settings)
      continue;
    for (const llvm::json::Value &value : *settings)
      if (const Object *s = value.getAsObject())
        md << absl::StrFormat("| %s | %s | %.1f | %.2f |\n", workload,
                              str(s, "setting"), num(s, "codegen_ms"),
                              num(s, "run_ms"));
  }
  md << "\nThe MLIR passes of the child of a warmed process, most costly "
        "first (ms):\n\n";
  for (const char *workload : {"digits_mlp_train", "digits_mlp_predict"}) {
    const Object *w = o->getObject(workload);
    const Object *child = w ? w->getObject("warm_child") : nullptr;
    const Object *passes = child ? child->getObject("passes") : nullptr;
    if (!passes)
      continue;
    std::vector<std::pair<double, std::string>> sorted;
    for (const auto &[name, ms] : *passes)
      sorted.push_back({ms.getAsNumber().value_or(0), name.str()});
    std::sort(sorted.rbegin(), sorted.rend());
    md << "- `" << workload << "`:";
    for (size_t i = 0; i < sorted.size() && i < 8; ++i)
      md << absl::StrFormat("%s %s %.1f", i ? "," : "", sorted[i].second,
                            sorted[i].first);
    md << "\n";
  }
  md << "\n";
}

} // namespace gevo::bench_md
