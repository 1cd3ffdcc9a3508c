//===- individual.h - One member of a search: its edits and its fitness ---===//
//
// Plain data shared by the search's units (no MLIR): an individual, and the
// counts kept over every individual measured.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_INDIVIDUAL_H
#define GEVO_SEARCH_INDIVIDUAL_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gevo/eval/measurement.h"
#include "gevo/ir/edit.h"

namespace gevo {

struct Individual {
  std::vector<Edit> edits;
  /// modelFingerprint() of the variant the edits build.
  std::string key;
  Measurement measurement;
  /// The generation that first produced it (0: the initial population).
  int generation = 0;
  /// The kind of the edit its last mutation added, for operator statistics.
  std::optional<EditKind> newestKind;
  bool cached = false;

  bool feasible() const { return measurement.ok(); }
};

struct EvaluationCounts {
  int64_t evaluations = 0; // children run
  int64_t cacheHits = 0;
  /// Paired children run again because their unmodified side was disturbed
  /// (BatchEvaluator); not among `evaluations`.
  int64_t remeasured = 0;
  /// Variants read again in a child of their own because their reading
  /// would have entered racing's front (BatchEvaluator::setRacing); not
  /// among `evaluations`.
  int64_t reread = 0;
  /// Children whose timing stopped early (racing, race.h); among
  /// `evaluations`.
  int64_t raced = 0;
  std::map<Outcome, int64_t> outcomes; // over every individual measured
};

} // namespace gevo

#endif // GEVO_SEARCH_INDIVIDUAL_H
