//===- throughput_main.cc - Variants/s: gevo-ml vs the naive tool pipeline ===//
//
//   bazel run //gevo/bench:throughput [-- --variants=50 --workers=2]
//
// Draws random variants of a workload (1-3 edits each) and evaluates each
// one twice, interleaved: once as gevo-ml does (in-process edit, sandboxed
// lowering + JIT + one run, scored by the harness) and once as a naive tool
// pipeline does (the variant printed with its data as constants and a
// printing wrapper, `mlir-opt` with the same passes piped into `mlir-runner`
// at -O2, its printed logits scored the same way). Both run one variant at a
// time; gevo-ml is then also timed with all workers. Prints the per-variant
// split (build, lower, codegen, run), checks that both paths agree on every
// variant's accuracy, and prints the throughput ratio last. Also writes the
// figures as JSON (--json).
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <random>
#include <thread>

#include "gevo/bench/bench_tool.h"
#include "gevo/bench/figures.h"
#include "gevo/bench/interleaved_pass.h"
#include "gevo/bench/search_throughput.h"
#include "gevo/bench/tool_pipeline.h"
#include "gevo/eval/variant_session.h"
#include "gevo/search/variation.h"
#include "gevo/support/stopwatch.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("throughput benchmark options");
cl::opt<std::string>
    workloadPath("workload",
                 cl::desc("Workload (default: digits MLP training)"),
                 cl::init(""), cl::cat(category));
cl::opt<int> variants("variants", cl::desc("Random variants (default 50)"),
                      cl::init(50), cl::cat(category));
cl::opt<int> workers("workers",
                     cl::desc("Workers for the parallel gevo-ml pass "
                              "(default: one per core)"),
                     cl::init(0), cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Seed for the variants (default 1)"),
                       cl::init(1), cl::cat(category));
cl::opt<std::string>
    jsonPath("json",
             cl::desc("Write the figures here (default: throughput.json)"),
             cl::init("throughput.json"), cl::cat(category));
cl::opt<std::string> mlirOpt("mlir-opt", cl::desc("mlir-opt to run"),
                             cl::init("/usr/lib/llvm-22/bin/mlir-opt"),
                             cl::cat(category));
cl::opt<std::string> mlirRunner("mlir-runner", cl::desc("mlir-runner to run"),
                                cl::init("/usr/lib/llvm-22/bin/mlir-runner"),
                                cl::cat(category));

cl::opt<int> searchVariants(
    "search-variants",
    cl::desc("Random variants (1-4 edits) measured as a default search "
             "measures them, with each pipeline (default 60; 0: skip)"),
    cl::init(60), cl::cat(category));
cl::opt<int> searchWorkers("search-workers",
                           cl::desc("Workers for that part (default 2)"),
                           cl::init(2), cl::cat(category));

cl::opt<int> dumpVariant(
    "dump-variant",
    cl::desc("Also write variant N (0-based) and its tool-pipeline program "
             "to $TMPDIR/gevo_bench_variant.mlir and "
             "$TMPDIR/gevo_bench_naive.mlir, to look into a disagreement"),
    cl::init(-1), cl::cat(category));

using Clock = gevo::SteadyClock;
using gevo::millisecondsSince;
using EditLists = std::vector<std::vector<gevo::Edit>>;

double mean(const std::vector<double> &v) {
  double sum = 0;
  for (double x : v)
    sum += x;
  return v.empty() ? 0 : sum / v.size();
}

/// `count` random edit lists of 1 to `maxEdits` edits.
EditLists randomLists(const gevo::Variation &variation, std::mt19937_64 &rng,
                      int count, int maxEdits) {
  EditLists lists;
  for (int i = 0; i < count; ++i)
    lists.push_back(variation.randomList(
        std::uniform_int_distribution<int>(1, maxEdits)(rng), rng));
  return lists;
}

gevo::InterleavedFigures measureInterleaved(gevo::ThroughputWorkload &workload,
                                            const gevo::Variation &variation,
                                            const EditLists &lists) {
  std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  gevo::InterleavedPass pass(workload, variation,
                             {{mlirOpt, mlirRunner}, dir, dumpVariant});
  llvm::errs() << "measuring " << variants
               << " variants, interleaved (gevo-ml, then the tool "
                  "pipeline)...\n";
  for (int i = 0; i < variants; ++i) {
    pass.measure(i, lists[i]);
    llvm::errs() << "\r  " << i + 1 << "/" << variants;
  }
  llvm::errs() << "\n";
  return std::move(pass.results);
}

