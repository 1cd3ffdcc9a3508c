//===- ablation.h - Each edit alone, each edit removed, and pairs ---------===//
//
// For a (minimal) patch: what every edit does alone to the unmodified
// program, what the patch loses without it, and, for small patches, every
// pair: pairs that help only together (neither alone improves anything),
// edits that need another to apply at all, and whether two edits' effects
// add up (independent) or not (they interact).
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_ABLATION_H
#define ANALYSIS_ABLATION_H

#include <optional>
#include <string>
#include <vector>

#include "analysis/patch_effect.h"

namespace gevo {

struct PairEffect {
  size_t first = 0, second = 0;
  std::optional<Measurement> together;
  /// "helps only together", "interacts", "independent", or "needs <k>".
  std::string relation;
};

struct Ablation {
  Measurement baseline; // the unmodified program, measured the same way
  Measurement full;
  std::vector<std::optional<Measurement>> alone;   // per edit
  std::vector<std::optional<Measurement>> without; // per edit
  std::vector<PairEffect> pairs;
  /// Per edit: "independent", "interacts with 2", "needs 1", ...
  std::vector<std::string> relations;
};

/// Ablates every edit of `effect`; pairs only when there are at most
/// `maxPairEdits` edits.
Ablation ablate(PatchEffect &effect, size_t maxPairEdits = 6);

/// Whether `m` improves on `base` on some objective beyond the tolerances
/// and is worse on none.
bool improves(const PatchEffect &effect, const Measurement &m,
              const Measurement &base);

} // namespace gevo

#endif // ANALYSIS_ABLATION_H
