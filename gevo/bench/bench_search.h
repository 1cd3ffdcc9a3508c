//===- bench_search.h - A search run from scratch, for benchmarks ---------===//
//
// Benchmarks that time or score whole searches run each in a fresh output
// directory (what an earlier run left there removed first), quietly.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_BENCH_SEARCH_H
#define GEVO_BENCH_BENCH_SEARCH_H

#include "absl/status/statusor.h"
#include "gevo/search/search.h"

namespace gevo {

/// Removes `config.outDir`, then runs the search without progress output.
absl::StatusOr<SearchResult> searchFromScratch(const SearchConfig &config);

} // namespace gevo

#endif // GEVO_BENCH_BENCH_SEARCH_H
