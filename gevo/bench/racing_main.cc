//===- racing_main.cc - Racing's evaluations/s, and what it stopped -------===//
//
//   bazel run //gevo/bench:racing [-- --workloads=... --budget=5m --seeds=3]
//
// For each workload and seed, two searches of the same seed and budget, one
// after the other (which goes first alternates by seed, so that drift in load
// hits both alike): the default the issue measured (generational, every variant
// timed fully) and racing on (the shipped default) with the steady-state
// schedule (--schedule). The first is a dry run of racing: its cache records
// where racing would have stopped each variant; one stopped as dominated that
// is faster, beyond the noise band, than every fully measured variant at least
// as accurate is a false stop. Hypervolumes: the re-measured fronts'.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>
#include <set>

#include "absl/strings/str_split.h"
#include "gevo/bench/bench_search.h"
#include "gevo/bench/figures.h"
#include "gevo/bench/racing_sample.h"
#include "gevo/eval/race.h"
#include "gevo/search/search.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/support/value_codecs.h"
#include "llvm/Support/CommandLine.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("racing benchmark options");
cl::opt<std::string>
    workloads("workloads",
              cl::desc("Comma-separated workloads (default: the generated "
                       "Fashion MLP training, 784-128-10 on 6 000 rows, a "
                       "heavy workload)"),
              cl::init("testdata/fashion_mlp_train"), cl::cat(category));
cl::opt<std::string> budget("budget",
                            cl::desc("Budget of each search (default 5m)"),
                            cl::init("5m"), cl::cat(category));
cl::opt<int> seeds("seeds", cl::desc("Seeds 1..N (default 3)"), cl::init(3),
                   cl::cat(category));
cl::opt<std::string> onlySeeds(
    "only-seeds",
    cl::desc("Comma-separated seeds to run instead of 1..--seeds (with "
             "--merge, a benchmark split over several sittings: each seed's "
             "pair of searches is still one sitting's)"),
    cl::cat(category));
cl::opt<bool> merge(
    "merge",
    cl::desc("Keep the rows of --json's figures for the workloads and seeds "
             "this run does not make (their budget and sample must be this "
             "run's) and replace the rest"),
    cl::init(false), cl::cat(category));
cl::opt<std::string> schedule(
    "schedule",
    cl::desc("Schedule of the racing arm: steady (default) or generational "
             "(the shipped default)"),
    cl::init("steady"), cl::cat(category));
cl::opt<bool> stopUndecided(
    "stop-undecided",
    cl::desc("Both arms plan racing with --race-stop-undecided (a variant "
             "no pair left could decide stops after three where its reading is "
             "ahead of the front; "
             "the dry run records where); off: the shipped default"),
    cl::init(false), cl::cat(category));
cl::opt<bool> recheckOnly(
    "recheck",
    cl::desc("Run no search: make the dry-run checks and the samples of the "
             "runs --json lists again from their run directories (still in "
             "/tmp) and rewrite it"),
    cl::init(false), cl::cat(category));
cl::opt<int> sampleSize(
    "sample",
    cl::desc("After each racing search, measure fully this many of the "
             "variants it stopped (those whose reading came nearest to the "
             "front) against its re-measured front (default 30; 0: none)"),
    cl::init(30), cl::cat(category));
cl::OptionCategory inner("options the benchmark gives its own fresh processes");
cl::opt<std::string> measureKeys(
    "measure-keys",
    cl::desc("Run no search: measure fully the variants of these "
             "comma-separated keys of --measure-run's archive beside the rest "
             "of its front and write their figures to --measure-out (the "
             "benchmark runs itself so to confirm a false stop in fresh "
             "processes)"),
    cl::cat(inner));
cl::opt<std::string> measureRun("measure-run",
                                cl::desc("The run directory --measure-keys "
                                         "reads the checkpoint of"),
                                cl::cat(inner));
cl::opt<std::string>
    measureWorkload("measure-workload",
                    cl::desc("The workload --measure-run searched"),
                    cl::cat(inner));
cl::opt<int> measurePairs("measure-pairs",
                          cl::desc("Timed pairs per variant (default 10)"),
                          cl::init(10), cl::cat(inner));
