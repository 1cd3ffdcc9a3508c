//===- recipe.h - A child's draws on a module, bred where it is built -----===//
//
// What a search hands to an evaluating rank to breed a child there: the
// search has made its own draws (parents, crossover, whether to mutate) and
// leaves those that need a module (the mutation's, a random list's) to a
// stream of random numbers of the recipe's own, so the child is the same
// whichever process breeds it. Recipes and bred children travel as patch
// text (replay/). No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_RECIPE_H
#define GEVO_SEARCH_RECIPE_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"

namespace gevo {

struct Recipe {
  enum class Kind { Mutate, Random };
  Kind kind = Kind::Mutate;
  /// Mutate: the list, mutated (Variation::mutate with these rates and
  /// operator weights) when `mutate`, else only built and keyed.
  std::vector<Edit> base;
  bool mutate = true;
  double removeRate = 0;
  double retuneRate = 0;
  std::vector<double> weights;
  /// Random: a list of this many edits (Variation::randomList).
  int length = 0;
  /// The recipe's own stream of random numbers.
  uint64_t seed = 0;
  /// Whether the pre-screen wants the child's static cost.
  bool withCost = false;
};

/// A child as bred: the edits that applied, its key, its static cost (-1:
/// not asked).
struct Bred {
  std::vector<Edit> edits;
  std::string key;
  double staticCost = -1;
};

std::string printRecipe(const Recipe &recipe);
absl::StatusOr<Recipe> parseRecipe(const std::string &text);
std::string printBred(const Bred &bred);
absl::StatusOr<Bred> parseBred(const std::string &text);

} // namespace gevo

#endif // GEVO_SEARCH_RECIPE_H
