//===- recipe.cc - Recipes and bred children as patch text ----------------===//

#include "gevo/search/recipe.h"

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "replay/patch.h"

namespace gevo {
namespace {

std::string exact(double value) { return absl::StrFormat("%.17g", value); }

/// A patch that names no model (zeros) with `edits`.
Patch patchOf(const std::vector<Edit> &edits, const std::string &model) {
  Patch patch;
  patch.model = model.empty() ? std::string(16, '0') : model;
  for (const Edit &edit : edits)
    patch.addEdit(edit);
  return patch;
}

bool readWeights(const std::string &text, std::vector<double> &weights) {
  weights.clear();
  for (absl::string_view word : absl::StrSplit(text, ',', absl::SkipEmpty())) {
    double w = 0;
    if (!absl::SimpleAtod(word, &w))
      return false;
    weights.push_back(w);
  }
  return true;
}

/// One metadata entry of a recipe into `recipe`; false when malformed.
bool readRecipeEntry(const std::string &key, const std::string &value,
                     Recipe &recipe) {
  if (key == "recipe") {
    if (value != "mutate" && value != "random")
      return false;
    recipe.kind =
        value == "random" ? Recipe::Kind::Random : Recipe::Kind::Mutate;
    return true;
  }
  if (key == "mutate")
    return (recipe.mutate = value == "1") || value == "0";
  if (key == "remove_rate")
    return absl::SimpleAtod(value, &recipe.removeRate);
  if (key == "retune_rate")
    return absl::SimpleAtod(value, &recipe.retuneRate);
  if (key == "weights")
    return readWeights(value, recipe.weights);
  if (key == "length")
    return absl::SimpleAtoi(value, &recipe.length) && recipe.length >= 0;
  if (key == "seed")
    return absl::SimpleAtoi(value, &recipe.seed);
  if (key == "with_cost")
    return (recipe.withCost = value == "1") || value == "0";
  return true; // room for more
}

} // namespace

std::string printRecipe(const Recipe &recipe) {
  Patch patch = patchOf(recipe.base, "");
  std::vector<std::string> weights;
  for (double w : recipe.weights)
    weights.push_back(exact(w));
  patch.metadata = {
      {"recipe", recipe.kind == Recipe::Kind::Random ? "random" : "mutate"},
      {"mutate", recipe.mutate ? "1" : "0"},
      {"remove_rate", exact(recipe.removeRate)},
      {"retune_rate", exact(recipe.retuneRate)},
      {"length", absl::StrCat(recipe.length)},
      {"seed", absl::StrCat(recipe.seed)},
      {"with_cost", recipe.withCost ? "1" : "0"}};
  if (!weights.empty())
    patch.metadata.push_back({"weights", absl::StrJoin(weights, ",")});
  return printPatch(patch);
}

absl::StatusOr<Recipe> parseRecipe(const std::string &text) {
  absl::StatusOr<Patch> patch = parsePatch(text, "recipe");
  if (!patch.ok())
    return patch.status();
  Recipe recipe;
  recipe.base = patch->edits();
  bool named = false;
  for (const auto &[key, value] : patch->metadata) {
    if (!readRecipeEntry(key, value, recipe))
      return absl::InvalidArgumentError(
          absl::StrCat("recipe: bad ", key, "=", value));
    named |= key == "recipe";
  }
  if (!named)
    return absl::InvalidArgumentError("recipe: not a recipe (no recipe=)");
  return recipe;
}

std::string printBred(const Bred &bred) {
  Patch patch = patchOf(bred.edits, bred.key);
  patch.metadata = {{"static_cost", exact(bred.staticCost)}};
  return printPatch(patch);
}

absl::StatusOr<Bred> parseBred(const std::string &text) {
  absl::StatusOr<Patch> patch = parsePatch(text, "bred variant");
  if (!patch.ok())
    return patch.status();
  Bred bred;
  bred.edits = patch->edits();
  bred.key = patch->model;
  for (const auto &[key, value] : patch->metadata)
    if (key == "static_cost" && !absl::SimpleAtod(value, &bred.staticCost))
      return absl::InvalidArgumentError(
          absl::StrCat("bred variant: bad static_cost=", value));
  return bred;
}

} // namespace gevo
