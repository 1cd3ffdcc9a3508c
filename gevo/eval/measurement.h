//===- measurement.h - What evaluating one variant found out --------------===//
//
// The outcome class of a variant (ok, or which way it failed) and everything
// the harness measured: validation (and, for reported variants, test) scores,
// run times, compile times, and the deterministic costs. Objectives are read
// from a Measurement by name, so a cached one serves any objective list.
// No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_MEASUREMENT_H
#define GEVO_EVAL_MEASUREMENT_H

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/harness.h"

namespace gevo {

enum class Outcome {
  Ok,
  InvalidIr,          // an edit did not apply or the module does not verify
  LoweringFailed,     // the pass pipeline or the JIT rejected it
  Crash,              // the child died of a signal or exited abnormally
  Timeout,            // it ran past the time limit
  OutOfMemory,        // an allocation failed under the memory limit
  NonFinite,          // the logits hold NaN or infinity
  WrongShape,         // the entry's results do not have the workload's shape
  ReadsUninitialized, // its logits depend on memory it never wrote
  OutOfBounds, // it touched memory next to an input (a guard page), or it
               // changed the results of the unmodified program run beside it
};

inline constexpr Outcome kAllOutcomes[] = {
    Outcome::Ok,         Outcome::InvalidIr,  Outcome::LoweringFailed,
    Outcome::Crash,      Outcome::Timeout,    Outcome::OutOfMemory,
    Outcome::NonFinite,  Outcome::WrongShape, Outcome::ReadsUninitialized,
    Outcome::OutOfBounds};

/// "ok", "invalid_ir", "lowering_failed", "crash", "timeout",
/// "out_of_memory", "non_finite", "wrong_shape", "reads_uninitialized".
const char *toString(Outcome outcome);
std::optional<Outcome> parseOutcome(const std::string &name);

struct Measurement {
  Outcome outcome = Outcome::Ok;
  /// Why it failed, in one line (empty when ok).
  std::string detail;
  ClassificationScore validation;
  ClassificationScore test; // total == 0 when not scored
  std::vector<double> runMs;
  double medianRunMs = 0;
  double parseMs = 0, lowerMs = 0, codegenMs = 0;
  /// Wall-clock ms of the child that measured it, from its fork until the
  /// parent saw it end (a busy parent notices late); 0 where no child ran
  /// (a cache hit, IR that does not verify).
  double childMs = 0;
  /// The CPU ms that child used (user and system, its exit included), and
  /// of it the system's (page faults, fork's copies, teardown); 0 where no
  /// child ran.
  double childCpuMs = 0, childSystemMs = 0;
  /// Set when the default (vector) pipeline could not lower the variant and
  /// the plain one did: why, in one line. Its run time is then plain code's.
  std::string loweringFallback;
  /// Estimated scalar operations executed (static_cost.h); deterministic.
  double staticCost = 0;
  /// LLVM-dialect ops after lowering (code size); deterministic.
  double loweredOps = 0;
  /// Runs interleaved with the unmodified program's in one child (a noise
  /// control re-measurement, or a search with paired runs): the median of
  /// the per-pair run-time ratios, and the unmodified program's median.
  double runtimeRatio = 0; // 0 when not re-measured
  double baselineMedianRunMs = 0;
  /// The unmodified program's timed runs in those pairs: one for all of
  /// them where an eviction of the caches stood in for the rest
  /// (RacePlan::evictShort), else one per pair.
  int baselineRuns = 0;
  /// With two pairs or more: the per-pair ratios' median absolute deviation
  /// over their median (racing estimates a pair's noise from it); 0: none.
  /// Not kept in the cache.
  double pairSpread = 0;
  /// Racing (race.h): "" when measured fully; "first_run" when it stopped,
  /// dominated, after its first run (its run time that run's, before any
  /// pair), "failed_first_run" when its first run's logits were not finite
  /// (a failure, not timed), "pairs:N" when it stopped, dominated, after N
  /// timed pairs, "enters:N" when nothing measured could dominate it after N
  /// pairs (its ratio is theirs); "member:N" and "enters_member:N" after N
  /// pairs with a front member (race.h). Its error is exact either way.
  std::string raced;
  /// A dry run of racing (RacePlan::dryRun): where it would have stopped
  /// this fully measured variant ("" nowhere).
  std::string wouldRace;

  bool ok() const { return outcome == Outcome::Ok; }
  double error() const { return 1.0 - validation.accuracy(); }
};

/// The measurement of a variant that failed before it was scored: `outcome`
/// and why.
inline Measurement failedMeasurement(Outcome outcome, std::string detail) {
  Measurement m;
  m.outcome = outcome;
  m.detail = std::move(detail);
  return m;
}

/// The objective names a search may use: "runtime" (median run ms), "error"
/// (1 - validation accuracy), "static_cost", "lowered_ops".
bool isKnownObjective(const std::string &name);
/// Whether an objective gives the same value on every evaluation.
bool isDeterministicObjective(const std::string &name);
/// Checks a list: known names, no repeats, at least two.
absl::Status checkObjectives(const std::vector<std::string> &names);
/// The value of `name` for an ok measurement (all objectives are minimised).
double objectiveValue(const Measurement &measurement, const std::string &name);
std::vector<double> objectiveValues(const Measurement &measurement,
                                    const std::vector<std::string> &names);

/// One-line JSON and back (the fitness cache stores these).
std::string toJsonLine(const Measurement &measurement);
absl::StatusOr<Measurement> parseMeasurementJson(const std::string &text);

} // namespace gevo

#endif // GEVO_EVAL_MEASUREMENT_H
