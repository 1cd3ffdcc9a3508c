//===- search_breeding.cc - An MPI search's children bred on its ranks ----===//
//
// SearchRun::breedElsewhere() hands the algorithm's recipes to the remote
// runner and breeds here whatever no rank answered; searchBreeder() is what
// the ranks answer with. Both breed with the run's mutation filters, so a
// recipe makes the same child in either place.
//
//===----------------------------------------------------------------------===//

#include "gevo/search/search.h"
#include "gevo/search/search_run.h"
#include "gevo/support/status_macros.h"

namespace gevo {

MutationOptions mutationOptionsOf(const SearchConfig &config) {
  MutationOptions mutation;
  mutation.kinds = config.mutation.operators;
  mutation.functions = config.mutation.functions;
  mutation.opPrefixes = config.mutation.opPrefixes;
  return mutation;
}

std::vector<Bred>
SearchRun::breedElsewhere(const std::vector<Recipe> &recipes) {
  std::vector<std::string> texts;
  for (const Recipe &recipe : recipes)
    texts.push_back(printRecipe(recipe));
  std::vector<std::optional<std::string>> answers = remote->breed(texts);
  std::vector<Bred> bred(recipes.size());
  for (size_t i = 0; i < recipes.size(); ++i) {
    absl::StatusOr<Bred> parsed = absl::NotFoundError("not bred");
    if (i < answers.size() && answers[i])
      parsed = parseBred(*answers[i]);
    // No rank bred it (none left): the same child, bred here.
    bred[i] = parsed.ok() ? *std::move(parsed)
                          : variation->breed(recipes[i], spec.entry);
    // A child the cache answers (the unmodified program, a variant measured
    // before) is then not sent to be run again.
    bench->knowBuiltElsewhere(bred[i].edits, bred[i].key);
  }
  return bred;
}

Breeder searchBreeder(const SearchConfig &config) {
  MutationOptions options = mutationOptionsOf(config);
  return [options](Workbench &bench,
                   const std::string &text) -> absl::StatusOr<std::string> {
    GEVO_ASSIGN_OR_RETURN(Recipe recipe, parseRecipe(text));
    Variation variation(bench.variantContext(), options);
    return printBred(variation.breed(recipe, bench.spec().entry));
  };
}

} // namespace gevo
