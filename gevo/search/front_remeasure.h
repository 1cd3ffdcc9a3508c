//===- front_remeasure.h - The front re-measured, saying how far it is ----===//
//
// At the end of a search every front member and the unmodified program are
// re-measured interleaved with it (noise control). That can take minutes, so
// it reports each finished variant with an estimate of the time left: first
// from the members' search measurements, then from the measured pace.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_FRONT_REMEASURE_H
#define GEVO_SEARCH_FRONT_REMEASURE_H

#include <vector>

#include "gevo/search/individual.h"
#include "gevo/search/progress.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

/// Seconds the re-measurement of `members` (and the unmodified program) will
/// take before any has finished: each variant's compile time and `pairs + 1`
/// runs of it and of the unmodified program, spread over `workers`.
double estimateRemeasureSeconds(const std::vector<Individual> &members,
                                const Measurement &baseline, int pairs,
                                int workers);

/// Workbench::measureAgainstUnmodified over the members' edits, each in
/// `children` children, with a progress line per finished child run when
/// `progress` is not null.
Workbench::AgainstUnmodified
remeasureFront(Workbench &bench, const std::vector<Individual> &members,
               int pairs, int children, ProgressLine *progress);

} // namespace gevo

#endif // GEVO_SEARCH_FRONT_REMEASURE_H
