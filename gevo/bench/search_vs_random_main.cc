//===- search_vs_random_main.cc - NSGA-II's front against random search's ===//
//
//   bazel run //gevo/bench:search_vs_random [-- --generations=24 --seeds=5]
//
// Runs NSGA-II and random search with the same number of individuals per
// run (population x (generations + 1)) on each workload and seed, then
// compares them fairly (fair_comparison.h): both final fronts are
// re-measured in one session, each variant interleaved with the unmodified
// program in several children (run time as the median ratio), and the
// hypervolume of each is computed from those measurements against one
// reference point near the unmodified program (run-time ratio --ref-ratio,
// its validation error + --ref-error): only variants a user could want
// count. Also the evaluations each run needed until a variant first beat
// the unmodified program beyond noise (--band, --error-band), measured in
// children of its own after both searches and confirmed by re-measuring
// the candidate interleaved with it. Prints a row per run and the medians,
// and writes the figures as JSON (--json).
//
//===----------------------------------------------------------------------===//

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gevo/bench/fair_comparison.h"
#include "gevo/bench/figures.h"
#include "gevo/bench/search_vs_random.h"
#include "gevo/eval/harness.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/search/batch_evaluator.h"
#include "gevo/search/search.h"
#include "gevo/support/settings_flags.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/workbench.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("search-vs-random benchmark options");
cl::opt<std::string>
    workloads("workloads",
              cl::desc("Comma-separated workloads (default: both digits)"),
              cl::init("testdata/digits_mlp_train,testdata/digits_mlp_predict"),
              cl::cat(category));
cl::opt<int> firstSeed("first-seed",
                       cl::desc("The first seed (default 1): seeds run from "
                                "it, --seeds of them"),
                       cl::init(1), cl::cat(category));
cl::opt<int> seeds("seeds", cl::desc("How many seeds (default 5)"), cl::init(5),
                   cl::cat(category));
cl::opt<double> refRatio(
    "ref-ratio",
    cl::desc("Reference point's run-time ratio to the unmodified program "
             "(default 1.1)"),
    cl::init(1.1), cl::cat(category));
cl::opt<double>
    refError("ref-error",
             cl::desc("Reference point's validation error above the unmodified "
                      "program's (default 0.05)"),
             cl::init(0.05), cl::cat(category));
cl::opt<double> band("band",
                     cl::desc("Run-time noise band for evaluations-to-target "
                              "(default 0.1: 10% faster or slower)"),
                     cl::init(0.1), cl::cat(category));
cl::opt<double> errorBand(
    "error-band",
    cl::desc("Validation-error noise band for evaluations-to-target: a "
             "variant's error must be lower by more than this (default -1: "
             "one standard error of the unmodified program's validation "
             "error over the validation rows)"),
    cl::init(-1), cl::cat(category));
cl::opt<int> pairs("pairs",
                   cl::desc("Interleaved pairs per child when re-measuring "
                            "the fronts (default 5)"),
                   cl::init(5), cl::cat(category));
cl::opt<int> children("children",
                      cl::desc("Children per front variant when re-measuring "
                               "(default 3)"),
                      cl::init(3), cl::cat(category));
cl::opt<int> unmodifiedChildren(
    "unmodified-children",
    cl::desc("Children measuring the unmodified program alone, after both "
             "searches of a seed: the median is the run time the targets are "
             "measured against (default 6)"),
    cl::init(6), cl::cat(category));
cl::opt<int> confirmLimit(
    "confirm-limit",
    cl::desc("Most target candidates per run re-measured against the "
             "unmodified program (default 40)"),
    cl::init(40), cl::cat(category));
cl::opt<std::string> jsonPath("json",
                              cl::desc("Figures file (default "
                                       "search_vs_random.json)"),
                              cl::init("search_vs_random.json"),
                              cl::cat(category));

/// Both searches' settings where the benchmark's differ from the search's:
/// a fixed number of generations (no budget), and no re-measured front (the
/// benchmark re-measures both fronts itself).
gevo::SearchConfig benchDefaults() {
  gevo::SearchConfig config;
  config.objectives = {"runtime", "error"};
  config.generations = 24;
  config.budgetSeconds = 0;
  config.frontRepeats = 1;
  config.frontChildren = 1;
  config.frontLimit = 0;
  return config;
}

