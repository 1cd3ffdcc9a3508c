//===- front_remeasure.h - The front re-measured, saying how far it is ----===//
//
// At the end of a search every front member and the unmodified program are
// re-measured interleaved with it (noise control). That can take minutes, so
// it reports each finished variant with an estimate of the time left: first
// from the members' search measurements, then from the measured pace. A
// second look re-measures the variants a member hid only on a reading that
// its re-measurement did not confirm.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_FRONT_REMEASURE_H
#define GEVO_SEARCH_FRONT_REMEASURE_H

#include <vector>

#include "gevo/search/individual.h"
#include "gevo/search/nsga2.h"
#include "gevo/search/progress.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

/// How the front is re-measured, and what a child costs besides its
/// compiles and runs: what estimateRemeasureSeconds() needs.
struct RemeasurePlan {
  /// Interleaved pairs per child (at least one is run).
  int pairs = 1;
  /// Warm-up runs of each side before them (the workload's).
  int warmup = 0;
  /// Children per variant.
  int children = 1;
  /// Children run at once.
  int workers = 1;
  /// A child's own seconds besides compiling and running (starting it,
  /// placing the inputs), as the unmodified program's measurement took.
  double childSeconds = 0;
  /// The unmodified program's run in the latest paired children (0:
  /// unknown): each reading's run times are scaled by it over the unmodified
  /// side beside that reading, to the machine's load now.
  double unmodifiedMs = 0;
};

/// Seconds one re-measurement child of a variant measured `m` takes: both
/// sides compiled, the unmodified program run once before the variant (the
/// corruption check), `warmup` runs and `pairs` pairs of both, and the
/// variant run once more on the test split. Run times are the child's own
/// (`m.runMs`, `m.baselineMedianRunMs`), not the reference-scaled
/// `medianRunMs`: on a loaded machine both sides ran slower than the
/// reference, and will again.
double remeasureChildSeconds(const Measurement &m, const Measurement &baseline,
                             const RemeasurePlan &plan);

/// Seconds the re-measurement of `members` (and the unmodified program) will
/// take before any has finished: `plan.children` children per variant,
/// started in the order the workbench starts them (every member, then the
/// unmodified program, once per child), each on the first worker free. The
/// longest child bounds it from below, however many workers there are. The
/// unmodified program's own children run at the median of the members'
/// unmodified sides.
double estimateRemeasureSeconds(const std::vector<Individual> &members,
                                const Measurement &baseline,
                                const RemeasurePlan &plan);

/// Workbench::measureAgainstUnmodified over the members' edits, each in
/// `plan.children` children, with a progress line per finished child run
/// when `progress` is not null.
Workbench::AgainstUnmodified
remeasureFront(Workbench &bench, const std::vector<Individual> &members,
               const RemeasurePlan &plan, ProgressLine *progress);

/// At most `limit` of `sorted`, spread evenly along it, both ends kept
/// (all of it when it holds no more than `limit`).
std::vector<size_t> spreadAlong(const std::vector<size_t> &sorted,
                                size_t limit);

/// The second look: of `points` (variants on the search's figures;
/// `eligible` false for those that can never be front members or were
/// re-measured already), those some of `before` (the re-measured members'
/// figures in the search) dominates and none of `after` (the same members'
/// re-measured figures) does: hidden only by readings that did not hold.
/// Of them, those none of the others dominates, in objective order, at most
/// `limit` spread evenly along them (indices into `points`).
std::vector<size_t> exposedByRemeasure(const std::vector<Objectives> &points,
                                       const std::vector<bool> &eligible,
                                       const std::vector<Objectives> &before,
                                       const std::vector<Objectives> &after,
                                       size_t limit);

} // namespace gevo

#endif // GEVO_SEARCH_FRONT_REMEASURE_H
