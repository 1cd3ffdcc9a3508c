//===- race.h - When a variant's timing can stop early --------------------===//
//
// Racing: a variant's validation error is known exactly after its first run,
// its run time only roughly. When the front measured so far already holds a
// member at least as accurate and faster by more than a single reading can
// be off, the variant cannot enter the front and its timed pairs are not
// worth making; after a few pairs, when even its fastest pair is slower than
// such a member, the rest are not either. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_RACE_H
#define GEVO_EVAL_RACE_H

#include <string>
#include <vector>

namespace gevo {

/// A fully measured front member: validation error and run-time ratio to
/// the unmodified program (the unmodified program itself is (error, 1)).
struct FrontPoint {
  double error = 0;
  double ratio = 1;
};

struct RacePlan {
  /// The front so far; empty: no racing (every variant fully measured).
  std::vector<FrontPoint> front;
  /// How far (relative) a first reading of the ratio (one timed pair) may
  /// be above the variant's true ratio: it is stopped only when its first
  /// reading is above (1 + margin) times a dominating member's ratio.
  double firstReadingMargin = 0.25;
  /// Ratios within this (relative) band count as equal.
  double band = 0.02;
  /// Timed pairs made before the pairs' readings can stop it.
  int minPairs = 3;
  /// Decide but do not stop: every run is made and the measurement says
  /// where racing would have stopped it (Measurement::wouldRace), so a
  /// benchmark can check that no variant it stops would have entered the
  /// front.
  bool dryRun = false;

  bool enabled() const { return !front.empty(); }
};

/// The smallest ratio of a front member at least as accurate as `error`;
/// infinity when none is (the variant would enter the front however slow).
double ratioToBeat(const std::vector<FrontPoint> &front, double error);

/// After the first reading `ratio` (one timed pair): whether the variant
/// cannot enter the front.
bool beatenAfterFirstRun(const RacePlan &plan, double error, double ratio);

/// After the timed pairs' `ratios`: whether the variant cannot enter the
/// front (at least minPairs pairs, and even the fastest is slower than a
/// dominating member beyond the band).
bool beatenAfterPairs(const RacePlan &plan, double error,
                      const std::vector<double> &ratios);

/// How much of a variant was measured, as Measurement::raced holds it:
/// "" (fully), "first_run" (one timed pair), or "pairs:N".
std::string racedAfterPairs(int pairs);
inline constexpr char kRacedAfterFirstRun[] = "first_run";

/// `points` reduced to its non-dominated members (lower error and lower
/// ratio are better), sorted by error.
std::vector<FrontPoint> nonDominated(std::vector<FrontPoint> points);

} // namespace gevo

#endif // GEVO_EVAL_RACE_H