/// Throughput with every worker.
struct Parallel {
  int workers = 0;
  double seconds = 0;
};

Parallel measureParallel(gevo::ThroughputWorkload &workload,
                         const gevo::Variation &variation,
                         const EditLists &lists) {
  Parallel parallel;
  parallel.workers =
      workers > 0
          ? workers
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  gevo::SandboxPool pool(parallel.workers,
                         gevo::SandboxLimits{20, int64_t(4) << 30});
  auto start = Clock::now();
  for (int i = 0; i < variants; ++i)
    workload.session->submit(pool, variation.build(lists[i]).module,
                             gevo::RunRequest(), [](gevo::Measurement) {});
  pool.wait();
  parallel.seconds = millisecondsSince(start) / 1000;
  return parallel;
}

/// A default search's evaluation path, plain vs vector, same variants.
absl::StatusOr<gevo::PipelineComparison>
measureSearchPath(const gevo::WorkloadSpec &spec, const EditLists &lists) {
  if (searchVariants <= 0)
    return gevo::PipelineComparison();
  llvm::errs() << "measuring " << searchVariants.getValue()
               << " variants as a search does, plain and vector pipelines, "
               << searchWorkers.getValue() << " workers...\n";
  return gevo::comparePipelines(spec, searchWorkers, lists, 2);
}

/// The figures the printed lines and the JSON share.
struct Rates {
  double gevo, naive, parallel, compileMs, searchRunMs;
};

Rates ratesOf(const gevo::WorkloadSpec &spec, const gevo::InterleavedFigures &i,
              const Parallel &parallel) {
  double compileMs = mean(i.lowerMs) + mean(i.codegenMs);
  // What the search spends running a variant: the workload's own timing.
  return Rates{1000 / mean(i.gevoMs), 1000 / mean(i.naiveMs),
               variants / parallel.seconds, compileMs,
               (spec.warmup + spec.repeats) * mean(i.runMs)};
}

void printInterleaved(const gevo::WorkloadSpec &spec,
                      const gevo::InterleavedFigures &i,
                      const Parallel &parallel, const Rates &rates) {
  std::printf("workload %s, %d random variants of 1-3 edits (seed %llu)\n",
              spec.name.c_str(), variants.getValue(),
              static_cast<unsigned long long>(seed.getValue()));
  std::printf("ok: gevo-ml %d, tool pipeline %d; both ok %d, same validation "
              "accuracy on %d of them\n",
              i.gevoOk, i.naiveOk, i.bothOk, i.agree);
  for (const std::string &line : i.disagreements)
    std::printf("  differs: %s\n", line.c_str());
  std::printf("per variant (gevo-ml, mean over ok ones): build %.1f ms, lower "
              "%.1f ms, codegen %.1f ms, one run %.1f ms\n",
              mean(i.buildMs), mean(i.lowerMs), mean(i.codegenMs),
              mean(i.runMs));
  std::printf("compile overhead %.1f ms vs the variant's own run time in a "
              "search (%d+%d runs) %.1f ms: %s\n",
              rates.compileMs, spec.warmup, spec.repeats, rates.searchRunMs,
              rates.compileMs <= rates.searchRunMs ? "within" : "OVER");
  std::printf("tool pipeline: %.1f ms per variant (%.2f variants/s)\n",
              mean(i.naiveMs), rates.naive);
  std::printf("gevo-ml, 1 worker: %.1f ms per variant (%.2f variants/s)\n",
              mean(i.gevoMs), rates.gevo);
  std::printf("gevo-ml, %d workers: %.2f variants/s\n", parallel.workers,
              rates.parallel);
}

/// Adds the search path's figures; the vector pipeline's evaluations/s over
/// the plain one's (0 when plain measured none).
double addSearchFigures(const gevo::PipelineComparison &search,
                        llvm::json::Object &figures) {
  for (const gevo::SearchThroughput *t : {&search.plain, &search.vector}) {
    std::string prefix = "search_" + t->pipeline + "_";
    figures[prefix + "evaluations"] = t->evaluations;
    figures[prefix + "ran"] = t->ran;
    figures[prefix + "ok"] = t->ok;
    figures[prefix + "seconds"] = t->seconds;
    figures[prefix + "evals_per_s"] = t->evaluationsPerSecond();
    figures[prefix + "lower_ms"] = t->lowerMs;
    figures[prefix + "codegen_ms"] = t->codegenMs;
    figures[prefix + "run_ms"] = t->runMs;
  }
  double searchRatio = 0;
  if (search.plain.evaluationsPerSecond() > 0)
    searchRatio = search.vector.evaluationsPerSecond() /
                  search.plain.evaluationsPerSecond();
  figures["search_vector_over_plain"] = searchRatio;
  return searchRatio;
}

