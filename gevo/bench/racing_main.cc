//===- racing_main.cc - Racing's evaluations/s, and what it stopped -------===//
//
//   bazel run //gevo/bench:racing [-- --workloads=... --budget=5m --seeds=1]
//
// For each workload and seed, two default searches with the same seed and
// budget, one after the other (their order alternates by seed, so that drift
// in the machine's load hits both alike): racing off and on. The "off" run
// is a dry run of racing (every variant timed fully; the cache records
// where racing would have stopped each), which also answers whether racing
// stops variants it should not: a variant it would have stopped that is on
// the front of everything that run measured fully (run-time ratio and
// validation error) is a false stop. Prints a row per run and writes the
// figures as JSON (--json).
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>

#include "gevo/bench/bench_search.h"
#include "gevo/bench/figures.h"
#include "gevo/eval/race.h"
#include "gevo/search/search.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/support/value_codecs.h"
#include "gevo/workbench/fitness_cache.h"
#include "llvm/Support/CommandLine.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("racing benchmark options");
cl::opt<std::string>
    workloads("workloads",
              cl::desc("Comma-separated workloads (default: the generated "
                       "Fashion MLP training, 784-128-10 on 6 000 rows, a "
                       "heavy workload)"),
              cl::init("testdata/fashion_mlp_train_generated"),
              cl::cat(category));
cl::opt<std::string> budget("budget",
                            cl::desc("Budget of each search (default 5m)"),
                            cl::init("5m"), cl::cat(category));
cl::opt<int> seeds("seeds", cl::desc("Seeds 1..N (default 1)"), cl::init(1),
                   cl::cat(category));
cl::opt<std::string> json("json", cl::desc("Write the figures here"),
                          cl::init("bench-results/racing.json"),
                          cl::cat(category));

/// What a dry run's cache says about racing's decisions.
struct DryRunCheck {
  int wouldStop = 0;  // variants racing would have stopped
  int falseStops = 0; // of them, on the front of the fully measured ones
};

DryRunCheck checkDryRun(const std::string &outDir) {
  gevo::FitnessCache cache;
  DryRunCheck check;
  if (!cache.import(outDir + "/cache.jsonl").ok())
    return check;
  std::vector<gevo::FrontPoint> points;
  for (const auto &[key, m] : cache.all())
    if (m.ok() && m.runtimeRatio > 0)
      points.push_back({m.error(), m.runtimeRatio});
  std::vector<gevo::FrontPoint> front = gevo::nonDominated(points);
  for (const auto &[key, m] : cache.all()) {
    if (!m.ok() || m.wouldRace.empty())
      continue;
    ++check.wouldStop;
    for (const gevo::FrontPoint &p : front)
      check.falseStops += p.error == m.error() && p.ratio == m.runtimeRatio;
  }
  return check;
}

llvm::json::Object runOne(const std::string &workload, int seed, bool racing,
                          double budgetSeconds) {
  gevo::SearchConfig config;
  config.workloadPath = gevo::findRunfile(workload);
  config.seed = seed;
  config.budgetSeconds = budgetSeconds;
  config.raceMargin = 0.25; // on, or (off) its dry run
  config.raceDryRun = !racing;
  config.outDir = "/tmp/gevo-bench-racing/" +
                  std::string(llvm::StringRef(workload).rsplit('/').second) +
                  (racing ? "-on-" : "-off-") + std::to_string(seed);
  const gevo::SearchResult r = gevo::pairedSearchOrExit(config);
  double rate = gevo::evaluationsPerSecond(r);
  llvm::json::Object row{
      {"workload", workload},       {"seed", seed},
      {"racing", racing},           {"evaluations", r.counts.evaluations},
      {"seconds", r.searchSeconds}, {"evaluations_per_s", rate},
      {"raced", r.counts.raced},    {"hypervolume", r.hypervolume}};
  DryRunCheck check;
  if (!racing) {
    check = checkDryRun(config.outDir);
    row["would_stop"] = check.wouldStop;
    row["false_stops"] = check.falseStops;
  }
  std::printf("%-28s seed %d racing %-3s %6lld evaluations in %5.0f s "
              "(%.2f/s), %lld stopped early, hypervolume %.4f",
              workload.c_str(), seed, racing ? "on" : "off",
              static_cast<long long>(r.counts.evaluations), r.searchSeconds,
              rate, static_cast<long long>(r.counts.raced), r.hypervolume);
  if (!racing)
    std::printf(", racing would stop %d, %d of them on the front",
                check.wouldStop, check.falseStops);
  std::printf("\n");
  std::fflush(stdout);
  return row;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Racing's benchmark: evaluations/s with racing off (a dry run that "
      "checks its decisions) and on, per workload and seed.\n");
  absl::StatusOr<double> budgetSeconds = gevo::parseDuration(budget);
  if (!budgetSeconds.ok())
    return gevo::reportBadInput(std::string(budgetSeconds.status().message()));
  llvm::json::Array rows = gevo::alternatingPairs(
      workloads.getValue(), seeds,
      [&](const std::string &workload, int seed, bool on) {
        return runOne(workload, seed, on, *budgetSeconds);
      });
  llvm::json::Object figures{{"budget", budget}, {"runs", std::move(rows)}};
  if (absl::Status s = gevo::writeFigures(json, std::move(figures)); !s.ok())
    return gevo::reportBadInput(std::string(s.message()));
  return 0;
}
