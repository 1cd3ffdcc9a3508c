//===- search_vs_random_main.cc - NSGA-II's front against random search's ===//
//
//   bazel run //gevo/bench:search_vs_random [-- --generations=24 --seeds=3]
//
// Runs NSGA-II and random search with the same number of individuals per
// run (population x (generations + 1)) on each workload and seed, and
// compares the hypervolume of the fronts they reach (objectives normalised
// as the search reports them: run time and costs by twice the unmodified
// program's, error as is; reference point all ones). Prints a row per run,
// the mean ratio last, and writes the figures as JSON (--json).
//
//===----------------------------------------------------------------------===//

#include <cstdio>

#include "absl/strings/str_split.h"
#include "gevo/bench/figures.h"
#include "gevo/search/search.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
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
cl::opt<std::string> objectives("objectives",
                                cl::desc("Objectives (default: runtime,error)"),
                                cl::init("runtime,error"), cl::cat(category));
cl::opt<int> population("population", cl::desc("Population (default 16)"),
                        cl::init(16), cl::cat(category));
cl::opt<int> generations("generations",
                         cl::desc("Generations per run (default 24)"),
                         cl::init(24), cl::cat(category));
cl::opt<int> seeds("seeds", cl::desc("Seeds 1..N (default 3)"), cl::init(3),
                   cl::cat(category));
cl::opt<double> immigrantRate(
    "immigrant-rate",
    cl::desc("NSGA-II's share of random children (default: the search's)"),
    cl::init(gevo::SearchConfig().immigrantRate), cl::cat(category));
cl::opt<int> initialEdits(
    "initial-edits",
    cl::desc("NSGA-II's initial lists of 1..N edits (default: the search's)"),
    cl::init(gevo::SearchConfig().initialEdits), cl::cat(category));
cl::opt<int> workers("workers", cl::desc("Workers (default: cores)"),
                     cl::init(0), cl::cat(category));
cl::opt<std::string> jsonPath("json",
                              cl::desc("Figures file (default "
                                       "search_vs_random.json)"),
                              cl::init("search_vs_random.json"),
                              cl::cat(category));

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "Hypervolume of NSGA-II vs random search "
                                   "at an equal number of individuals.\n",
                                   &llvm::errs()))
    return 2;
  std::string tmp = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  llvm::json::Array rows;
  double ratioSum = 0;
  int ratioCount = 0;
  std::printf("%-22s %4s %9s %9s %7s %6s %6s\n", "workload", "seed", "hv nsga2",
              "hv random", "ratio", "evals", "evals");
  for (absl::string_view workload :
       absl::StrSplit(workloads.getValue(), ',', absl::SkipEmpty())) {
    double workloadSum = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
      double hv[2] = {0, 0};
      int64_t evaluations[2] = {0, 0};
      for (int a = 0; a < 2; ++a) {
        gevo::SearchConfig config;
        config.workloadPath = gevo::findRunfile(std::string(workload));
        for (absl::string_view name :
             absl::StrSplit(objectives.getValue(), ','))
          config.objectives.emplace_back(name);
        config.algorithm =
            a == 0 ? gevo::Algorithm::Nsga2 : gevo::Algorithm::Random;
        config.population = population;
        config.immigrantRate = immigrantRate;
        config.initialEdits = initialEdits;
        config.generations = generations;
        config.budgetSeconds = 0;
        config.seed = seed;
        config.workers = workers;
        config.frontRepeats = 1;
        config.frontLimit = 1;
        config.outDir = llvm::formatv("{0}/gevo_bench_svr_{1}_{2}_{3}", tmp, a,
                                      seed, rows.size())
                            .str();
        std::system(("rm -rf '" + config.outDir + "'").c_str());
        absl::StatusOr<gevo::SearchResult> result =
            gevo::runSearch(config, false, nullptr);
        if (!result.ok())
          return gevo::reportBadInput(std::string(result.status().message()));
        hv[a] = result->hypervolume;
        evaluations[a] = result->counts.evaluations;
      }
      double ratio = hv[1] > 0 ? hv[0] / hv[1] : 0;
      workloadSum += ratio;
      ratioSum += ratio;
      ++ratioCount;
      std::string name(workload.substr(workload.rfind('/') + 1));
      std::printf("%-22s %4d %9.4f %9.4f %7.3f %6lld %6lld\n", name.c_str(),
                  seed, hv[0], hv[1], ratio,
                  static_cast<long long>(evaluations[0]),
                  static_cast<long long>(evaluations[1]));
      std::fflush(stdout);
      rows.push_back(
          llvm::json::Object{{"workload", name},
                             {"seed", seed},
                             {"hv_nsga2", hv[0]},
                             {"hv_random", hv[1]},
                             {"ratio", ratio},
                             {"evaluations_nsga2", evaluations[0]},
                             {"evaluations_random", evaluations[1]}});
    }
    std::printf("%-22s mean ratio %.3f over %d seeds\n",
                std::string(workload).c_str(), workloadSum / seeds,
                seeds.getValue());
  }
  llvm::json::Object figures{
      {"population", population.getValue()},
      {"generations", generations.getValue()},
      {"objectives", objectives.getValue()},
      {"runs", std::move(rows)},
      {"mean_ratio", ratioCount ? ratioSum / ratioCount : 0}};
  if (absl::Status written = gevo::writeFigures(jsonPath, std::move(figures));
      !written.ok())
    return gevo::reportBadInput(std::string(written.message()));
  std::printf("search vs random: NSGA-II's hypervolume is %.3fx random "
              "search's on average (goal 1.2x), %d individuals per run\n",
              ratioCount ? ratioSum / ratioCount : 0,
              population * (generations + 1));
  return 0;
}
