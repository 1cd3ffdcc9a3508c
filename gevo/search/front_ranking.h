//===- front_ranking.h - The front ranked on re-measured figures ----------===//
//
// The search's front is chosen on search-time figures; its re-measurement
// (interleaved with the unmodified program) can reverse an order. Here the
// re-measured figures rank it again, and the summary's useful region (the
// members a user looks at first) is defined. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_FRONT_RANKING_H
#define GEVO_SEARCH_FRONT_RANKING_H

#include <string>
#include <vector>

#include "gevo/search/search_result.h"

namespace gevo {

/// The useful region's error margin: a member at most this much more wrong
/// on validation than the unmodified program (5 points, as search_vs_random
/// bounds its hypervolume's region).
inline constexpr double kUsefulErrorMargin = 0.05;

/// Where members the re-measurement dominates are written.
inline constexpr const char *kDominatedAfterRemeasureDir =
    "front/dominated-after-remeasure";

/// A re-measured member's objectives, all minimised: run time as its ratio
/// to the unmodified program timed beside it, error on validation, and the
/// deterministic costs as measured.
std::vector<double> remeasuredObjectives(const FrontMember &member,
                                         const std::vector<std::string> &names);

/// Ranks `result.front` again on the re-measured figures: a member another
/// re-measured member dominates moves to `result.dominatedAfterRemeasure`
/// (with `dominatedBy` set); the rest are sorted by their re-measured
/// objectives, members whose re-measurement failed last. Sets every
/// member's `patchPath` (front/NN.gevo, or NN.gevo under
/// kDominatedAfterRemeasureDir).
void rankRemeasuredFront(SearchResult &result);

/// The largest validation error in the useful region: the unmodified
/// program's (re-measured) plus kUsefulErrorMargin.
double usefulErrorBound(const SearchResult &result);

/// Whether `member` is printed with the useful region: its re-measured
/// validation error is within usefulErrorBound, or its re-measurement failed
/// (which a user must see).
bool inUsefulRegion(const SearchResult &result, const FrontMember &member);

/// Sorted 1-based indices as zero-padded ranges: {1,2,3,5} -> "01-03,05".
std::string indexRanges(const std::vector<size_t> &indices);

} // namespace gevo

#endif // GEVO_SEARCH_FRONT_RANKING_H
