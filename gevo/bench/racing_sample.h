//===- racing_sample.h - Racing's stopped variants measured fully --------===//
//
// The check issue #37 asks of every racing path: a sample of the variants a
// racing search stopped as dominated, measured fully (interleaved pairs with
// the unmodified program) beside the search's front measured again in the
// same batch. The sample is the stopped variants the search kept in its
// archive whose reading came nearest to its front, the likeliest false
// stops; the front is every variant of the archive measured fully near its
// non-dominated set (a member whose search-time ratio read low must not hide
// the one a stopped variant tied with).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_RACING_SAMPLE_H
#define GEVO_BENCH_RACING_SAMPLE_H

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gevo/eval/measurement.h"
#include "gevo/eval/race.h"
#include "gevo/workbench/workbench_options.h"

namespace llvm::json {
class Object;
} // namespace llvm::json

namespace gevo {

/// Where a stopped variant, measured fully, stands against the fastest
/// member at least as accurate: dominated by it; faster, but a twin (a
/// member has its error and static cost: the same computation, read at
/// another moment); faster, but slower than the hypervolume's reference
/// point (twice the unmodified program's time: the run limit the issue asks
/// for stops such variants, which add nothing to the front's hypervolume
/// whatever their error); faster inside the noise band; faster beyond it
/// (a false stop: it would have entered the front).
enum class StopVerdict {
  Dominated,
  Twin,
  BeyondReference,
  WithinBand,
  FalseStop
};
StopVerdict judgeStop(double ratio, double toBeat, bool twin);
const char *toString(StopVerdict verdict);

/// A variant measured fully, as a verdict reads it.
struct FullReading {
  double error = 0;
  double staticCost = 0;
  double ratio = 0;
};
FullReading readingOf(const Measurement &m);
/// Whether two readings are the same computation by the figures: the same
/// error and static cost.
bool sameComputation(const FullReading &a, const FullReading &b);
bool sameComputation(const Measurement &a, const Measurement &b);

/// The verdict on a stopped variant measured fully against `members`
/// measured fully (the unmodified program, of error `baselineError` and
/// ratio 1, is one too): judgeStop against the fastest member at least as
/// accurate (its ratio written to `toBeat` when not null), a twin when a
/// member is the same computation.
StopVerdict judgeAgainst(const FullReading &stopped,
                         const std::vector<FullReading> &members,
                         double baselineError, double *toBeat = nullptr);

/// Of `points` (error, search-time ratio), the indices of those near the
/// front, sorted by error: none at least as accurate is faster than
/// 1 / (1 + tolerance) of their ratio. The default tolerance: ratios a
/// member derived head to head from a 1-2 ms member's read up to 30-40% low
/// in §11, which hid from the check the member a false stop had tied with.
/// At most `limit`, the nearest (the non-dominated first).
std::vector<size_t> nearFront(const std::vector<FrontPoint> &points,
                              double tolerance = 0.4, size_t limit = 40);

/// How many stopped variants got each verdict but Dominated.
struct StopCounts {
  int falseStops = 0;
  int withinBand = 0;
  int twins = 0;
  int beyondReference = 0;
  void add(StopVerdict verdict);
  /// Into a bench-results row, each key after `prefix` ("" for the dry run's
  /// check, "sample_" for a racing run's sample): false_stops, within_band,
  /// twins, beyond_reference.
  void put(llvm::json::Object &row, const std::string &prefix) const;
};

/// Flagged false stops measured again in fresh processes (confirmInProcesses):
/// those faster beyond the band than the front in every process that
/// measured them, each process's reading judged against the members that
/// process measured (the goal counts these), and those whose median over the
/// processes is faster beyond the band than the members' medians. One
/// process's layout can move a short program's ratio by several percent
/// throughout (a 3-ms variant read x0.0219 to x0.0243 over three): a median
/// of three such readings 4% below a member's says nothing a process does not
/// say too.
struct Confirmed {
  int everyProcess = 0;
  int byMedian = 0;
};

struct StoppedSample {
  /// Stopped variants measured fully.
  int measured = 0;
  StopCounts counts;
  /// Of counts.falseStops, those confirmed in fresh processes
  /// (confirmInProcesses): a short program's ratio depends on the process
  /// it is timed in by more than a pair's noise.
  Confirmed confirmed;
};

struct SampleSetup {
  /// A finished racing search's run directory (its checkpoint's archive).
  std::string outDir;
  std::string workloadPath;
  WorkbenchOptions workbench;
  /// The search's error bound over the unmodified program's error.
  double maxErrorIncrease = 0.25;
  /// Stopped variants to measure, and the pairs each.
  int size = 30;
  int pairs = 10;
};

StoppedSample checkStoppedSample(const SampleSetup &setup);

/// The run's variants of `keys` measured fully in this process beside its
/// archive's front (every other non-dominated variant measured fully inside
/// the error bound), their figures written to `outPath` as JSON: one fresh
/// process's reading for confirmInProcesses.
absl::Status measureKeysToFile(const SampleSetup &setup,
                               const std::set<std::string> &keys,
                               const std::string &outPath);

/// How many of `keys` (a dry run's false stops, which its own full timing
/// flagged, or a sample's, flagged by checkStoppedSample's measurement) are
/// false stops (Confirmed) by their full measurements in `processes` fresh
/// processes of this binary (each runs measureKeysToFile, by the flags
/// racing_main.cc gives it), beside the front members measured again there.
/// When no process measures them, all count.
constexpr int kConfirmProcesses = 3;
Confirmed confirmInProcesses(const SampleSetup &setup,
                             const std::set<std::string> &keys,
                             int processes = kConfirmProcesses);

/// One flagged variant or front member as the fresh processes read it: its
/// ratio in each process that measured it (by process index).
struct ProcessReadings {
  bool member = false;
  FullReading figures; // error, static cost; ratio unused
  std::map<int, double> ratios;
};
/// What the readings of `readings` (keyed by variant) confirm, printing a
/// line per flagged variant to stderr.
Confirmed judgeProcesses(const std::map<std::string, ProcessReadings> &readings,
                         double baselineError);

/// What a dry run's cache says about racing's decisions.
struct DryRunCheck {
  int wouldStop = 0; // variants racing would have stopped as dominated
  /// Of them, measured fully, against every other variant measured fully.
  StopCounts counts;
  /// The false stops' keys, and how many of them confirmInProcesses
  /// confirmed.
  std::set<std::string> falseStopKeys;
  Confirmed confirmed;
};

/// The dry run's check from the cache.jsonl of its run directory `outDir`
/// (not yet confirmed): each variant it would have stopped, inside the
/// error bound (the unmodified program's error plus `maxErrorIncrease`),
/// against every other variant it measured fully.
DryRunCheck checkDryRunCache(const std::string &outDir,
                             const Measurement &baseline,
                             double maxErrorIncrease);

/// Variants of the run directory's cache whose timing racing cut short: as
/// dominated, and as entering.
std::pair<int, int> racedCounts(const std::string &outDir);

/// The figures of a racing run's sample, and of a dry run's check, as
/// bench-results/racing*.json rows hold them (md_racing_section.cc reads
/// them).
void putSampleFigures(llvm::json::Object &row, const StoppedSample &sample);
void putDryRunFigures(llvm::json::Object &row, const DryRunCheck &check);

} // namespace gevo

#endif // GEVO_BENCH_RACING_SAMPLE_H