cl::opt<std::string> measureOut("measure-out",
                                cl::desc("Where --measure-keys writes its "
                                         "figures (JSON)"),
                                cl::cat(inner));
cl::opt<std::string> json("json", cl::desc("Write the figures here"),
                          cl::init("bench-results/racing.json"),
                          cl::cat(category));

std::string outDirOf(const std::string &workload, bool racing, int seed) {
  return "/tmp/gevo-bench-racing/" +
         std::string(llvm::StringRef(workload).rsplit('/').second) +
         (racing ? "-on-" : "-off-") + std::to_string(seed);
}

/// The racing search's stopped variants nearest its front, measured fully
/// (racing_sample.h), from its run directory.
gevo::SampleSetup sampleSetup(const std::string &workload, int seed,
                              bool racing) {
  gevo::SearchConfig config; // the shipped default, as the search ran
  gevo::SampleSetup setup;
  setup.outDir = outDirOf(workload, racing, seed);
  setup.workloadPath = gevo::findRunfile(workload);
  setup.workbench = config.workbench;
  setup.maxErrorIncrease = config.maxErrorIncrease;
  setup.size = sampleSize;
  setup.pairs = 2 * config.pairedRuns;
  return setup;
}

/// The dry run's check from its cache, its false stops confirmed in fresh
/// processes.
gevo::DryRunCheck checkDryRun(const std::string &workload, int seed,
                              const gevo::Measurement &baseline) {
  gevo::DryRunCheck check =
      gevo::checkDryRunCache(outDirOf(workload, false, seed), baseline,
                             gevo::SearchConfig().maxErrorIncrease);
  check.confirmed = gevo::confirmInProcesses(sampleSetup(workload, seed, false),
                                             check.falseStopKeys);
  return check;
}

llvm::json::Object runOne(const std::string &workload, int seed, bool racing,
                          double budgetSeconds) {
  gevo::SearchConfig config; // the shipped default
  config.workloadPath = gevo::findRunfile(workload);
  config.seed = seed;
  config.budgetSeconds = budgetSeconds;
  config.raceStopUndecided = stopUndecided;
  if (!racing) { // the default the issue measured, as racing's dry run
    config.algorithm.schedule = gevo::Schedule::Generational;
    config.raceDryRun = true;
  } else {
    config.algorithm.schedule = schedule == "generational"
                                    ? gevo::Schedule::Generational
                                    : gevo::Schedule::Steady;
  }
  config.outDir = outDirOf(workload, racing, seed);
  const gevo::SearchResult r = gevo::pairedSearchOrExit(config);
  double rate = gevo::evaluationsPerSecond(r);
  std::pair<int, int> raced = gevo::racedCounts(config.outDir);
  double volume = gevo::remeasuredHypervolume(r);
  llvm::json::Object row{
      {"workload", workload},
      {"seed", seed},
      {"machine", gevo::cpuModel()},
      {"racing", racing},
      {"schedule", gevo::toString(config.algorithm.schedule)},
      {"race_margin", config.raceMargin},
      {"stop_undecided", config.raceStopUndecided},
      {"evaluations", r.counts.evaluations},
      {"seconds", r.searchSeconds},
      {"evaluations_per_s", rate},
      {"stopped_dominated", raced.first},
      {"entered_early", raced.second},
      {"reread", r.counts.reread},
      {"hypervolume_search", r.hypervolume},
      {"hypervolume", volume}};
  gevo::DryRunCheck check;
  if (!racing) {
    check = checkDryRun(workload, seed, r.baseline);
    gevo::putDryRunFigures(row, check);
  }
  gevo::StoppedSample sample;
  if (racing && sampleSize > 0) {
    sample = gevo::checkStoppedSample(sampleSetup(workload, seed, true));
    gevo::putSampleFigures(row, sample);
  }
  std::printf("%-28s seed %d %-7s %6lld evaluations in %5.0f s (%.2f/s), %d "
              "stopped dominated, %d entered early, hypervolume %.4f",
              workload.c_str(), seed, racing ? "racing" : "issue's",
              static_cast<long long>(r.counts.evaluations), r.searchSeconds,
              rate, raced.first, raced.second, volume);
  if (!racing)
    std::printf(", racing would stop %d: %d false stops (%d again "
                "in fresh processes), %d inside the band, %d twins, %d "
                "beyond the reference point",
                check.wouldStop, check.counts.falseStops,
                check.confirmed.everyProcess, check.counts.withinBand,
                check.counts.twins, check.counts.beyondReference);
  else if (sampleSize > 0)
    std::printf(", %d stopped measured fully: %d false stops (%d again "
                "in fresh processes), %d inside the band, %d twins, %d beyond "
                "the reference point",
                sample.measured, sample.counts.falseStops,
                sample.confirmed.everyProcess, sample.counts.withinBand,
                sample.counts.twins, sample.counts.beyondReference);
  std::printf("\n");
  std::fflush(stdout);
  return row;
}