/// The search settings this benchmark takes, with the search's flags
/// (docs/search.md) and the benchmark's defaults.
const gevo::SettingFlags<gevo::SearchConfig> searchFlags(
    gevo::searchSettings(), benchDefaults(), category,
    {"objectives", "population", "generations", "screen", "max-error-increase",
     "retune-rate", "paired-runs", "prune-seeds", "rate-seeds", "workers"});

using svr::Run;
using svr::Workload;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

gevo::SearchConfig configFor(const gevo::SearchConfig &base,
                             const std::string &workload, int algorithm,
                             int seed, size_t row) {
  gevo::SearchConfig config = base;
  config.workloadPath = workload;
  config.algorithm.kind =
      algorithm == 0 ? gevo::Algorithm::Nsga2 : gevo::Algorithm::Random;
  config.seed = seed;
  std::string tmp = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  config.outDir =
      llvm::formatv("{0}/gevo_bench_svr_{1}_{2}_{3}", tmp, algorithm, seed, row)
          .str();
  std::system(("rm -rf '" + config.outDir + "'").c_str());
  return config;
}

/// The figures so far (rewritten after every seed, so that a long run
/// stopped early keeps what it measured).
absl::Status writeFigures(const gevo::SearchConfig &base,
                          const llvm::json::Array &rows,
                          const llvm::json::Array &summaries) {
  const gevo::AlgorithmSettings &a = base.algorithm;
  llvm::json::Object figures{
      {"population", a.population},
      {"generations", base.generations},
      {"seeds", seeds.getValue()},
      {"first_seed", firstSeed.getValue()},
      {"objectives", absl::StrJoin(base.objectives, ",")},
      {"ref_ratio", refRatio.getValue()},
      {"ref_error", refError.getValue()},
      {"band", band.getValue()},
      {"pairs", pairs.getValue()},
      {"children", children.getValue()},
      {"unmodified_children", unmodifiedChildren.getValue()},
      {"screen", a.screen},
      {"max_error_increase", base.maxErrorIncrease},
      {"retune_rate", a.retuneRate},
      {"paired_runs", base.pairedRuns},
      {"race_margin", base.raceMargin},
      {"prune_seeds", a.pruneSeeds},
      {"rate_seeds", a.rateSeeds},
      {"disturbed_factor", gevo::kDisturbedFactor},
      {"workloads", llvm::json::Array(summaries)},
      {"runs", llvm::json::Array(rows)}};
  return gevo::writeFigures(jsonPath, std::move(figures));
}

/// Opens the workload's workbench, measures the unmodified program, and
/// sets the reference region and noise band from it.
absl::StatusOr<Workload> openWorkload(const gevo::SearchConfig &base,
                                      absl::string_view name) {
  Workload w;
  w.path = gevo::findRunfile(std::string(name));
  w.name = std::string(name.substr(name.rfind('/') + 1));
  absl::StatusOr<gevo::WorkloadSpec> spec = gevo::loadWorkloadSpec(w.path);
  if (!spec.ok())
    return spec.status();
  absl::StatusOr<std::unique_ptr<gevo::Workbench>> bench =
      gevo::Workbench::create(*spec,
                              configFor(base, w.path, 0, 0, 0).workbench);
  if (!bench.ok())
    return bench.status();
  w.bench = std::move(*bench);
  if (absl::Status s = w.bench->measureBaseline(); !s.ok())
    return s;
  w.unmodifiedError = w.bench->baseline().error();
  w.noise = gevo::NoiseBand{band, errorBand};
  if (errorBand < 0)
    w.noise.error = gevo::errorStandardError(
        w.unmodifiedError, w.bench->baseline().validation.total);
  w.region = gevo::Region{refRatio, w.unmodifiedError + refError};
  w.remeasure = {pairs, children, unmodifiedChildren, confirmLimit};
  return w;
}

