//===- steady_state_main.cc - Steady-state vs generational search ---------===//
//
//   bazel run //gevo/bench:steady_state [-- --workloads=... --budget=5m]
//
// For each workload and seed, two default searches with the same seed,
// workers and budget, one after the other (their order alternates by seed,
// so that drift in the machine's load hits both alike): the generational
// schedule and the steady-state one (--schedule=steady). Prints a row per
// run (evaluations/s, hypervolume at equal wall time) and writes the
// figures as JSON (--json).
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>

#include "gevo/bench/bench_search.h"
#include "gevo/bench/figures.h"
#include "gevo/search/search.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/support/value_codecs.h"
#include "llvm/Support/CommandLine.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("steady-state benchmark options");
cl::opt<std::string> workloads(
    "workloads",
    cl::desc("Comma-separated workloads (default: the generated Fashion MLP "
             "training, a heavy workload, and the digits MLP training)"),
    cl::init("testdata/fashion_mlp_train,testdata/digits_mlp_train"),
    cl::cat(category));
cl::opt<std::string> budget("budget",
                            cl::desc("Budget of each search (default 5m)"),
                            cl::init("5m"), cl::cat(category));
cl::opt<int> seeds("seeds", cl::desc("Seeds 1..N (default 1)"), cl::init(1),
                   cl::cat(category));
cl::opt<int> workers("workers", cl::desc("Workers of each search (default 2)"),
                     cl::init(2), cl::cat(category));
cl::opt<std::string> json("json", cl::desc("Write the figures here"),
                          cl::init("bench-results/steady_state.json"),
                          cl::cat(category));

llvm::json::Object runOne(const std::string &workload, int seed, bool steady,
                          double budgetSeconds) {
  gevo::SearchConfig config;
  config.workloadPath = gevo::findRunfile(workload);
  config.seed = seed;
  config.budgetSeconds = budgetSeconds;
  config.workbench.workers = workers;
  config.algorithm.schedule =
      steady ? gevo::Schedule::Steady : gevo::Schedule::Generational;
  config.outDir = "/tmp/gevo-bench-steady/" +
                  std::string(llvm::StringRef(workload).rsplit('/').second) +
                  (steady ? "-steady-" : "-generational-") +
                  std::to_string(seed);
  const gevo::SearchResult r = gevo::pairedSearchOrExit(config);
  double rate = gevo::evaluationsPerSecond(r);
  const char *schedule = toString(config.algorithm.schedule);
  // What writing the checkpoints cost (run.json's figures): the steady
  // schedule writes one per generation; one per arrival would cost
  // `population` times as much.
  double checkpointS = 0, checkpoints = 0;
  if (absl::StatusOr<llvm::json::Value> run =
          gevo::readFigures(config.outDir + "/run.json");
      run.ok())
    if (const llvm::json::Object *o = run->getAsObject()) {
      checkpointS = o->getNumber("checkpoint_s").value_or(0);
      checkpoints = o->getNumber("checkpoints").value_or(0);
    }
  std::printf("%-38s seed %d %-12s %6lld evaluations (%lld cache hits) in "
              "%5.0f s (%.3f/s), %d generations, hypervolume %.4f\n",
              workload.c_str(), seed, schedule,
              static_cast<long long>(r.counts.evaluations),
              static_cast<long long>(r.counts.cacheHits), r.searchSeconds, rate,
              r.generationsDone, r.hypervolume);
  std::fflush(stdout);
  return llvm::json::Object{
      {"workload", workload},
      {"seed", seed},
      {"schedule", schedule},
      {"workers", int(workers)},
      {"evaluations", r.counts.evaluations},
      {"cache_hits", r.counts.cacheHits},
      {"seconds", r.searchSeconds},
      {"evaluations_per_s", rate},
      {"generations", r.generationsDone},
      {"hypervolume", r.hypervolume},
      {"checkpoints", checkpoints},
      {"checkpoint_ms",
       checkpoints > 0 ? 1000 * checkpointS / checkpoints : 0.0}};
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Steady-state search's benchmark: evaluations/s and hypervolume of the "
      "generational and the steady-state schedule at equal wall time, per "
      "workload and seed.\n");
  absl::StatusOr<double> budgetSeconds = gevo::parseDuration(budget);
  if (!budgetSeconds.ok())
    return gevo::reportBadInput(std::string(budgetSeconds.status().message()));
  llvm::json::Array rows = gevo::alternatingPairs(
      workloads.getValue(), seeds,
      [&](const std::string &workload, int seed, bool on) {
        return runOne(workload, seed, on, *budgetSeconds);
      });
  llvm::json::Object figures{
      {"budget", budget}, {"workers", int(workers)}, {"runs", std::move(rows)}};
  if (absl::Status s = gevo::writeFigures(json, std::move(figures)); !s.ok())
    return gevo::reportBadInput(std::string(s.message()));
  return 0;
}
