//===- ddmin.h - Delta debugging over a list of items (Zeller's ddmin) ----===//
//
// Finds a 1-minimal subset of items that is still "interesting" (for a patch:
// keeps its effect), asking an oracle about subsets. The oracle is called at
// most once per distinct subset; the result says how many calls it took.
// Beside it, for comparison, GEVO's single greedy pass (try removing each
// item once, in order) and exhaustive search by increasing size. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_DDMIN_H
#define ANALYSIS_DDMIN_H

#include <cstddef>
#include <functional>
#include <vector>

namespace gevo {

/// Whether a subset (indices into the full list, ascending) is interesting.
using SubsetOracle = std::function<bool(const std::vector<size_t> &)>;

/// 0, 1, ..., count - 1: every item.
std::vector<size_t> allItems(size_t count);

struct Reduction {
  /// Ascending indices of the items kept.
  std::vector<size_t> kept;
  /// Distinct subsets the oracle was asked about.
  int tests = 0;
  /// Of those, answered by a free necessary condition alone (the variant
  /// needs no run).
  int freeTests = 0;
};

/// Zeller and Hildebrandt's ddmin (2002): split into n chunks, keep a chunk
/// or a complement that is interesting, else double n; ends with a subset
/// from which no single item can be removed (1-minimal). At the finest
/// granularity only the complements are asked about (single items alone
/// rarely keep an effect that coarser chunks did not). Assumes the full
/// set is interesting (not asked); the empty set is never returned unless
/// it is interesting.
Reduction ddmin(size_t count, const SubsetOracle &interesting);

/// Group testing (Hwang's generalised binary splitting) with the share of
/// needed items estimated as it goes: tries to remove a group of the last
/// open items, sized for the estimated share; when that loses the effect,
/// halves the group down to one item that cannot be removed. Items are
/// settled from the back, so an edit that needs an earlier one goes first.
/// A last pass asks about the result without each kept item (free for the
/// ones decided last), so the result is 1-minimal even when the oracle is not
/// monotone.
Reduction binarySplitting(size_t count, const SubsetOracle &interesting);

/// The same, given `necessary`: a condition every interesting subset meets
/// that costs nothing to ask (for a patch: its edits apply, and its static
/// cost is no worse). First finds, asking only `necessary`, a 1-minimal set
/// for it; when that set is interesting it is the result, reached with one
/// costly question. Otherwise group testing finds the other items needed.
/// Questions `necessary` answers with no are not passed on.
Reduction binarySplitting(size_t count, const SubsetOracle &interesting,
                          const SubsetOracle &necessary);

/// GEVO's minimiser: one pass over the items, dropping each one whose
/// removal keeps the rest interesting. Not always 1-minimal.
Reduction greedyRemoval(size_t count, const SubsetOracle &interesting);

/// The smallest interesting subset, trying all subsets by increasing size
/// (2^count tests at worst).
Reduction exhaustiveMinimal(size_t count, const SubsetOracle &interesting);

} // namespace gevo

#endif // ANALYSIS_DDMIN_H
