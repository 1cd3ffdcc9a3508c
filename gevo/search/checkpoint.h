//===- checkpoint.h - The search's checkpoint, as JSON --------------------===//
//
// What the search keeps in its run directory's checkpoint.json (replaced
// after every generation: population, archive, RNG state, counters,
// operator statistics) and how it is written and parsed; RunDirectory
// stores the text. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_CHECKPOINT_H
#define GEVO_SEARCH_CHECKPOINT_H

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/search/individual.h"
#include "llvm/Support/JSON.h"

namespace gevo {

/// Per mutation operator: variants whose newest edit it made, and how those
/// ended.
struct OperatorStats {
  int64_t variants = 0;
  int64_t ok = 0;
  std::map<Outcome, int64_t> failures;
};

struct Checkpoint {
  /// The last generation completed (0: the initial population).
  int generation = 0;
  std::string rngState;
  double elapsedSeconds = 0;
  EvaluationCounts counts;
  std::vector<Individual> population;
  /// Every distinct variant measured ok, in the order first seen.
  std::vector<Individual> archive;
  /// Every distinct variant measured and failed, in the order first seen
  /// (what the pre-screen learns failures from).
  std::vector<Individual> failed;
  std::map<EditKind, OperatorStats> operators;
  /// Steady-state schedule: the children bred and not yet measured when
  /// the checkpoint was written, oldest first; a resumed run starts them
  /// first (the generational schedule has none).
  std::vector<Individual> pending;
};

std::string toJsonText(const Checkpoint &checkpoint);
absl::StatusOr<Checkpoint> parseCheckpoint(const std::string &text,
                                           const std::string &name);

/// A measurement as a JSON value (as the cache and checkpoint store it).
llvm::json::Value measurementJson(const Measurement &measurement);

} // namespace gevo

#endif // GEVO_SEARCH_CHECKPOINT_H
