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
#include "gevo/search/individual.h"
#include "gevo/search/search_config.h"
#include "gevo/workbench/remote_runner.h"
#include "gevo/workbench/workbench.h"

namespace gevo {

struct FrontMember {
  Individual individual;
  /// Interleaved with the unmodified program, test split scored.
  Measurement remeasured;
  std::string patchPath;
  bool dominatesBaseline = false;
};

struct SearchResult {
  SearchConfig config;
  std::string workloadName;
  /// "tosa" when the workload's module was legalised from TOSA (its patches
  /// say `source tosa`); empty for a module written in linalg.
  std::string source;
  std::string modulePath;
  std::vector<std::string> objectives;
  Measurement baseline;           // as the search measured it
  Measurement baselineRemeasured; // interleaved with itself, test scored
  /// Run-time ratios within 1 ± this count as equal.
  double runtimeNoise = 0.02;
  std::vector<FrontMember> front;
  EvaluationCounts counts;
  int generationsDone = 0;
  double searchSeconds = 0;
  double hypervolume = 0;
  /// Index into `front` of the patch to try first, or -1.
  int best = -1;
};

/// Runs (or, with `resume`, continues) a search. Progress goes to
/// `progress` (null: none). With `remote`, variants are measured there
/// (gevo/mpi) instead of in this process's pool, except the front's
/// re-measurement. Errors are the user's: a bad workload, an unmodified
/// program that fails, an output directory that holds another run.
absl::StatusOr<SearchResult> runSearch(SearchConfig config, bool resume,
                                       std::FILE *progress,
                                       RemoteRunner *remote = nullptr);

/// The workbench a search measures on: its evaluation options and limits.
WorkbenchOptions workbenchOptions(const SearchConfig &config);

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
