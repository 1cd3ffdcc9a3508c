//===- search_main.cc - gevo-search: evolve edits to a workload's MLIR ----===//
//
//   bazel run //gevo:search                       # digits MLP training, ~2 min
//   bazel run //gevo:search -- --workload=W --budget=30m --out=runs/w1
//   bazel run //gevo:search -- --resume=runs/w1   # after a crash or kill
//   bazel run //gevo:search -- --explore=single_edits.csv
//   mpirun -np 3 bazel-bin/gevo/gevo_search --backend=mpi --workers=1 ...
//
// Parses flags and calls gevo/search. Exit codes: 0 done, 2 bad input, 1 an
// internal failure.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <string>

#include "absl/strings/str_split.h"
#include "gevo/eval/jit.h"
#include "gevo/ir/mutation.h"
#include "gevo/mpi/mpi_job.h"
#include "gevo/search/explore.h"
#include "gevo/search/search.h"
#include "gevo/search/search_outputs.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("gevo-search options");

cl::opt<std::string> workload(
    "workload",
    cl::desc("Workload to search: a directory holding workload.json, or the "
             "file itself (default: the embedded digits MLP training "
             "workload)"),
    cl::value_desc("path"), cl::cat(category));
cl::opt<std::string>
    out("out",
        cl::desc("Run directory to write: front/*.gevo, front.json, "
                 "history.csv, run.json, operators.csv, cache.jsonl, "
                 "checkpoint.json (default: gevo-runs/<workload>-<time>)"),
        cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string>
    resume("resume",
           cl::desc("Continue the run in this directory from its last "
                    "checkpoint, with the settings it started with "
                    "(--budget, --generations and --workers may be given "
                    "again to change them)"),
           cl::value_desc("dir"), cl::cat(category));
cl::opt<std::string> objectives(
    "objectives",
    cl::desc("Comma-separated objectives, all minimised: runtime (median run "
             "ms), error (1 - validation accuracy), static_cost (estimated "
             "scalar operations executed; deterministic), lowered_ops (LLVM "
             "dialect ops after lowering; deterministic). Default: the "
             "workload's"),
    cl::value_desc("list"), cl::cat(category));
cl::opt<std::string> algorithm(
    "algorithm",
    cl::desc("nsga2 (default), or random: random edit lists with the same "
             "evaluation budget, the baseline a search must beat"),
    cl::init("nsga2"), cl::cat(category));
cl::opt<int> population("population",
                        cl::desc("Individuals per generation (default 16)"),
                        cl::init(16), cl::cat(category));
cl::opt<int> generations(
    "generations",
    cl::desc("Generations after the initial population (default 1000: the "
             "budget usually ends the run first)"),
    cl::init(1000), cl::cat(category));
cl::opt<std::string> budget(
    "budget",
    cl::desc("Wall-clock budget for the search, e.g. 90s, 30m, 2h; 0 for "
             "none. The front is re-measured after it (default 90s)"),
    cl::init("90s"), cl::cat(category));
cl::opt<double> crossoverRate("crossover-rate",
                              cl::desc("Chance a pair of parents is crossed "
                                       "(default 0.8)"),
                              cl::init(0.8), cl::cat(category));
cl::opt<double>
    mutationRate("mutation-rate",
                 cl::desc("Chance a child is mutated (default 0.9)"),
                 cl::init(0.9), cl::cat(category));
cl::opt<double> removeRate(
    "remove-rate",
    cl::desc("Chance a mutation removes an edit instead of adding one "
             "(default 0.2)"),
    cl::init(0.2), cl::cat(category));
cl::opt<double> retuneRate(
    "retune-rate",
    cl::desc("Chance a mutation moves a shrink or constant edit in the list "
             "to a neighbour (a quarter more or fewer kept, another rule, "
             "x1.25 or /1.25) instead of adding one (default 0: off)"),
    cl::init(gevo::SearchConfig().retuneRate), cl::cat(category));
cl::opt<double> immigrantRate(
    "immigrant-rate",
    cl::desc("Share of each generation's children drawn at random like "
             "random search's, instead of bred (default 0.25)"),
    cl::init(gevo::SearchConfig().immigrantRate), cl::cat(category));
cl::opt<int> screen(
    "screen",
    cl::desc("NSGA-II breeds this many candidates per child slot; a "
             "surrogate fitted on the run's own measurements (failure rates "
             "per edit, nearest measured variant, static cost) picks the one "
             "to compile and run, and surrogate.csv says how well it guessed "
             "(default 3; 1 turns the pre-screen off; BENCHMARKS.md "
             "section 2 measures it)"),
    cl::init(gevo::SearchConfig().screen), cl::cat(category));
cl::opt<int> pairedRuns(
    "paired-runs",
    cl::desc("Time each variant N times interleaved with the unmodified "
             "program in its own child; the runtime objective is then the "
             "per-pair ratio on the unmodified program's scale, so what runs "
             "beside a child slows both alike (default 5; 0: plain timing)"),
    cl::init(gevo::SearchConfig().pairedRuns), cl::cat(category));
cl::opt<bool> pruneSeeds(
    "prune-seeds",
    cl::desc("NSGA-II's generation 0 starts with a shrink per prunable "
             "dimension keeping its heaviest 3/4 of units (default on)"),
    cl::init(gevo::SearchConfig().pruneSeeds), cl::cat(category));
cl::opt<bool> rateSeeds(
    "rate-seeds",
    cl::desc("Where the module trains by gradient descent, NSGA-II's "
             "generation 0 also starts with each learning rate doubled and "
             "halved (default on)"),
    cl::init(gevo::SearchConfig().rateSeeds), cl::cat(category));
cl::opt<double> maxErrorIncrease(
    "max-error-increase",
    cl::desc("NSGA-II ranks a variant whose validation error exceeds the "
             "unmodified program's by more than this behind every other, so "
             "that broken fast variants do not hold the front's ends "
             "(default 0.25)"),
    cl::init(gevo::SearchConfig().maxErrorIncrease), cl::cat(category));
cl::opt<int>
    initialEdits("initial-edits",
                 cl::desc("Initial individuals hold 1..N edits (default 4)"),
                 cl::init(gevo::SearchConfig().initialEdits),
                 cl::cat(category));
cl::opt<int> maxRandomEdits(
    "max-random-edits",
    cl::desc("Random search draws lists of 1..N edits (default 4)"),
    cl::init(4), cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Random seed (default 1)"), cl::init(1),
                       cl::cat(category));
cl::opt<int> workers(
    "workers",
    cl::desc("Variants evaluated at once, each in its own process (default: "
             "one per core)"),
    cl::init(0), cl::cat(category));
cl::opt<std::string> timeout(
    "timeout",
    cl::desc("Time limit per variant, e.g. 5s (default: 5x the unmodified "
             "program's compile and run time, at least 2 s)"),
    cl::init(""), cl::cat(category));
cl::opt<std::string> memoryLimit(
    "memory-limit",
    cl::desc("Memory a variant may allocate, e.g. 512M, 4G (default 4G)"),
    cl::init("4G"), cl::cat(category));
cl::opt<std::string> operators(
    "operators",
    cl::desc("Comma-separated mutation operators: delete, copy, move, swap, "
             "replace, operand, constant, shrink (default: all)"),
    cl::init("delete,copy,move,swap,replace,operand,constant,shrink"),
    cl::cat(category));
cl::opt<std::string>
    functions("functions",
              cl::desc("Only mutate ops in these functions (comma-separated)"),
              cl::init(""), cl::cat(category));
cl::opt<std::string>
    ops("ops",
        cl::desc("Only target ops whose name starts with one of these "
                 "(comma-separated, e.g. 'arith.mulf,linalg.matmul')"),
        cl::init(""), cl::cat(category));
cl::opt<std::string> dialects(
    "dialects",
    cl::desc("Only target ops of these dialects (comma-separated, e.g. "
             "'arith,linalg'); combined with --ops, an op matching either "
             "is a target"),
    cl::init(""), cl::cat(category));
cl::opt<std::string> pipeline(
    "pipeline",
    cl::desc("MLIR pass pipeline lowering each variant to the LLVM dialect "
             "(mlir-opt syntax; default: the CPU pipeline of //gevo:evaluate)"),
    cl::init(""), cl::cat(category));
cl::opt<std::string>
    target("target",
           cl::desc("Where variants run: cpu (default), or cuda (the GPU "
                    "target, timed with CUDA events; needs a CUDA driver)"),
           cl::init("cpu"), cl::cat(category));
cl::opt<std::string>
    llvmPipeline("llvm-pipeline",
                 cl::desc("LLVM IR passes before codegen; empty for none"),
                 cl::init(gevo::kDefaultLlvmPipeline), cl::cat(category));
cl::opt<int> optLevel("opt-level", cl::desc("Machine codegen level, 0..3"),
                      cl::init(2), cl::cat(category));
cl::opt<int>
    warmup("warmup",
           cl::desc("Untimed runs per variant before timing (default: the "
                    "workload's)"),
           cl::init(-1), cl::cat(category));
cl::opt<int> repeats(
    "repeats",
    cl::desc("Timed runs per variant; the median is the run time (default: "
             "the workload's)"),
    cl::init(-1), cl::cat(category));
cl::opt<int> frontRepeats(
    "front-repeats",
    cl::desc("Noise control: runs of each front variant interleaved with the "
             "unmodified program when reporting (default 10)"),
    cl::init(10), cl::cat(category));
cl::opt<int> frontChildren(
    "front-children",
    cl::desc("Noise control: separate children each front variant's "
             "interleaved runs are split over; the median of their ratios "
             "counts, so one child slow on one side throughout is outvoted "
             "(default 3)"),
    cl::init(3), cl::cat(category));
cl::opt<int> frontLimit(
    "front-limit",
    cl::desc("Most front variants re-measured and written (default 24)"),
    cl::init(24), cl::cat(category));
cl::opt<std::string> importCache(
    "cache",
    cl::desc("Start from another run's fitness cache (its cache.jsonl); "
             "equal variants are not evaluated again"),
    cl::value_desc("file"), cl::init(""), cl::cat(category));
cl::opt<std::string> exploreCsv(
    "explore",
    cl::desc("Instead of searching, measure one edit per (operator, target "
             "op) on the unmodified program and write them to this CSV"),
    cl::value_desc("file.csv"), cl::init(""), cl::cat(category));
cl::opt<bool> quiet("quiet", cl::desc("No progress output"), cl::cat(category));
cl::opt<std::string> backend(
    "backend",
    cl::desc("local (default), or mpi: started by mpirun, rank 0 searches "
             "and ranks 1.. evaluate (--workers each); writes mpi.json"),
    cl::init("local"), cl::cat(category));
cl::opt<std::string> rankTimeout(
    "rank-timeout",
    cl::desc("--backend=mpi: a rank silent this long while holding variants "
             "is lost and its variants go to the others (default 10s)"),
    cl::init("10s"), cl::cat(category));

std::vector<std::string> splitList(const std::string &text) {
  return absl::StrSplit(text, ',', absl::SkipEmpty());
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(
          argc, argv,
          "gevo-search: evolve edits to a workload's MLIR with NSGA-II and "
          "write the Pareto front as replayable patches.\n",
          &llvm::errs()))
    return 2;
  if (backend != "local" && backend != "mpi")
    return gevo::reportBadInput("--backend must be local or mpi");
  std::unique_ptr<gevo::MpiJob> mpi;
  if (backend == "mpi") {
    absl::StatusOr<double> limit = gevo::parseDuration(rankTimeout);
    if (!limit.ok() || *limit <= 0)
      return gevo::reportBadInput("--rank-timeout: expected e.g. 10s");
    auto job = gevo::MpiJob::start(&argc, &argv, *limit);
    if (!job.ok())
      return gevo::reportBadInput(std::string(job.status().message()));
    mpi = std::move(*job);
    if (!mpi->leads())
      return mpi->serve(workers.getNumOccurrences() ? int(workers) : 0);
  }
  gevo::SearchConfig config;
  bool resuming = !resume.empty();
  if (resuming) {
    absl::StatusOr<gevo::SearchConfig> loaded =
        gevo::loadRunConfig(gevo::resolveUserPath(resume));
    if (!loaded.ok())
      return gevo::reportBadInput(std::string(loaded.status().message()));
    config = *loaded;
  } else {
    config.workloadPath = workload.empty()
                              ? gevo::findRunfile("testdata/digits_mlp_train")
                              : gevo::resolveUserPath(workload);
    config.objectives = splitList(objectives);
    if (algorithm != "nsga2" && algorithm != "random")
      return gevo::reportBadInput("--algorithm must be nsga2 or random");
    config.algorithm =
        algorithm == "nsga2" ? gevo::Algorithm::Nsga2 : gevo::Algorithm::Random;
    config.population = population;
    config.crossoverRate = crossoverRate;
    config.mutationRate = mutationRate;
    config.retuneRate = retuneRate;
    config.removeRate = removeRate;
    config.immigrantRate = immigrantRate;
    config.screen = screen;
    config.pairedRuns = pairedRuns;
    config.pruneSeeds = pruneSeeds;
    config.rateSeeds = rateSeeds;
    config.maxErrorIncrease = maxErrorIncrease;
    config.initialEdits = initialEdits;
    config.maxRandomEdits = maxRandomEdits;
    config.seed = seed;
    if (!timeout.empty()) {
      absl::StatusOr<double> seconds = gevo::parseDuration(timeout);
      if (!seconds.ok())
        return gevo::reportBadInput("--timeout: " +
                                    std::string(seconds.status().message()));
      config.timeoutSeconds = *seconds;
    }
    if (!gevo::parseByteSize(memoryLimit, config.memoryBytes))
      return gevo::reportBadInput(
          "--memory-limit: expected e.g. 512M or 4G, got '" + memoryLimit +
          "'");
    absl::StatusOr<std::vector<gevo::EditKind>> kinds =
        gevo::parseEditKinds(operators);
    if (!kinds.ok())
      return gevo::reportBadInput("--operators: " +
                                  std::string(kinds.status().message()));
    config.operators = *kinds;
    config.functions = splitList(functions);
    config.opPrefixes = splitList(ops);
    for (const std::string &dialect : splitList(dialects))
      config.opPrefixes.push_back(dialect + ".");
    config.evaluation.pipeline = pipeline;
    config.evaluation.target = target;
    config.evaluation.codegen.llvmPipeline = llvmPipeline;
    config.evaluation.codegen.optLevel = optLevel;
    config.evaluation.warmup = warmup;
    config.evaluation.repeats = repeats;
    config.frontRepeats = frontRepeats;
    config.frontChildren = frontChildren;
    config.frontLimit = frontLimit;
    config.importCache =
        importCache.empty() ? "" : gevo::resolveUserPath(importCache);
  }
  // These may change on resume.
  if (!resuming || generations.getNumOccurrences())
    config.generations = generations;
  if (!resuming || budget.getNumOccurrences()) {
    absl::StatusOr<double> seconds = gevo::parseDuration(budget);
    if (!seconds.ok())
      return gevo::reportBadInput("--budget: " +
                                  std::string(seconds.status().message()));
    config.budgetSeconds = *seconds;
  }
  if (!resuming || workers.getNumOccurrences())
    config.workers = workers;
  if (absl::Status settings = gevo::checkSettings(config); !settings.ok())
    return gevo::reportBadInput(std::string(settings.message()));

  std::FILE *progress = quiet ? nullptr : stderr;
  if (!exploreCsv.empty()) {
    absl::StatusOr<gevo::ExploreSummary> summary =
        gevo::explore(config, gevo::resolveUserPath(exploreCsv), progress);
    if (!summary.ok())
      return gevo::reportBadInput(std::string(summary.status().message()));
    llvm::outs() << gevo::summarize(*summary,
                                    gevo::resolveUserPath(exploreCsv));
    return 0;
  }
  if (resuming) {
    config.outDir = gevo::resolveUserPath(resume);
  } else if (!out.empty()) {
    config.outDir = gevo::resolveUserPath(out);
  } else {
    absl::StatusOr<gevo::WorkloadSpec> spec =
        gevo::loadWorkloadSpec(config.workloadPath);
    if (!spec.ok())
      return gevo::reportBadInput(std::string(spec.status().message()));
    config.outDir = gevo::timestampedRunDirectory(
        gevo::resolveUserPath("gevo-runs"), spec->name);
  }
  gevo::RemoteRunner *remote =
      mpi ? &mpi->begin(config.workloadPath, gevo::workbenchOptions(config),
                        quiet ? nullptr : stderr)
          : nullptr;
  absl::StatusOr<gevo::SearchResult> result =
      gevo::runSearch(config, resuming, progress, remote);
  if (mpi) {
    absl::Status stats = mpi->finish(config.outDir + "/mpi.json");
    if (!stats.ok())
      llvm::errs() << std::string(stats.message()) << "\n";
  }
  if (!result.ok()) {
    int code = gevo::reportBadInput(std::string(result.status().message()));
    return absl::IsInternal(result.status()) ? 1 : code;
  }
  llvm::outs() << gevo::summarize(*result);
  return 0;
}
