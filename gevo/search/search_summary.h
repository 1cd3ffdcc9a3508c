//===- search_summary.h - What a person reads at the end of a search ------===//
//
// The summary printed after a search: counts, the unmodified program, the
// re-measured front with the useful region first (front_ranking.h), and how
// to replay the best patch. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_SEARCH_SUMMARY_H
#define GEVO_SEARCH_SEARCH_SUMMARY_H

#include <string>

#include "gevo/search/search_result.h"

namespace gevo {

/// What a person reads at the end: counts, the front members within the
/// useful region one per line, one line for the rest, and how to replay.
std::string summarize(const SearchResult &result);

} // namespace gevo

#endif // GEVO_SEARCH_SEARCH_SUMMARY_H