/// The unmodified program as a finished run's run.json holds it.
absl::StatusOr<gevo::Measurement> runBaseline(const std::string &dir) {
  absl::StatusOr<llvm::json::Value> run = gevo::readFigures(dir + "/run.json");
  if (!run.ok())
    return run.status();
  const llvm::json::Object *object = run->getAsObject();
  const llvm::json::Value *baseline =
      object ? object->get("baseline") : nullptr;
  if (!baseline)
    return absl::InvalidArgumentError(dir + "/run.json: no baseline");
  return gevo::parseMeasurementJson(llvm::formatv("{0}", *baseline).str());
}

/// --recheck: the dry-run checks and the racing runs' samples of the runs
/// `json` lists, made again from their run directories (still in /tmp) with
/// this binary's checks.
int recheck() {
  absl::StatusOr<llvm::json::Value> figures = gevo::readFigures(json);
  if (!figures.ok() || !figures->getAsObject())
    return gevo::reportBadInput(json + ": cannot read the figures");
  llvm::json::Array *runs = figures->getAsObject()->getArray("runs");
  if (!runs)
    return gevo::reportBadInput(json + ": no runs");
  for (llvm::json::Value &value : *runs) {
    llvm::json::Object *row = value.getAsObject();
    if (!row)
      continue;
    std::string workload = row->getString("workload").value_or("").str();
    int seed = int(row->getInteger("seed").value_or(0));
    if (row->getBoolean("racing").value_or(false) && sampleSize > 0) {
      std::fprintf(stderr, "%s seed %d: stopped variants measured fully\n",
                   workload.c_str(), seed);
      gevo::putSampleFigures(
          *row, gevo::checkStoppedSample(sampleSetup(workload, seed, true)));
      continue;
    }
    if (row->getBoolean("racing").value_or(true))
      continue;
    absl::StatusOr<gevo::Measurement> baseline =
        runBaseline(outDirOf(workload, false, seed));
    if (!baseline.ok())
      return gevo::reportBadInput(std::string(baseline.status().message()));
    gevo::putDryRunFigures(*row, checkDryRun(workload, seed, *baseline));
  }
  (*figures->getAsObject())["sample"] = static_cast<int>(sampleSize);
  (*figures->getAsObject())["confirm_processes"] = gevo::kConfirmProcesses;
  if (absl::Status s =
          gevo::writeFigures(json, std::move(*figures->getAsObject()));
      !s.ok())
    return gevo::reportBadInput(std::string(s.message()));
  return 0;
}

/// --only-seeds, or 1..--seeds.
absl::StatusOr<std::vector<int>> seedsToRun() {
  std::vector<int> list;
  if (onlySeeds.empty()) {
    for (int seed = 1; seed <= seeds; ++seed)
      list.push_back(seed);
    return list;
  }
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(onlySeeds.getValue()).split(parts, ',', -1, false);
  for (llvm::StringRef part : parts) {
    int seed = 0;
    if (part.trim().getAsInteger(10, seed) || seed < 1)
      return absl::InvalidArgumentError(
          "--only-seeds: '" + part.str() +
          "' is not a seed (a positive whole number)");
    list.push_back(seed);
  }
  return list;
}

