//===- variation.cc - Edit lists made, changed and built into variants ----===//

#include "gevo/search/variation.h"

#include <algorithm>

#include "gevo/eval/static_cost.h"
#include "gevo/ir/apply_edit.h"

namespace gevo {

absl::Status
Variation::addEdit(mlir::ModuleOp variant, std::vector<Edit> &edits,
                   std::mt19937_64 &rng, const std::vector<double> &kindWeights,
                   mlir::OwningOpRef<mlir::ModuleOp> *applied) const {
  absl::StatusOr<Edit> edit;
  // Never an edit the list has already: replay refuses a patch with one
  // edit twice.
  if (kindWeights.empty()) {
    edit = proposeAnyEdit(variant, options, rng, 50, &edits, applied);
  } else {
    MutationOptions weighted = options;
    weighted.kindWeights = kindWeights;
    edit = proposeAnyEdit(variant, weighted, rng, 50, &edits, applied);
  }
  if (!edit.ok())
    return edit.status();
  edits.push_back(*edit);
  return absl::OkStatus();
}

std::vector<Edit> Variation::randomList(int length,
                                        std::mt19937_64 &rng) const {
  std::vector<Edit> edits;
  mlir::OwningOpRef<mlir::ModuleOp> module(currentBaseline().clone());
  for (int i = 0; i < length; ++i) {
    if (!addEdit(*module, edits, rng).ok())
      break;
    if (!applyEdit(*module, edits.back()).ok()) {
      edits.pop_back();
      break;
    }
  }
  return edits;
}

namespace {

/// Whether an edit verified under `safety` is applied as buildVariant()
/// applies it (with the default checks).
bool appliesAsABuild(const SafetyOptions &safety) {
  SafetyOptions build;
  return safety.check == build.check &&
         safety.allowExternalCalls == build.allowExternalCalls &&
         safety.maxLoopIterations == build.maxLoopIterations;
}

} // namespace

std::vector<Edit>
Variation::mutate(const std::vector<Edit> &edits, double removeRate,
                  double retuneRate, std::mt19937_64 &rng,
                  const std::vector<double> &kindWeights) const {
  std::vector<Edit> out = edits;
  double draw =
      out.empty() ? 1.0 : std::uniform_real_distribution<double>(0, 1)(rng);
  if (draw < removeRate) {
    out.erase(out.begin() +
              std::uniform_int_distribution<size_t>(0, out.size() - 1)(rng));
    return out;
  }
  if (draw < removeRate + retuneRate) {
    std::optional<std::vector<Edit>> moved = retune(out, rng);
    if (moved)
      return *moved;
  }
  // When no operator finds an edit on this variant, the child keeps the
  // edits that applied: a mutation may leave a list as it is. The module
  // the new edit was verified on is the child's build, when a build would
  // apply it alike: the search keys and runs the child without building it.
  mlir::OwningOpRef<mlir::ModuleOp> applied;
  bool reuse = source && appliesAsABuild(options.safety);
  bool added = false;
  auto propose = [&](const BuiltVariant &built) {
    out = built.edits;
    added = addEdit(*built.module, out, rng, kindWeights,
                    reuse ? &applied : nullptr)
                .ok();
  };
  if (source) // the parent's build where it lies: proposing leaves it as is
    source->inspect(out, propose);
  else
    propose(build(out));
  if (added && applied)
    source->remember(out, std::move(applied));
  return out;
}

Bred Variation::breed(const Recipe &recipe, const std::string &entry) const {
  std::mt19937_64 rng(recipe.seed);
  std::vector<Edit> edits = recipe.base;
  if (recipe.kind == Recipe::Kind::Random)
    edits = randomList(recipe.length, rng);
  else if (recipe.mutate)
    edits = mutate(recipe.base, recipe.removeRate, recipe.retuneRate, rng,
                   recipe.weights);
  Bred bred;
  auto look = [&](const BuiltVariant &built) {
    bred.edits = built.edits;
    bred.key = keyOf(built);
    if (recipe.withCost)
      bred.staticCost = estimateStaticCost(*built.module, entry);
  };
  if (source) // the build the context remembers, read where it lies
    source->inspect(edits, look);
  else
    look(build(edits));
  return bred;
}

std::optional<std::vector<Edit>>
Variation::retune(const std::vector<Edit> &edits, std::mt19937_64 &rng) const {
  std::vector<size_t> tunable;
  for (size_t i = 0; i < edits.size(); ++i)
    if (isTunable(edits[i]))
      tunable.push_back(i);
  if (tunable.empty())
    return std::nullopt;
  size_t at = tunable[std::uniform_int_distribution<size_t>(0, tunable.size() -
                                                                   1)(rng)];
  std::vector<Edit> before(edits.begin(), edits.begin() + at);
  BuiltVariant prefix = build(before);
  if (prefix.edits.size() != before.size())
    return std::nullopt; // the edit's module is not the one it was made on
  absl::StatusOr<Edit> moved =
      retuneEdit(*prefix.module, edits[at], options, rng);
  if (!moved.ok())
    return std::nullopt;
  if (std::find(edits.begin(), edits.end(), *moved) != edits.end())
    return std::nullopt; // the list would hold one edit twice
  std::vector<Edit> out = edits;
  out[at] = *moved;
  // Later edits were made on the old selection or value: those that no
  // longer apply are dropped, as a build drops them.
  return build(out).edits;
}

std::vector<std::vector<Edit>> Variation::seedLists(bool rates,
                                                    bool pruning) const {
  std::vector<std::vector<Edit>> lists;
  if (rates)
    for (Edit &edit : learningRateSeeds(currentBaseline(), options))
      lists.push_back({std::move(edit)});
  if (!pruning)
    return lists;
  // One list per seed, then every prunable dimension pruned at once: a seed
  // that no longer applies after those before it is another op of a
  // dimension already in the list (it keeps all that is left: refused).
  std::vector<Edit> all;
  for (Edit &edit : pruningSeeds(currentBaseline(), options)) {
    std::vector<Edit> trial = all;
    trial.push_back(edit);
    if (build(trial).edits.size() == trial.size())
      all = std::move(trial);
    lists.push_back({std::move(edit)});
  }
  if (all.size() > 1)
    lists.push_back(std::move(all));
  return lists;
}

} // namespace gevo
