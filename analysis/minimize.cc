//===- minimize.cc - A patch shrunk to the edits that matter --------------===//

#include "analysis/minimize.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/ddmin.h"

namespace gevo {

absl::StatusOr<MinimizeResult> minimizePatch(PatchEffect &effect,
                                             Minimizer minimizer) {
  size_t count = effect.edits().size();
  std::vector<size_t> all(count);
  for (size_t i = 0; i < count; ++i)
    all[i] = i;
  std::optional<Measurement> full = effect.measure(all);
  if (!full || !full->ok())
    return absl::InvalidArgumentError(
        absl::StrCat("the full patch does not evaluate ok",
                     full ? absl::StrCat(" (", toString(full->outcome), ": ",
                                         full->detail, ")")
                          : " (its edits do not apply in order)"));
  MinimizeResult result;
  result.full = *full;
  int before = effect.evaluations;
  SubsetOracle oracle = [&](const std::vector<size_t> &subset) {
    std::optional<Measurement> m = effect.measure(subset);
    return m && effect.keepsEffect(*m, result.full);
  };
  Reduction reduction;
  switch (minimizer) {
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
  result.tests = reduction.tests;
  result.evaluations = effect.evaluations - before;
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
      " minimised from %s: %d of %d edits kept (ddmin, %d subsets tested, "
      "%d evaluated)",
      originalName, result.kept.size(), edits.size(), result.tests,
      result.evaluations));
  for (size_t i : result.kept)
    patch.addEdit(edits[i]);
  return patch;
}

} // namespace gevo
