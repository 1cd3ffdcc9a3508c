//===- search_config.h - Everything a search run is told ------------------===//
//
// The settings of one run as one nested struct, each field with its one
// default (the one //gevo:search ships): the run's own (workload,
// objectives, budget, seed, the front's re-measurement), the algorithm's
// (AlgorithmSettings, algorithm.h), the mutation filters, and the
// workbench's (WorkbenchOptions: evaluation settings, workers, limits).
// searchSettings() is its table (search_settings.cc): per field the flag,
// the key in run.json and the help, from which the flags, --help and the
// JSON reader and writer are made. Adding a setting touches the struct, the
// table and docs/search.md. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_SEARCH_CONFIG_H
#define GEVO_SEARCH_SEARCH_CONFIG_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"
#include "gevo/search/algorithm_settings.h"
#include "gevo/support/settings_table.h"
#include "gevo/support/value_codecs.h"
#include "gevo/workbench/workbench_options.h"

namespace gevo {

/// Which edits mutation may make, and where.
struct MutationFilters {
  std::vector<EditKind> operators = {std::begin(kAllEditKinds),
                                     std::end(kAllEditKinds)};
  /// Empty: every function.
  std::vector<std::string> functions;
  /// Ops whose name starts with one of these; empty: every op.
  std::vector<std::string> opPrefixes;
};

struct SearchConfig {
  /// Empty: the embedded digits MLP training workload (//gevo:search).
  std::string workloadPath;
  std::string outDir;
  /// Empty: the workload's objectives.
  std::vector<std::string> objectives;
  /// Generations after the initial population (each evaluates `population`
  /// new variants; random search evaluates as many per generation).
  int generations = 1000;
  /// Wall-clock budget for the search (not the final re-measurement); 0:
  /// none.
  double budgetSeconds = 90;
  uint64_t seed = 1;
  /// NSGA-II ranks a variant whose error exceeds the unmodified program's by
  /// more than this behind the others (a broken extreme).
  double maxErrorIncrease = 0.25;
  /// > 0: every search-time evaluation runs the variant this many times
  /// interleaved with the unmodified program in the same child, and the
  /// `runtime` objective is the median per-pair ratio times the unmodified
  /// program's start-of-run median (milliseconds, so bounds and reports keep
  /// their scale). A child's phase (what else runs beside it) then slows
  /// both sides alike; a plain reading can be 30% off. Only when `runtime`
  /// is an objective; with --backend=mpi each rank's child times both.
  /// The default, 5 (with pruneSeeds), was chosen on seeds 1-5 of prediction
  /// and checked on seeds 11-15 of both workloads (BENCHMARKS.md §2).
  int pairedRuns = 5;
  /// Racing (gevo/eval/race.h), with paired runs: a variant the front
  /// measured so far dominates stops during its first run (past the run
  /// limit, RacePlan::runLimitRatio), after it (its error beyond the
  /// feasible band, its time over 1 + this times a member at least as
  /// accurate) or once its timed pairs' confidence interval shows it; one that
  /// enters the front stops after three pairs. history.csv says how much of
  /// each was measured. 0: off (every variant timed fully).
  double raceMargin = 0.5;
  /// Racing: a variant whose reading would enter the front is read again in
  /// a child of its own, and that second reading, which no selection picked,
  /// is the one it enters (or stops) with. Without it the front keeps the
  /// luckiest of many readings and stops later variants against figures that
  /// are too fast (docs/evaluation.md, "The winner's curse").
  bool raceReread = true;
  /// Racing: a variant its pairs leave undecided after three stops there
  /// once no pair left could decide it, where its reading is ahead of every
  /// member at least as accurate (`undecided:N`; RacePlan::stopUndecided).
  /// Off until §11 measures it on every seed.
  bool raceStopUndecided = false;
  /// Racing: a short variant (under 20 ms) beside an unmodified program that
  /// is not is timed against one run of it, an eviction of the caches
  /// standing in for its later runs (RacePlan::evictShort).
  bool raceEvictShort = true;
  /// Racing decides but stops nothing; the cache records where it would
  /// have stopped each variant (gevo/bench:racing checks those). No flag.
  bool raceDryRun = false;
  /// Noise control: interleaved runs per front member when reporting.
  int frontRepeats = 10;
  /// ... in this many separate children each (their median ratio counts).
  int frontChildren = 3;
  /// Most front members re-measured and written out.
  int frontLimit = 24;
  /// Another run's cache.jsonl to start from.
  std::string importCache;
  /// Population, rates, pre-screen, seeds; and which algorithm.
  AlgorithmSettings algorithm;
  MutationFilters mutation;
  /// Evaluation settings, workers, time and memory limits.
  WorkbenchOptions workbench;
};

/// One row per search setting: the run's, the algorithm's, the mutation
/// filters' and the workbench's (workbenchSettings()).
const SettingsTable<SearchConfig> &searchSettings();

const char *toString(Algorithm algorithm);
const char *toString(Schedule schedule);

/// Whether the algorithm's settings are in range (population of two or more,
/// a screen of one or more, rates in [0, 1]); the error names the flag.
absl::Status checkSettings(const SearchConfig &config);

/// The config as run.json's "config" object.
llvm::json::Value toJson(const SearchConfig &config);
/// Reads what toJson wrote; a key that is absent keeps its default.
/// `source` names the file in errors; given the file's `text`, an error in
/// a value says where it is (source:line:column; the config is the file's
/// "config" member).
absl::StatusOr<SearchConfig> configFromJson(const llvm::json::Value &value,
                                            const std::string &source,
                                            const std::string &text = "");

} // namespace gevo

#endif // GEVO_SEARCH_SEARCH_CONFIG_H