/// NSGA-II (0) and random search (1) on one seed.
absl::Status searchBoth(const gevo::SearchConfig &base, const Workload &w,
                        int seed, size_t row, Run runs[2]) {
  for (int a = 0; a < 2; ++a) {
    gevo::SearchConfig config = configFor(base, w.path, a, seed, row);
    absl::StatusOr<gevo::SearchResult> result =
        gevo::runSearch(config, false, nullptr);
    if (!result.ok())
      return result.status();
    for (const gevo::FrontMember &member : result->front)
      runs[a].front.push_back(member.individual.edits);
    runs[a].directory = config.outDir;
    runs[a].baselineMs = result->baseline.medianRunMs;
    runs[a].evaluations = result->counts.evaluations;
    runs[a].remeasured = result->counts.remeasured;
    runs[a].raced = result->counts.raced;
  }
  return absl::OkStatus();
}

/// Every seed on one workload: a printed row and a figures row per seed,
/// then the workload's summary.
absl::Status compareOnWorkload(const gevo::SearchConfig &base, Workload &w,
                               llvm::json::Array &rows,
                               llvm::json::Array &summaries) {
  std::vector<double> ratios;
  int fewer = 0;
  for (int seed = firstSeed; seed < firstSeed + seeds; ++seed) {
    Run runs[2];
    if (absl::Status s = searchBoth(base, w, seed, rows.size(), runs); !s.ok())
      return s;
    gevo::ScreenSummary screen = gevo::summarizeScreen(runs[0].directory);
    std::pair<double, double> unmodified = svr::compareFronts(w, runs);
    double ratio = runs[1].hypervolume > 0
                       ? runs[0].hypervolume / runs[1].hypervolume
                   : runs[0].hypervolume > 0 ? kInfinity
                                             : 1;
    ratios.push_back(ratio);
    int64_t n = runs[0].toTarget, r = runs[1].toTarget;
    fewer += n > 0 && (r == 0 || n < r);
    std::printf("%-20s %4d %10.6f %10.6f %7.3f %5d %5d %7lld %7lld\n",
                w.name.c_str(), seed, runs[0].hypervolume, runs[1].hypervolume,
                ratio, gevo::pointsInRegion(runs[0].points, w.region),
                gevo::pointsInRegion(runs[1].points, w.region),
                static_cast<long long>(n), static_cast<long long>(r));
    std::fflush(stdout);
    rows.push_back(svr::seedRow(w, seed, runs, ratio, unmodified, screen));
    if (absl::Status written = writeFigures(base, rows, summaries);
        !written.ok())
      return written;
  }
  double median = gevo::median(ratios);
  std::printf("%-20s median ratio %.3f over %d seeds; NSGA-II reached the "
              "target in fewer evaluations in %d\n",
              w.name.c_str(), median, seeds.getValue(), fewer);
  summaries.push_back(llvm::json::Object{
      {"workload", w.name},
      {"unmodified_error", w.unmodifiedError},
      {"error_band", w.noise.error},
      {"median_ratio", svr::number(median)},
      {"min_ratio",
       svr::number(*std::min_element(ratios.begin(), ratios.end()))},
      {"max_ratio",
       svr::number(*std::max_element(ratios.begin(), ratios.end()))},
      {"seeds_fewer_to_target", fewer}});
  return absl::OkStatus();
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "Hypervolume of NSGA-II vs random search "
                                   "at an equal number of individuals, both "
                                   "fronts re-measured in one session.\n",
                                   &llvm::errs()))
    return 2;
  gevo::SearchConfig base = benchDefaults();
  if (absl::Status given = searchFlags.apply(base); !given.ok())
    return gevo::reportBadInput(std::string(given.message()));
  llvm::json::Array rows, summaries;
  std::printf("%-20s %4s %10s %10s %7s %5s %5s %7s %7s\n", "workload", "seed",
              "hv nsga2", "hv random", "ratio", "pts", "pts", "target",
              "target");
  for (absl::string_view name :
       absl::StrSplit(workloads.getValue(), ',', absl::SkipEmpty())) {
    absl::StatusOr<Workload> workload = openWorkload(base, name);
    if (!workload.ok())
      return gevo::reportBadInput(std::string(workload.status().message()));
    absl::Status compared = compareOnWorkload(base, *workload, rows, summaries);
    if (!compared.ok())
      return gevo::reportBadInput(std::string(compared.message()));
  }
  if (absl::Status written = writeFigures(base, rows, summaries); !written.ok())
    return gevo::reportBadInput(std::string(written.message()));
  return 0;
}
