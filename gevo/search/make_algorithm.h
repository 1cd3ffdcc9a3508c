//===- make_algorithm.h - The search algorithm a config names -------------===//
//
// The one place that maps SearchConfig::algorithm to a SearchAlgorithm and
// hands it the settings it may see (never the whole config). A new
// algorithm adds its case here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_MAKE_ALGORITHM_H
#define GEVO_SEARCH_MAKE_ALGORITHM_H

#include <memory>

#include "gevo/search/algorithm.h"
#include "gevo/search/search_config.h"

namespace gevo {

/// The fields of `config` an algorithm reads.
AlgorithmSettings algorithmSettings(const SearchConfig &config);

/// The algorithm `config.algorithm` names, over `context`.
std::unique_ptr<SearchAlgorithm> makeAlgorithm(const SearchConfig &config,
                                               AlgorithmContext context);

} // namespace gevo

#endif // GEVO_SEARCH_MAKE_ALGORITHM_H
