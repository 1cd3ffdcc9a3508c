//===- make_algorithm.cc - The search algorithm a config names ------------===//

#include "gevo/search/make_algorithm.h"

#include "gevo/search/nsga2_search.h"
#include "gevo/search/random_search.h"

namespace gevo {

AlgorithmSettings algorithmSettings(const SearchConfig &config) {
  AlgorithmSettings settings;
  settings.population = config.population;
  settings.crossoverRate = config.crossoverRate;
  settings.mutationRate = config.mutationRate;
  settings.removeRate = config.removeRate;
  settings.retuneRate = config.retuneRate;
  settings.pruneSeeds = config.pruneSeeds;
  settings.rateSeeds = config.rateSeeds;
  settings.immigrantRate = config.immigrantRate;
  settings.initialEdits = config.initialEdits;
  settings.maxRandomEdits = config.maxRandomEdits;
  settings.screen = config.screen;
  return settings;
}

/// The algorithm `config.algorithm` names.
std::unique_ptr<SearchAlgorithm> makeAlgorithm(const SearchConfig &config,
                                               AlgorithmContext context) {
  switch (config.algorithm) {
  case Algorithm::Random:
    return std::make_unique<RandomSearch>(context);
  case Algorithm::Nsga2:
    break;
  }
  return std::make_unique<Nsga2Search>(context);
}

} // namespace gevo
