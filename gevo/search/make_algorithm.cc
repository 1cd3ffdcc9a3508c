//===- make_algorithm.cc - The search algorithm a config names ------------===//

#include "gevo/search/make_algorithm.h"

#include "gevo/search/nsga2_search.h"
#include "gevo/search/random_search.h"

namespace gevo {

std::unique_ptr<SearchAlgorithm> makeAlgorithm(AlgorithmContext context) {
  switch (context.settings.kind) {
  case Algorithm::Random:
    return std::make_unique<RandomSearch>(context);
  case Algorithm::Nsga2:
    break;
  }
  return std::make_unique<Nsga2Search>(context);
}

} // namespace gevo
