//===- fair_comparison.h - Comparing two searches' fronts fairly -*- C++
//-*-===//
//
// What search_vs_random compares: fronts re-measured in one session against
// the unmodified program (run-time ratios), their hypervolume in the region
// a user could want (reference point near the unmodified program), and how
// many evaluations each run needed before a variant first dominated the
// unmodified program beyond noise.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_FAIR_COMPARISON_H
#define GEVO_BENCH_FAIR_COMPARISON_H

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "gevo/ir/edit.h"

namespace gevo {

/// A re-measured variant: run-time ratio to the unmodified program and
/// validation error.
struct RatioPoint {
  double ratio = 0;
  double error = 0;
};

/// The region the hypervolume counts: a variant no more than `ratio` times
/// slower and no more than `error` wrong (the reference point).
struct Region {
  double ratio = 1.1;
  double error = 0;
};

/// The hypervolume `points` dominate inside `region` (points outside it
/// count for nothing).
double regionHypervolume(const std::vector<RatioPoint> &points,
                         const Region &region);

/// How many of `points` lie strictly inside `region`.
int pointsInRegion(const std::vector<RatioPoint> &points, const Region &region);

/// How far apart two noisy measurements must be to count as different: run
/// time by a ratio of `runtime` either way, validation error by more than
/// `error`.
struct NoiseBand {
  double runtime = 0.1;
  double error = 0;
};

/// One standard error of a validation error rate `error` estimated on `rows`
/// rows (binomial): the error's sampling noise, which a variant must beat
/// before its lower error means anything (e.g. 0.013 for 25 wrong of 360).
double errorStandardError(double error, int64_t rows);

/// Whether a search-time measurement dominates the unmodified program beyond
/// noise: at least `band.runtime` faster at no more error, or more than
/// `band.error` less error at no more than `band.runtime` slower.
bool beatsUnmodified(double runtimeMs, double error, double unmodifiedMs,
                     double unmodifiedError, const NoiseBand &band);

/// A variant that, as measured during a search, beatsUnmodified: the
/// 1-based count of evaluations (history rows not answered from the cache)
/// up to and including the one that ran it, and its fingerprint.
struct TargetCandidate {
  int64_t evaluation = 0;
  std::string key;
};

/// The history rows (the run directory's history.csv) that beatsUnmodified,
/// in the order they ran; at most `limit`. A row with a runtime_ratio (a
/// search with paired runs) is judged by that ratio, others by median_run_ms
/// against `unmodifiedMs`.
std::vector<TargetCandidate>
targetCandidates(const std::string &runDirectory, double unmodifiedMs,
                 double unmodifiedError, const NoiseBand &band, size_t limit);

/// The run's measured variants' edits by key (from its checkpoint's
/// archive: every distinct variant measured ok); empty without one.
std::map<std::string, std::vector<Edit>>
archiveEdits(const std::string &runDirectory);

/// targetCandidates()' first evaluation; 0 when none beat it.
int64_t evaluationsToTarget(const std::string &runDirectory,
                            double unmodifiedMs, double unmodifiedError,
                            const NoiseBand &band);

/// A search-time measurement is one child's: a lucky one can beat the
/// unmodified program by noise alone. `confirm` re-measures candidates
/// (their keys) and says which still beat it.
using ConfirmTargets =
    std::function<std::vector<bool>(const std::vector<TargetCandidate> &)>;

struct ConfirmedTarget {
  /// The first confirmed candidate's evaluation; 0: none was.
  int64_t evaluation = 0;
  /// Candidates re-measured on the way.
  int64_t checked = 0;
};

/// Asks `confirm` about `candidates` in order, `batch` at a time, until one
/// is confirmed.
ConfirmedTarget firstConfirmed(const std::vector<TargetCandidate> &candidates,
                               size_t batch, const ConfirmTargets &confirm);

/// How NSGA-II's pre-screen did over a run (its surrogate.csv): the median
/// over generations of each objective's rank correlation between predicted
/// and measured values, and the share of screened children and of
/// (unscreened) immigrants that failed or left the bounds, pooled.
struct ScreenSummary {
  int generations = 0;
  std::vector<std::string> objectives;
  std::vector<double> medianSpearman;
  double screenedFailure = 0;
  double immigrantFailure = 0;
};
/// Empty (0 generations) when the run had no pre-screen.
ScreenSummary summarizeScreen(const std::string &runDirectory);

} // namespace gevo

#endif // GEVO_BENCH_FAIR_COMPARISON_H
