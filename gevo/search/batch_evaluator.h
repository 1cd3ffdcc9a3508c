//===- batch_evaluator.h - A generation's individuals, measured -----------===//
//
// The search's side of measuring: hands a generation's edit lists to the
// workbench (which builds, de-duplicates, looks up the cache and runs the
// rest in parallel), gives each individual the edits that applied, its key
// and its measurement, and keeps the counts the checkpoint and progress line
// show. With paired runs each variant is timed against the unmodified
// program in its own child, and its run time is put on the scale of the
// unmodified program's start-of-run measurement; a child whose unmodified
// side was disturbed is run again.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_BATCH_EVALUATOR_H
#define GEVO_SEARCH_BATCH_EVALUATOR_H

#include <deque>
#include <functional>
#include <map>
#include <vector>

#include "gevo/search/individual.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

/// A measurement from interleaved pairs with its median run time replaced by
/// its run-time ratio times `referenceMs`: the run time it would have had
/// beside a reference measured at that moment. Unchanged when it failed or
/// has no ratio (a cached plain measurement, the unmodified program's).
Measurement onReferenceScale(Measurement m, double referenceMs);

/// How much slower than the start-of-run reference a paired child's
/// unmodified side may read before the child counts as disturbed: a
/// machine-wide slowdown slows both sides alike, but now and then only the
/// unmodified side runs slow (an interrupt, a page reclaim at the wrong
/// moment), which flatters the variant's ratio by the same factor.
constexpr double kDisturbedFactor = 1.5;

/// Whether `m`, a paired measurement, had its unmodified side read more than
/// `factor` times `referenceMs`.
bool disturbedPair(const Measurement &m, double referenceMs,
                   double factor = kDisturbedFactor);

class BatchEvaluator {
public:
  /// `pairedRuns` > 0: each variant runs that many pairs interleaved with
  /// the unmodified program (SearchConfig::pairedRuns); a child whose
  /// unmodified side reads over `disturbedFactor` times the reference runs
  /// again.
  explicit BatchEvaluator(Workbench &bench, int pairedRuns = 0,
                          double disturbedFactor = kDisturbedFactor)
      : bench(bench), pairedRuns(pairedRuns), disturbedFactor(disturbedFactor) {
  }

  /// Racing (race.h), with paired runs: a variant the front of what this
  /// evaluator has measured (the unmodified program included) dominates is
  /// not timed further, and one it cannot dominate stops once its pairs
  /// show that. `margin` is RacePlan::firstReadingMargin; <= 0 turns racing
  /// off. A variant whose error exceeds the unmodified program's by more
  /// than `maxErrorIncrease` (> 0) stops after its first run. With
  /// `readEntriesTwice` (not in a dry run), a variant whose reading would enter
  /// the front, or that was kept within the process noise (its timed runs at
  /// least its compile), is read again in a child of its own and enters, or
  /// stops, by that second reading (SearchConfig::raceReread). With
  /// `stopUndecided`, timing stops once no pair left could decide a variant
  /// (RacePlan::stopUndecided). With `evictShort`, a short variant is
  /// timed against one run of a long unmodified program (RacePlan::
  /// evictShort). Call it once the unmodified program is measured: the
  /// front starts with it.
  void setRacing(double margin, bool dryRun = false,
                 double maxErrorIncrease = 0, bool readEntriesTwice = false,
                 bool stopUndecided = false, bool evictShort = false);

  /// Measures every individual (its edits replaced by the ones that
  /// applied). `onMeasured` is called after each, for progress output.
  void evaluate(std::vector<Individual> &batch,
                const std::function<void()> &onMeasured = {});

  /// One individual measured without waiting (a steady-state search keeps
  /// a run per worker going): as evaluate() measures it, paired run times
  /// on the reference scale, a disturbed paired child run once more.
  /// `done` gets it from submit() itself (a cache hit) or from a later
  /// service().
  void submit(Individual individual, std::function<void(Individual)> done);
  /// Delivers what arrived meanwhile, waiting at most `maxWaitMs` for it.
  void service(int maxWaitMs) { bench.service(maxWaitMs); }
  /// Runs going now, and how many to keep going (Workbench::slots()).
  int running() const { return bench.running(); }
  int slots() const { return bench.slots(); }

  EvaluationCounts counts;

private:
  /// submit()'s: `variant` (a run's or the cache's) into `individual`, with
  /// the counts and racing's front updated.
  void settle(Individual &individual, MeasuredVariant variant);

  /// Runs each disturbed paired child of `measured` once more in a child of
  /// its own and keeps that reading when it failed or its unmodified side
  /// ran steadier, so that a variant does not enter the archive on a slow
  /// unmodified side.
  /// `firstReadings`: `measured` are a batch's first readings, whose outcomes
  /// are among counts.outcomes and follow what is kept, and what is kept is
  /// cached; second readings are counted and cached by the caller, once.
  void remeasureDisturbed(std::vector<MeasuredVariant> &measured,
                          BatchRequest request, bool firstReadings = true);

  /// submit()'s, once `variant` arrived: a disturbed paired child run once
  /// more (the steadier reading, or a failure, is kept, and cached when
  /// `cacheKept`: a second reading is cached by its caller), then `then`
  /// with what is kept.
  void steady(MeasuredVariant variant, const BatchRequest &request,
              std::function<void(MeasuredVariant)> then, bool cacheKept = true);

  /// Whether `variant`'s reading, which ran, would join racing's front as
  /// it stands or was kept within the process noise, with re-reading on:
  /// it is then read again (readAgainOnRace).
  bool readAgain(const MeasuredVariant &variant) const;
  /// The request a second reading runs with: past the cache, in a child of
  /// its own, raced against the front as it is now.
  BatchRequest againRequest() const;
  /// submit()'s, once `first` is steady: read again when readAgain() picks
  /// it (the second reading, steadied, is cached), then `finish`.
  void readEntryAgain(MeasuredVariant first,
                      std::function<void(MeasuredVariant)> finish);
  /// evaluate()'s: the measured variants readAgain() picks, read again
  /// (equal variants share the second reading) and cached.
  void rereadEntries(std::vector<MeasuredVariant> &measured);

  /// The request's race plan from the front so far (none without pairs or
  /// racing).
  RacePlan racePlan() const;
  /// Adds the fully measured ok members of `batch` to the front.
  void updateFront(const std::vector<Individual> &batch);
  /// Has the workbench hold the front's members compiled (racing's
  /// head-to-head pairs) and forgets the edits of those that left it.
  void holdMembers();

  Workbench &bench;
  int pairedRuns;
  double disturbedFactor;
  double raceMargin = 0;
  bool raceDryRun = false;
  bool raceReread = false;
  bool raceStopUndecided = false;
  bool raceEvictShort = false;
  double raceMaxErrorIncrease = 0;
  /// What racing compares against; empty when not racing.
  std::vector<FrontPoint> front;
  /// The edits of the front's members (FrontPoint::key).
  std::map<std::string, std::vector<Edit>> memberEdits;
  /// The members the workbench was last asked to hold, in key order.
  std::vector<std::string> heldKeys;
  /// The pair spreads (Measurement::pairSpread) of this session's variants:
  /// racing's estimate of a pair's noise once there are kSpreadSamples.
  std::vector<double> spreads;
  static constexpr size_t kSpreadSamples = 8;
  /// The unmodified program's median in the latest paired children: what
  /// racing reads a first run against (RacePlan::referenceMs).
  std::deque<double> recentBaselineMs;
  static constexpr size_t kRecentBaselines = 9;
};

} // namespace gevo

#endif // GEVO_SEARCH_BATCH_EVALUATOR_H
