//===- run_files.h - What a search run keeps on disk ----------------------===//
//
// The run directory's files other than the fitness cache: checkpoint.json
// (written atomically after every generation: population, archive, RNG
// state, counters), history.csv (one row per measured individual), and the
// helpers that write them. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_RUN_FILES_H
#define GEVO_SEARCH_RUN_FILES_H

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/search/individual.h"
#include "gevo/support/csv.h"
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
  std::map<EditKind, OperatorStats> operators;
};

std::string toJsonText(const Checkpoint &checkpoint);
absl::StatusOr<Checkpoint> parseCheckpoint(const std::string &text,
                                           const std::string &name);

/// Writes `path` by writing a temporary file beside it and renaming it, so
/// a crash leaves the old or the new file, never half of one.
absl::Status writeFileAtomically(const std::string &path,
                                 const std::string &text);

/// history.csv: generation, key, outcome, edit count and kinds, each
/// objective, accuracy, timings, cached, detail.
class HistoryWriter {
public:
  /// Opens `path` for appending. With `keepThroughGeneration` >= 0 (a
  /// resume), rows of later generations (the one a crash interrupted) are
  /// dropped first.
  absl::Status open(const std::string &path,
                    const std::vector<std::string> &objectives,
                    int keepThroughGeneration);
  void append(int generation, const Individual &individual);
  void flush() { file.flush(); }

private:
  std::ofstream file;
  std::vector<std::string> objectives;
};

/// A measurement as a JSON value (as the cache and checkpoint store it).
llvm::json::Value measurementJson(const Measurement &measurement);

/// "delete+copy+constant".
std::string kindsOf(const std::vector<Edit> &edits);

} // namespace gevo

#endif // GEVO_SEARCH_RUN_FILES_H
