//===- bench_search.h - A search run from scratch, for benchmarks ---------===//
//
// Benchmarks that time or score whole searches run each in a fresh output
// directory (what an earlier run left there removed first), quietly, and
// compare two settings in pairs of runs.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_BENCH_SEARCH_H
#define GEVO_BENCH_BENCH_SEARCH_H

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/search/search.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

namespace gevo {

/// Removes `config.outDir`, then runs the search without progress output.
absl::StatusOr<SearchResult> searchFromScratch(const SearchConfig &config);

/// One arm of a paired benchmark: the search of `config` from scratch, its
/// output directory's parent made first; a search that cannot start ends
/// the benchmark with the bad-input exit code.
SearchResult pairedSearchOrExit(const SearchConfig &config);

/// Children run per second of search (0 when it did not search).
double evaluationsPerSecond(const SearchResult &result);

/// The hypervolume of the front as re-measured at the end (run-time ratio
/// and validation error of each member the re-measurement kept), on the
/// search's scale (runtime over twice the unmodified program's, error as it
/// is; reference point 1 in each): what a run's readings during the search,
/// partial or lucky, cannot inflate. Objectives other than runtime and
/// error are left out.
double remeasuredHypervolume(const SearchResult &result);

/// A row of a paired benchmark: one search of `workload` with `seed`, the
/// setting under test on when `on`.
using PairedRun = llvm::function_ref<llvm::json::Object(
    const std::string &workload, int seed, bool on)>;

/// For each of the comma-separated `workloads` and seeds 1..`seeds`, the
/// same search with the setting under test off and on, one after the other;
/// which goes first alternates by seed, so that drift hits both alike.
llvm::json::Array alternatingPairs(llvm::StringRef workloads, int seeds,
                                   PairedRun run);
/// The same for the seeds of `seeds` only (a benchmark split over several
/// sittings: each seed's pair is still one sitting's).
llvm::json::Array alternatingPairs(llvm::StringRef workloads,
                                   const std::vector<int> &seeds,
                                   PairedRun run);

} // namespace gevo

#endif // GEVO_BENCH_BENCH_SEARCH_H
