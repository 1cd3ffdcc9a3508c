//===- search_result.h - What a finished search found ---------------------===//
//
// The result of a search run: the re-measured front, the unmodified
// program's measurements, the counts and the patch to try first. Filled in
// by runSearch (search.h), written and summarised by search_outputs.h. No
// MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_SEARCH_RESULT_H
#define GEVO_SEARCH_SEARCH_RESULT_H

#include <string>
#include <vector>

#include "gevo/eval/measurement.h"
#include "gevo/search/individual.h"
#include "gevo/search/search_config.h"

namespace gevo {

struct FrontMember {
  Individual individual;
  /// Interleaved with the unmodified program, test split scored.
  Measurement remeasured;
  std::string patchPath;
  bool dominatesBaseline = false;
  /// For a member its own re-measurement put off the front: the patch of
  /// the member whose re-measured figures dominate it.
  std::string dominatedBy;
  /// Not on the search's front: a member it hid behind read slower
  /// re-measured, and the end re-measured it too (SearchResult::secondLook).
  bool secondLook = false;
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
  /// The front as re-measured: no member dominates another on the
  /// re-measured figures (front_ranking.h).
  std::vector<FrontMember> front;
  /// Members of the search's front (and variants of the second look) that
  /// another member dominates once both are re-measured (written to
  /// front/dominated-after-remeasure/).
  std::vector<FrontMember> dominatedAfterRemeasure;
  /// Variants the end re-measured because a member that hid them read
  /// slower re-measured (FrontMember::secondLook), on the front or not.
  int secondLook = 0;
  EvaluationCounts counts;
  int generationsDone = 0;
  double searchSeconds = 0;
  double hypervolume = 0;
  /// Index into `front` of the patch to try first, or -1.
  int best = -1;
};

} // namespace gevo

#endif // GEVO_SEARCH_SEARCH_RESULT_H
