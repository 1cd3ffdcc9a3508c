//===- make_algorithm.h - The search algorithm a config names -------------===//
//
// The one place that maps AlgorithmSettings::kind to a SearchAlgorithm. A
// new algorithm adds its case here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_MAKE_ALGORITHM_H
#define GEVO_SEARCH_MAKE_ALGORITHM_H

#include <memory>

#include "gevo/search/algorithm.h"

namespace gevo {

/// The algorithm `context.settings.kind` names, over `context`.
std::unique_ptr<SearchAlgorithm> makeAlgorithm(AlgorithmContext context);

} // namespace gevo

#endif // GEVO_SEARCH_MAKE_ALGORITHM_H