llvm::json::Object throughputFigures(const gevo::WorkloadSpec &spec,
                                     const gevo::InterleavedFigures &i,
                                     const Parallel &parallel,
                                     const Rates &rates,
                                     const gevo::PipelineComparison &search) {
  return llvm::json::Object{
      {"workload", spec.name},
      {"variants", variants.getValue()},
      {"gevo_ok", i.gevoOk},
      {"naive_ok", i.naiveOk},
      {"agree", i.agree},
      {"both_ok", i.bothOk},
      {"build_ms", mean(i.buildMs)},
      {"lower_ms", mean(i.lowerMs)},
      {"codegen_ms", mean(i.codegenMs)},
      {"run_ms", mean(i.runMs)},
      {"compile_overhead_ms", rates.compileMs},
      {"search_run_ms", rates.searchRunMs},
      {"naive_ms_per_variant", mean(i.naiveMs)},
      {"gevo_ms_per_variant", mean(i.gevoMs)},
      {"gevo_variants_per_s_parallel", rates.parallel},
      {"workers", parallel.workers},
      {"speedup", rates.gevo / rates.naive},
      {"search_variants", searchVariants.getValue()},
      {"search_workers", searchWorkers.getValue()},
      {"search_both_ok", search.bothOk},
      {"search_agree", search.agree},
  };
}

void printSearchPath(const gevo::PipelineComparison &search,
                     double searchRatio) {
  for (const gevo::SearchThroughput *t : {&search.plain, &search.vector})
    std::printf("default search, %s pipeline, %d workers: %.2f "
                "evaluations/s (%d lists, %d run, %d ok; per variant lower "
                "%.1f ms, codegen %.1f ms, run %.2f ms)\n",
                t->pipeline.c_str(), searchWorkers.getValue(),
                t->evaluationsPerSecond(), t->evaluations, t->ran, t->ok,
                t->lowerMs, t->codegenMs, t->runMs);
  std::printf("default search: vector %.2fx plain's evaluations/s (goal "
              "2x); same validation accuracy on %d of the %d both ran "
              "ok\n",
              searchRatio, search.agree, search.bothOk);
}

} // namespace

int main(int argc, char **argv) {
  if (!gevo::parseBenchFlags(category, argc, argv,
                             "Evaluation throughput: gevo-ml vs "
                             "mlir-opt | mlir-runner per variant.\n"))
    return 2;
  absl::StatusOr<gevo::ThroughputWorkload> setup = gevo::openThroughputWorkload(
      workloadPath.empty() ? gevo::findRunfile("testdata/digits_mlp_train")
                           : gevo::resolveUserPath(workloadPath));
  if (!setup.ok())
    return gevo::reportFailure(setup.status());
  gevo::Variation variation(setup->session->baseline(),
                            gevo::MutationOptions());
  std::mt19937_64 rng(seed);
  EditLists lists = randomLists(variation, rng, variants, 3);
  gevo::InterleavedFigures interleaved =
      measureInterleaved(*setup, variation, lists);
  Parallel parallel = measureParallel(*setup, variation, lists);
  EditLists searchLists = randomLists(variation, rng, searchVariants, 4);
  absl::StatusOr<gevo::PipelineComparison> search =
      measureSearchPath(setup->spec, searchLists);
  if (!search.ok())
    return gevo::reportFailure(search.status());
  Rates rates = ratesOf(setup->spec, interleaved, parallel);
  printInterleaved(setup->spec, interleaved, parallel, rates);
  llvm::json::Object figures =
      throughputFigures(setup->spec, interleaved, parallel, rates, *search);
  double searchRatio = addSearchFigures(*search, figures);
  if (searchVariants > 0)
    printSearchPath(*search, searchRatio);
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportFailure(written);
  std::printf("throughput: gevo-ml %.2fx the tool pipeline's variants/s "
              "(goal 5x), one variant at a time\n",
              rates.gevo / rates.naive);
  return 0;
}