/// With --merge, the rows of --json's figures this run does not replace
/// (none without it); an error when they were made with another budget or
/// sample, so no table mixes them.
absl::StatusOr<llvm::json::Array> rowsToKeep() {
  llvm::json::Array kept;
  if (!merge)
    return kept;
  absl::StatusOr<llvm::json::Value> figures = gevo::readFigures(json);
  if (absl::IsNotFound(figures.status()))
    return kept; // nothing yet to merge with
  if (!figures.ok())
    return figures.status();
  const llvm::json::Object *o = figures->getAsObject();
  const llvm::json::Array *runs = o ? o->getArray("runs") : nullptr;
  if (!runs)
    return absl::InvalidArgumentError(json + ": no runs to merge with");
  if (o->getString("budget").value_or("") != budget.getValue() ||
      o->getInteger("sample").value_or(-1) != sampleSize.getValue())
    return absl::InvalidArgumentError(
        json +
        ": --merge needs its figures made with --budget=" + budget.getValue() +
        " and --sample=" + std::to_string(sampleSize.getValue()) +
        "; they were made with --budget=" +
        o->getString("budget").value_or("?").str() + " and --sample=" +
        std::to_string(o->getInteger("sample").value_or(-1)));
  absl::StatusOr<std::vector<int>> list = seedsToRun();
  if (!list.ok())
    return list.status();
  std::set<int> replaced(list->begin(), list->end());
  std::vector<std::string> names = absl::StrSplit(workloads.getValue(), ',');
  std::set<std::string> ours(names.begin(), names.end());
  for (const llvm::json::Value &value : *runs) {
    const llvm::json::Object *row = value.getAsObject();
    if (!row)
      continue;
    std::string workload = row->getString("workload").value_or("").str();
    int seed = int(row->getInteger("seed").value_or(0));
    if (!ours.count(workload) || !replaced.count(seed))
      kept.push_back(value);
  }
  std::fprintf(stderr, "merging: %zu rows of %s kept\n", kept.size(),
               json.c_str());
  return kept;
}

/// --measure-keys: one fresh process's reading (racing_sample.h).
int measureInThisProcess() {
  gevo::SearchConfig config; // the shipped default, as the search ran
  gevo::SampleSetup setup;
  setup.outDir = measureRun;
  setup.workloadPath = measureWorkload;
  setup.workbench = config.workbench;
  setup.maxErrorIncrease = config.maxErrorIncrease;
  setup.pairs = measurePairs;
  std::set<std::string> keys;
  llvm::SmallVector<llvm::StringRef> parts;
  llvm::StringRef(measureKeys.getValue()).split(parts, ',', -1, false);
  for (llvm::StringRef key : parts)
    keys.insert(key.str());
  if (absl::Status s = gevo::measureKeysToFile(setup, keys, measureOut);
      !s.ok())
    return gevo::reportBadInput(std::string(s.message()));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions({&category, &inner});
  cl::ParseCommandLineOptions(
      argc, argv,
      "Racing's benchmark: evaluations/s of the default the issue measured "
      "(generational, every variant timed fully: a dry run of racing that "
      "checks its decisions) and of racing on with --schedule, per workload "
      "and seed.\n");
  if (!measureKeys.empty())
    return measureInThisProcess();
  if (recheckOnly)
    return recheck();
  absl::StatusOr<double> budgetSeconds = gevo::parseDuration(budget);
  if (!budgetSeconds.ok())
    return gevo::reportBadInput(std::string(budgetSeconds.status().message()));
  absl::StatusOr<std::vector<int>> seedList = seedsToRun();
  if (!seedList.ok())
    return gevo::reportBadInput(std::string(seedList.status().message()));
  absl::StatusOr<llvm::json::Array> kept = rowsToKeep();
  if (!kept.ok())
    return gevo::reportBadInput(std::string(kept.status().message()));
  llvm::json::Array rows = gevo::alternatingPairs(
      workloads.getValue(), *seedList,
      [&](const std::string &workload, int seed, bool on) {
        return runOne(workload, seed, on, *budgetSeconds);
      });
  for (llvm::json::Value &row : rows)
    kept->push_back(std::move(row));
  llvm::json::Object figures{{"budget", budget},
                             {"sample", static_cast<int>(sampleSize)},
                             {"confirm_processes", gevo::kConfirmProcesses},
                             {"runs", std::move(*kept)}};
  if (absl::Status s = gevo::writeFigures(json, std::move(figures)); !s.ok())
    return gevo::reportBadInput(std::string(s.message()));
  return 0;
}
