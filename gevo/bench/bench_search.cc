//===- bench_search.cc - A search run from scratch, for benchmarks --------===//

#include "gevo/bench/bench_search.h"

#include "gevo/bench/child_process.h"

namespace gevo {

absl::StatusOr<SearchResult> searchFromScratch(const SearchConfig &config) {
  runChild({"rm", "-rf", config.outDir}, nullptr);
  return runSearch(config, false, nullptr);
}

} // namespace gevo
