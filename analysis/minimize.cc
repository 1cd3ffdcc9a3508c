//===- minimize.cc - A patch shrunk to the edits that matter --------------===//

#include "analysis/minimize.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/ddmin.h"

namespace gevo {

const char *minimizerName(Minimizer minimizer) {
  switch (minimizer) {
  case Minimizer::Split:
    return "split";
  case Minimizer::Ddmin:
    return "ddmin";
  case Minimizer::Greedy:
    return "greedy";
  case Minimizer::Exhaustive:
    return "exhaustive";
  }
  return "?";
}

std::optional<Minimizer> parseMinimizer(const std::string &name) {
  for (Minimizer m : {Minimizer::Split, Minimizer::Ddmin, Minimizer::Greedy,
                      Minimizer::Exhaustive})
    if (name == minimizerName(m))
      return m;
  return std::nullopt;
}

absl::StatusOr<MinimizeResult> minimizePatch(PatchEffect &effect,
                                             Minimizer minimizer) {
  size_t count = effect.edits().size();
  std::optional<Measurement> full = effect.measure(allItems(count));
  if (!full || !full->ok())
    return absl::InvalidArgumentError(
        absl::StrCat("the full patch does not evaluate ok",
                     full ? absl::StrCat(" (", toString(full->outcome), ": ",
                                         full->detail, ")")
                          : " (its edits do not apply in order: replay "
                            "refuses one, and //replay:apply names it)"));
  MinimizeResult result;
  result.minimizer = minimizer;
  result.full = *full;
  int before = effect.evaluations;
  int statically = effect.decidedStatically;
  SubsetOracle oracle = [&](const std::vector<size_t> &subset) {
    if (effect.losesEffectStatically(subset, result.full))
      return false; // nothing to run
    std::optional<Measurement> m = effect.measure(subset);
    return m && effect.keepsEffect(*m, result.full);
  };
  Reduction reduction;
  switch (minimizer) {
  case Minimizer::Split:
    if (effect.hasObjective("static_cost"))
      // The static cost is known before running: what it needs is found
      // without running anything.
      reduction = binarySplitting(
          count, oracle, [&](const std::vector<size_t> &subset) {
            return !effect.losesEffectStatically(subset, result.full);
          });
    else
      reduction = binarySplitting(count, oracle);
    break;
  case Minimizer::Ddmin:
    reduction = ddmin(count, oracle);
    break;
  case Minimizer::Greedy:
    reduction = greedyRemoval(count, oracle);
    break;
  case Minimizer::Exhaustive:
    reduction = exhaustiveMinimal(count, oracle);
    break;
  }
  result.kept = reduction.kept;
  result.keptEdits = effect.readdressed(result.kept);
  result.tests = reduction.tests;
  result.evaluations = effect.evaluations - before;
  result.decidedStatically = effect.decidedStatically - statically;
  std::optional<Measurement> minimal = effect.measure(result.kept);
  if (minimal)
    result.minimal = *minimal;
  return result;
}

Patch minimizedPatch(const Patch &original, const std::string &originalName,
                     const MinimizeResult &result,
                     const std::vector<std::string> &objectives) {
  Patch patch;
  patch.model = original.model;
  patch.source = original.source;
  std::vector<Edit> edits = original.edits();
  for (const std::string &name : objectives) {
    double value = name == "runtime" ? result.minimal.runtimeRatio
                                     : objectiveValue(result.minimal, name);
    patch.metadata.push_back({name == "runtime" ? "runtime_ratio" : name,
                              absl::StrFormat("%.6g", value)});
  }
  patch.metadata.push_back(
      {"validation_accuracy",
       absl::StrFormat("%.4f", result.minimal.validation.accuracy())});
  patch.addComment(absl::StrFormat(
      " minimised from %s: %d of %d edits kept (%s, %d subsets tested, "
      "%d evaluated, %d decided without running)",
      originalName, result.kept.size(), edits.size(),
      minimizerName(result.minimizer), result.tests, result.evaluations,
      result.decidedStatically));
  for (const Edit &edit : result.keptEdits)
    patch.addEdit(edit);
  return patch;
}

} // namespace gevo
