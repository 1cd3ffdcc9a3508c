//===- variation.h - Edit lists made, changed and built into variants -----===//
//
// The genome side of the search: an individual is an ordered list of
// resolved edits. Variation builds one into a module (buildVariant), draws
// random lists, and mutates a list by adding an edit
// proposed on the module the list produces, or by removing one.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_VARIATION_H
#define GEVO_SEARCH_VARIATION_H

#include <optional>
#include <random>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/mutation.h"
#include "gevo/search/recipe.h"
#include "gevo/workbench/build_variant.h"
#include "gevo/workbench/variant_context.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace gevo {

class Variation {
public:
  Variation(mlir::ModuleOp baseline, MutationOptions options)
      : baseline(baseline), options(std::move(options)) {}
  /// Builds and proposes on `source`'s baseline of the moment (a search's:
  /// what its edits unique is dropped with each recycled context).
  Variation(VariantContext &source, MutationOptions options)
      : source(&source), options(std::move(options)) {}

  /// buildVariant() on the baseline: the edits that applied are the
  /// individual's genome from then on.
  BuiltVariant build(const std::vector<Edit> &edits) const {
    return source ? source->build(edits) : buildVariant(baseline, edits);
  }

  /// Appends one edit proposed on `variant` (which it leaves unchanged) to
  /// `edits`. Fails when no operator finds a valid edit. `applied`, when
  /// given, receives the clone of `variant` the edit was verified on.
  absl::Status
  addEdit(mlir::ModuleOp variant, std::vector<Edit> &edits,
          std::mt19937_64 &rng, const std::vector<double> &kindWeights = {},
          mlir::OwningOpRef<mlir::ModuleOp> *applied = nullptr) const;

  /// A list of `length` edits, each proposed on the module the previous ones
  /// produced (shorter when proposals run out).
  std::vector<Edit> randomList(int length, std::mt19937_64 &rng) const;

  /// Mutation: with probability `removeRate` (and a non-empty list) drops a
  /// random edit; with probability `retuneRate` moves one of its tunable
  /// edits (a shrink, a constant) to a neighbour (retune()); otherwise, or
  /// when there is nothing to retune, adds one, its operator drawn by
  /// `kindWeights` (parallel to the options' kinds; empty: uniformly).
  std::vector<Edit> mutate(const std::vector<Edit> &edits, double removeRate,
                           double retuneRate, std::mt19937_64 &rng,
                           const std::vector<double> &kindWeights = {}) const;

  /// `edits` with one of its tunable edits, drawn at random, replaced by
  /// retuneEdit()'s neighbour of it (edits after it that no longer apply are
  /// dropped); nullopt when the list has none or no neighbour applies.
  std::optional<std::vector<Edit>> retune(const std::vector<Edit> &edits,
                                          std::mt19937_64 &rng) const;

  /// learningRateSeeds() (when `rates`) then pruningSeeds() (when
  /// `pruning`) of the baseline, each a list of its own, and last, where
  /// more than one dimension can be pruned, one list pruning each of them.
  std::vector<std::vector<Edit>> seedLists(bool rates, bool pruning) const;

  /// The child `recipe` makes (its draws from its own seed), built: the
  /// edits that applied, the key and, when asked, the static cost of its
  /// `entry` function. The same in every process with the same workload.
  Bred breed(const Recipe &recipe, const std::string &entry) const;

  const MutationOptions &mutationOptions() const { return options; }

private:
  mlir::ModuleOp currentBaseline() const {
    return source ? source->baseline() : baseline;
  }

  mutable mlir::ModuleOp baseline; // an op handle: cloning it is not const
  VariantContext *source = nullptr;

  MutationOptions options;
};

} // namespace gevo

#endif // GEVO_SEARCH_VARIATION_H
