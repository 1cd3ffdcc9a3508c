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

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/bench/figures.h"
#include "gevo/bench/search_throughput.h"
#include "gevo/bench/tool_pipeline.h"
#include "gevo/eval/bindings.h"
#include "gevo/eval/harness.h"
#include "gevo/eval/lowering.h"
#include "gevo/eval/variant_session.h"
#include "gevo/eval/vector_schedule.h"
#include "gevo/ir/op_address.h"
#include "gevo/search/variation.h"
#include "gevo/support/stopwatch.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
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

double mean(const std::vector<double> &v) {
  double sum = 0;
  for (double x : v)
    sum += x;
  return v.empty() ? 0 : sum / v.size();
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "Evaluation throughput: gevo-ml vs "
                                   "mlir-opt | mlir-runner per variant.\n",
                                   &llvm::errs()))
    return 2;
  const int count = variants;
  std::string path = workloadPath.empty()
                         ? gevo::findRunfile("testdata/digits_mlp_train")
                         : gevo::resolveUserPath(workloadPath);
  absl::StatusOr<gevo::WorkloadSpec> spec = gevo::loadWorkloadSpec(path);
  if (!spec.ok())
    return gevo::reportBadInput(std::string(spec.status().message()));
  // Equal work on both sides: one untimed-free run per variant.
  gevo::EvaluationOptions once;
  once.warmup = 0;
  once.repeats = 1;
  auto session = gevo::EvaluationSession::create(*spec, once);
  if (!session.ok())
    return gevo::reportBadInput(std::string(session.status().message()));
  auto data = gevo::loadWorkloadData(*spec);
  if (!data.ok())
    return gevo::reportBadInput(std::string(data.status().message()));
  std::vector<gevo::HostTensor> arguments =
      gevo::bindArguments(*spec, *data, gevo::SplitRole::Validation);
  const gevo::Dataset &validation =
      gevo::evalData(*data, gevo::SplitRole::Validation);
  std::string resultType = absl::StrFormat(
      "tensor<%dx%dxf32>", validation.size(), validation.numClasses);

  gevo::Variation variation((*session)->baseline(), gevo::MutationOptions());
  std::mt19937_64 rng(seed);
  std::vector<std::vector<gevo::Edit>> lists;
  for (int i = 0; i < variants; ++i)
    lists.push_back(variation.randomList(
        std::uniform_int_distribution<int>(1, 3)(rng), rng));

  std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  gevo::SandboxPool one(1, gevo::SandboxLimits{20, int64_t(4) << 30});
  std::vector<double> gevoMs, naiveMs, buildMs, lowerMs, codegenMs, runMs;
  int agree = 0, bothOk = 0, gevoOk = 0, naiveOk = 0;
  std::vector<std::string> disagreements;
  llvm::errs() << "measuring " << variants
               << " variants, interleaved (gevo-ml, then the tool "
                  "pipeline)...\n";
  for (int i = 0; i < variants; ++i) {
    auto start = Clock::now();
    gevo::BuiltVariant built = variation.build(lists[i]);
    std::string key = gevo::modelFingerprint(*built.module);
    double build = millisecondsSince(start);
    std::string text;
    llvm::raw_string_ostream os(text);
    built.module->print(os);
    os.flush();
    mlir::OwningOpRef<mlir::ModuleOp> variantCopy = built.module->clone();
    start = Clock::now();
    gevo::Measurement m =
        (*session)->evaluate(one, std::move(built.module), gevo::RunRequest());
    gevoMs.push_back(build + millisecondsSince(start));
    buildMs.push_back(build);
    if (m.ok()) {
      ++gevoOk;
      lowerMs.push_back(m.lowerMs);
      codegenMs.push_back(m.codegenMs);
      runMs.push_back(m.medianRunMs);
    }
    // The tool side lowers with the same pipeline: gevo-ml's own passes
    // become transform-interpreter runs of the schedule planned for this
    // variant (its ops tagged in the text the tools read).
    std::string toolPipeline = (*session)->pipeline();
    std::string toolText = text;
    if (toolPipeline.find("gevo-") != std::string::npos) {
      mlir::OwningOpRef<mlir::ModuleOp> tagged = variantCopy->clone();
      std::string schedulePath = dir + "/naive_schedule.mlir";
      std::ofstream(schedulePath) << gevo::standaloneSchedule(*tagged);
      toolText.clear();
      llvm::raw_string_ostream tos(toolText);
      tagged->print(tos);
      tos.flush();
      toolPipeline = gevo::standalonePipeline(toolPipeline, schedulePath);
    }
    std::string program =
        gevo::naiveProgram(toolText, *spec, arguments, resultType);
    if (i == dumpVariant) {
      std::ofstream(dir + "/gevo_bench_variant.mlir") << text;
      std::ofstream(dir + "/gevo_bench_naive.mlir") << program;
    }
    gevo::NaiveResult naive = gevo::runNaive({mlirOpt, mlirRunner}, program,
                                             dir, toolPipeline, validation);
    naiveMs.push_back(naive.ms);
    naiveOk += naive.ok;
    bool same = std::abs(m.validation.accuracy() - naive.accuracy) < 1e-9;
    if (m.ok() && naive.ok) {
      ++bothOk;
      agree += same;
    }
    if (m.ok() != naive.ok || !same)
      disagreements.push_back(absl::StrFormat(
          "variant %d (%s): gevo-ml %s %.4f, tool pipeline %s %.4f", i,
          gevo::toString(m.outcome) +
              std::string(m.detail.empty() ? "" : ": ") +
              m.detail.substr(0, 80),
          m.ok() ? "ok" : "failed", m.validation.accuracy(),
          naive.ok ? "ok" : "failed", naive.accuracy));
    llvm::errs() << "\r  " << i + 1 << "/" << variants;
  }
  llvm::errs() << "\n";

  int parallelWorkers =
      workers > 0
          ? workers
          : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  gevo::SandboxPool pool(parallelWorkers,
                         gevo::SandboxLimits{20, int64_t(4) << 30});
  auto start = Clock::now();
  for (int i = 0; i < variants; ++i)
    (*session)->submit(pool, variation.build(lists[i]).module,
                       gevo::RunRequest(), [](gevo::Measurement) {});
  pool.wait();
  double parallelSeconds = millisecondsSince(start) / 1000;

  // A default search's evaluation path, plain vs vector, same variants.
  std::vector<std::vector<gevo::Edit>> searchLists;
  for (int i = 0; i < searchVariants; ++i)
    searchLists.push_back(variation.randomList(
        std::uniform_int_distribution<int>(1, 4)(rng), rng));
  gevo::PipelineComparison search;
  if (searchVariants > 0) {
    llvm::errs() << "measuring " << searchVariants.getValue()
                 << " variants as a search does, plain and vector pipelines, "
                 << searchWorkers.getValue() << " workers...\n";
    absl::StatusOr<gevo::PipelineComparison> compared =
        gevo::comparePipelines(*spec, searchWorkers, searchLists, 2);
    if (!compared.ok())
      return gevo::reportBadInput(std::string(compared.status().message()));
    search = *compared;
  }

  double gevoRate = 1000 / mean(gevoMs), naiveRate = 1000 / mean(naiveMs);
  double parallelRate = count / parallelSeconds;
  double compileMs = mean(lowerMs) + mean(codegenMs);
  // What the search spends running a variant: the workload's own timing.
  double searchRunMs = (spec->warmup + spec->repeats) * mean(runMs);
  std::printf("workload %s, %d random variants of 1-3 edits (seed %llu)\n",
              spec->name.c_str(), count,
              static_cast<unsigned long long>(seed.getValue()));
  std::printf("ok: gevo-ml %d, tool pipeline %d; both ok %d, same validation "
              "accuracy on %d of them\n",
              gevoOk, naiveOk, bothOk, agree);
  for (const std::string &line : disagreements)
    std::printf("  differs: %s\n", line.c_str());
  std::printf("per variant (gevo-ml, mean over ok ones): build %.1f ms, lower "
              "%.1f ms, codegen %.1f ms, one run %.1f ms\n",
              mean(buildMs), mean(lowerMs), mean(codegenMs), mean(runMs));
  std::printf("compile overhead %.1f ms vs the variant's own run time in a "
              "search (%d+%d runs) %.1f ms: %s\n",
              compileMs, spec->warmup, spec->repeats, searchRunMs,
              compileMs <= searchRunMs ? "within" : "OVER");
  std::printf("tool pipeline: %.1f ms per variant (%.2f variants/s)\n",
              mean(naiveMs), naiveRate);
  std::printf("gevo-ml, 1 worker: %.1f ms per variant (%.2f variants/s)\n",
              mean(gevoMs), gevoRate);
  std::printf("gevo-ml, %d workers: %.2f variants/s\n", parallelWorkers,
              parallelRate);
  llvm::json::Object figures{
      {"workload", spec->name},
      {"variants", count},
      {"gevo_ok", gevoOk},
      {"naive_ok", naiveOk},
      {"agree", agree},
      {"both_ok", bothOk},
      {"build_ms", mean(buildMs)},
      {"lower_ms", mean(lowerMs)},
      {"codegen_ms", mean(codegenMs)},
      {"run_ms", mean(runMs)},
      {"compile_overhead_ms", compileMs},
      {"search_run_ms", searchRunMs},
      {"naive_ms_per_variant", mean(naiveMs)},
      {"gevo_ms_per_variant", mean(gevoMs)},
      {"gevo_variants_per_s_parallel", parallelRate},
      {"workers", parallelWorkers},
      {"speedup", gevoRate / naiveRate},
      {"search_variants", searchVariants.getValue()},
      {"search_workers", searchWorkers.getValue()},
      {"search_both_ok", search.bothOk},
      {"search_agree", search.agree},
  };
  double searchRatio = 0;
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
  if (search.plain.evaluationsPerSecond() > 0)
    searchRatio = search.vector.evaluationsPerSecond() /
                  search.plain.evaluationsPerSecond();
  figures["search_vector_over_plain"] = searchRatio;
  if (searchVariants > 0) {
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
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportBadInput(std::string(written.message()));
  std::printf("throughput: gevo-ml %.2fx the tool pipeline's variants/s "
              "(goal 5x), one variant at a time\n",
              gevoRate / naiveRate);
  return 0;
}
