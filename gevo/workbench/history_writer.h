//===- history_writer.h - history.csv: one row per measured variant -------===//
//
// A run's history.csv: generation, key, outcome, edit count and kinds, each
// objective, accuracy, timings, the run-time ratio to the unmodified program
// timed beside it (0 when it was not: a search without paired runs),
// whether it came from the cache, how much of it racing measured
// (gevo/eval/race.h; empty: all), and the outcome's detail. Appended and
// flushed generation by generation; a resumed run first drops the rows of the
// generation a crash interrupted. RunDirectory::readHistory() reads it back. No
// MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_WORKBENCH_HISTORY_WRITER_H
#define GEVO_WORKBENCH_HISTORY_WRITER_H

#include <fstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gevo/eval/measurement.h"
#include "gevo/ir/edit.h"

namespace gevo {

class HistoryWriter {
public:
  /// Opens `path` for appending. With `keepThroughGeneration` >= 0 (a
  /// resume), rows of later generations (the one a crash interrupted) are
  /// dropped first, and a header other than historyHeader()'s is an error
  /// (FailedPrecondition, naming both).
  absl::Status open(const std::string &path,
                    const std::vector<std::string> &objectives,
                    int keepThroughGeneration);
  /// One measured variant: the edits that built it, its key (fingerprint)
  /// and measurement, and whether the measurement came from the cache.
  void append(int generation, const std::string &key,
              const std::vector<Edit> &edits, const Measurement &measurement,
              bool cached);
  void flush() { file.flush(); }

private:
  std::ofstream file;
  std::vector<std::string> objectives;
};

/// history.csv's first line (no newline) for these objectives.
std::string historyHeader(const std::vector<std::string> &objectives);

/// "delete+copy+constant": the kinds of `edits`, as history.csv and
/// front.json show them.
std::string kindsOf(const std::vector<Edit> &edits);

} // namespace gevo

#endif // GEVO_WORKBENCH_HISTORY_WRITER_H
