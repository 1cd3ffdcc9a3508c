//===- search_run.h - One search run's state, for search*.cc only ---------===//
//
// The class behind runSearch(): the run directory, the workbench, the
// algorithm, the checkpoint state and the progress line, and the two
// schedules that drive them (search.cc: generations; search_steady.cc: a
// child per free worker); search_budget.cc: what the budget keeps for the
// front's re-measurement. Internal to //gevo/search:search.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_SEARCH_RUN_H
#define GEVO_SEARCH_SEARCH_RUN_H

#include <deque>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/search/algorithm.h"
#include "gevo/search/batch_evaluator.h"
#include "gevo/search/checkpoint.h"
#include "gevo/search/front_remeasure.h"
#include "gevo/search/progress.h"
#include "gevo/search/search_config.h"
#include "gevo/search/search_result.h"
#include "gevo/search/variant_probe.h"
#include "gevo/search/variation.h"
#include "gevo/support/stopwatch.h"
#include "gevo/workbench/history_writer.h"
#include "gevo/workbench/run_directory.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

/// Everything one run holds while it goes.
/// The mutation options of a run's filters (search_breeding.cc).
MutationOptions mutationOptionsOf(const SearchConfig &config);

class SearchRun {
public:
  using Clock = SteadyClock;
  using Rng = std::mt19937_64;

  SearchRun(SearchConfig config, std::FILE *progressStream,
            RemoteRunner *remote)
      : config(std::move(config)), dir(this->config.outDir), remote(remote),
        progress(progressStream, ProgressLine::isTerminal(progressStream)),
        quiet(progressStream == nullptr) {}

  absl::StatusOr<SearchResult> run(bool resume);

private:
  /// Loads the workload, measures the unmodified program and makes the
  /// algorithm (its bounds are relative to that measurement).
  absl::Status prepare(bool resume);
  /// Variation, the algorithm and its context, with the bounds relative to
  /// the measured unmodified program's error.
  void buildAlgorithm();
  /// AlgorithmContext::breed over the remote runner; a recipe no rank
  /// answered is bred here.
  std::vector<Bred> breedElsewhere(const std::vector<Recipe> &recipes);
  /// The evaluator over the measured unmodified program (racing's front
  /// starts with it).
  absl::Status startEvaluator();
  /// The workbench measures the unmodified program; what its child took
  /// besides compiling and timing it is `childSeconds`.
  absl::Status measureUnmodified();
  void evaluateGeneration(std::vector<Individual> &batch, int generation);
  /// history.csv's row, the operator statistics, the archive.
  void recordMeasured(const Individual &individual);
  /// The steady-state schedule after generation 0 (search_steady.cc).
  absl::Status runSteady();
  absl::Status saveCheckpoint();
  /// A row of operator_weights.csv: the generation and the chance each
  /// operator has of being drawn for the next one's children.
  absl::Status appendOperatorWeights();
  absl::Status writeRunJson(const char *status);
  absl::Status report(SearchResult &result);
  std::vector<double> objectivesOf(const Individual &individual) const {
    return objectiveValues(individual.measurement, objectives);
  }
  ProgressState progressState() const;
  std::vector<size_t> archiveFront() const;
  /// Whether `individual` (of objective `values`) may be a front member:
  /// not stopped as dominated by racing, inside objectiveBounds.
  bool mayJoinFront(const Individual &individual,
                    const Objectives &values) const;
  /// The archive's front as the end re-measures it: in objective order, at
  /// most `frontLimit` spread along it (indices into the archive).
  std::vector<size_t> frontMembers() const;
  /// How the end re-measures the front (front_remeasure.h).
  RemeasurePlan remeasurePlan() const;
  /// Seconds the front's re-measurement would take now, with its second
  /// look (the budget keeps them for it).
  double remeasureReserve() const;
  /// The archive's variants (at most kSecondLookLimit) that a picked member
  /// (`picked`, re-measured as `members`) dominated on the search's figures
  /// and no longer does re-measured, none of them dominating another.
  std::vector<size_t>
  exposedByRemeasure(const std::vector<FrontMember> &members,
                     const std::vector<size_t> &picked) const;
  /// Re-measures exposedByRemeasure()'s variants and adds them to
  /// `result.front` (search_budget.cc).
  void secondLook(SearchResult &result, const std::vector<size_t> &picked);
  static constexpr size_t kSecondLookLimit = 6;
  /// A child's reading: its unmodified side, when paired, says how loaded
  /// the machine is now (search_budget.cc).
  void notePace(const Measurement &m);
  double archiveHypervolume() const;
  /// The hypervolume of `front` (indexes into the archive).
  double hypervolumeOf(const std::vector<size_t> &front) const;

  SearchConfig config;
  RunDirectory dir;
  RemoteRunner *remote;
  std::vector<std::string> objectives;
  /// Per objective, the value past which NSGA-II ranks a variant behind
  /// every other and the front leaves it out (+inf: none).
  std::vector<double> objectiveBounds;
  WorkloadSpec spec;
  std::unique_ptr<Workbench> bench;
  std::unique_ptr<Variation> variation;
  std::unique_ptr<BatchEvaluator> evaluator;
  std::unique_ptr<SearchAlgorithm> algorithm;
  HistoryWriter history;
  Rng rng;
  Checkpoint state;
  std::set<std::string> archiveKeys, failedKeys;
  /// Keys of the variants measured (history.csv's) and proposed.
  std::unique_ptr<VariantProbe> probe;
  ProgressLine progress;
  bool quiet;
  int64_t evaluationsBefore = 0; // restored by --resume: not in the rate
  Clock::time_point started;
  double elapsedBefore = 0;
  /// Checkpoints written in this session and the seconds spent writing
  /// them (run.json: what a checkpoint per arrival would cost).
  int64_t checkpoints = 0;
  double checkpointSeconds = 0;
  /// When the last checkpoint was written and how long that took.
  Clock::time_point lastCheckpointAt;
  double lastCheckpointSeconds = 0;
  /// The steady schedule writes a checkpoint at the end of a generation
  /// only when the time since the last is this many times what the last
  /// took: its JSON grows with the archive, and a generation of a fast
  /// search ends every second or two (a resumed run drops the rows of the
  /// generations after its checkpoint, so none is lost but time).
  static constexpr double kCheckpointSpacing = 50;
  bool checkpointDue() const {
    return checkpoints == 0 || secondsSince(lastCheckpointAt) >=
                                   kCheckpointSpacing * lastCheckpointSeconds;
  }
  /// The process's CPU seconds when this run began: a process that runs
  /// several searches (a benchmark) reports each one's own.
  double cpuBefore = 0;
  /// The front's re-measurement at the end: what the budget kept for it
  /// and what it took (run.json).
  double remeasureEstimate = 0, remeasureSeconds = 0;
  /// Seconds the unmodified program's measurement took besides compiling
  /// and timing it: a child's own cost, for the re-measurement's estimate.
  double childSeconds = 0;
  /// The unmodified program's median in the latest paired children.
  std::deque<double> recentUnmodifiedMs;
  static constexpr size_t kRecentPaces = 9;
};

} // namespace gevo

#endif // GEVO_SEARCH_SEARCH_RUN_H
