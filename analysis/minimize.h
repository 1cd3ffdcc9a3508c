//===- minimize.h - A patch shrunk to the edits that matter ---------------===//
//
// Shrinks a patch's edits with PatchEffect as the oracle: the result keeps
// every objective within tolerance of the full patch and no single edit can
// be removed from it (1-minimal). Binary splitting by default (fewest
// evaluations on search results); ddmin, GEVO's greedy pass and exhaustive
// search use the same oracle, for comparison.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_MINIMIZE_H
#define ANALYSIS_MINIMIZE_H

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "analysis/patch_effect.h"
#include "replay/patch.h"

namespace gevo {

enum class Minimizer { Split, Ddmin, Greedy, Exhaustive };

/// "split", "ddmin", "greedy", "exhaustive".
const char *minimizerName(Minimizer minimizer);
/// The minimiser a name means, or nullopt.
std::optional<Minimizer> parseMinimizer(const std::string &name);

struct MinimizeResult {
  Minimizer minimizer = Minimizer::Split;
  std::vector<size_t> kept; // indices into the patch's edits
  /// The kept edits, with addresses as they resolve without the others.
  std::vector<Edit> keptEdits;
  Measurement full;          // the whole patch, as measured here
  Measurement minimal;       // the kept edits
  int tests = 0;             // distinct subsets asked about
  int evaluations = 0;       // of those, run in a child (not cached)
  int decidedStatically = 0; // of those, answered before running (no child)
};

/// Minimises `effect`'s edits. Fails when the full patch itself does not
/// evaluate ok.
absl::StatusOr<MinimizeResult> minimizePatch(PatchEffect &effect,
                                             Minimizer minimizer);

/// The kept edits as a patch for the same model, with a header saying what
/// it came from and how it measured.
Patch minimizedPatch(const Patch &original, const std::string &originalName,
                     const MinimizeResult &result,
                     const std::vector<std::string> &objectives);

} // namespace gevo

#endif // ANALYSIS_MINIMIZE_H
