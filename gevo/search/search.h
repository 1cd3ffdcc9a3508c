//===- search.h - The search run: an algorithm with its files around it ---===//
//
// Runs a search from a SearchConfig: measures the unmodified program on a
// workbench, lets the algorithm (algorithm.h: NSGA-II, or random sampling as
// the honest baseline) evolve edit lists, writes the run directory as it
// goes (run.json, history.csv, cache.jsonl, a checkpoint per generation)
// and, at the end, re-measures the front interleaved with the unmodified
// program and writes front/*.gevo, front.json and operators.csv.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_SEARCH_H
#define GEVO_SEARCH_SEARCH_H

#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/measurement.h"
#include "gevo/search/search_config.h"
#include "gevo/search/search_result.h"
#include "gevo/workbench/remote_runner.h"

namespace gevo {

/// Runs (or, with `resume`, continues) a search. Progress goes to
/// `progress` (null: none). With `remote`, variants are measured there
/// (gevo/mpi) instead of in this process's pool, except the front's
/// re-measurement. Errors are the user's: a bad workload, an unmodified
/// program that fails, an output directory that holds another run.
absl::StatusOr<SearchResult> runSearch(SearchConfig config, bool resume,
                                       std::FILE *progress,
                                       RemoteRunner *remote = nullptr);

/// What an MPI search's evaluating ranks answer rank 0's recipes with
/// (--breed-on-ranks): the child bred on the rank's own workbench with the
/// run's mutation filters.
Breeder searchBreeder(const SearchConfig &config);

/// The config a run directory was started with (its run.json).
absl::StatusOr<SearchConfig> loadRunConfig(const std::string &dir);

/// Objectives normalised for the hypervolume: run time and costs divided by
/// twice the unmodified program's value, error as is; the reference point
/// is all ones.
std::vector<double> normalizedObjectives(const Measurement &m,
                                         const Measurement &baseline,
                                         const std::vector<std::string> &names);

} // namespace gevo

#endif // GEVO_SEARCH_SEARCH_H
