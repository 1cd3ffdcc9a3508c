//===- explore.h - Every single edit of the chosen operators, measured ----===//
//
// GEVO's neighbourhood exploration: for each enabled operator and each op
// the filters allow as its target, propose one edit on the unmodified
// program, measure the variant, and write a CSV row (operator, target, the
// edit line, outcome, objectives, accuracy, and the change against the
// unmodified program). Shows where a workload is sensitive before a search.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_EXPLORE_H
#define GEVO_SEARCH_EXPLORE_H

#include <cstdio>
#include <string>

#include "absl/status/statusor.h"
#include "gevo/search/search_config.h"

namespace gevo {

struct ExploreSummary {
  int64_t targets = 0;  // (operator, op) pairs tried
  int64_t proposed = 0; // with a valid edit
  int64_t ok = 0;
  int64_t cacheHits = 0;
  double seconds = 0;
};

/// Explores with `config` (workload, operators, filters, seed, workers,
/// limits) and writes the CSV to `csvPath`.
absl::StatusOr<ExploreSummary>
explore(SearchConfig config, const std::string &csvPath, std::FILE *progress);

/// The line //gevo:search --explore prints when done.
std::string summarize(const ExploreSummary &summary,
                      const std::string &csvPath);

} // namespace gevo

#endif // GEVO_SEARCH_EXPLORE_H
