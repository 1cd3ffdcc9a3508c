//===- run_directory.h - Every file of a search run, written and read -----===//
//
// A run directory holds what one search leaves behind:
//
//   run.json         settings, the unmodified program's measurement, counters
//   checkpoint.json  the search's state after the last generation
//   cache.jsonl      the fitness cache (FitnessCache reads and appends it)
//   history.csv      one row per measured variant (HistoryWriter)
//   front/NN.gevo    the front's patches
//   front.json       the front: patches, keys, measurements, the best one
//   operators.csv    per mutation operator, how its variants ended
//
// RunDirectory is the one place that names these files, writes them (JSON
// pretty-printed, every file replaced atomically) and reads them back, for
// the search, the analysis and the benchmarks alike. The formats are those
// of every run written before. What the search keeps in checkpoint.json is
// the search's own business: here it is text.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_WORKBENCH_RUN_DIRECTORY_H
#define GEVO_WORKBENCH_RUN_DIRECTORY_H

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "replay/patch.h"
#include "llvm/Support/JSON.h"

namespace gevo {

/// A CSV file of the run, read back.
struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// The index of column `name`, or header.size() when there is none.
  size_t column(const std::string &name) const;
};

/// What run.json says that every reader needs.
struct RunInfo {
  /// The workload as the search was given it (config.workload).
  std::string workloadPath;
  /// The objectives the search used.
  std::vector<std::string> objectives;
  /// The search's settings as it wrote them ("config").
  llvm::json::Value config = nullptr;
};

/// A front member as front.json lists it.
struct FrontEntry {
  /// Relative to the run directory, e.g. "front/01.gevo".
  std::string patchPath;
  /// The variant's fingerprint (empty in runs that did not record it).
  std::string key;
};

class RunDirectory {
public:
  explicit RunDirectory(std::string path) : root(std::move(path)) {}

  const std::string &path() const { return root; }
  /// `name` inside the run directory.
  std::string file(const std::string &name) const;
  /// Creates the directory unless it exists.
  absl::Status create() const;

  std::string cachePath() const { return file("cache.jsonl"); }
  std::string historyPath() const { return file("history.csv"); }

  /// run.json
  absl::Status writeRun(llvm::json::Object run) const;
  absl::StatusOr<RunInfo> readRun() const;

  /// checkpoint.json
  bool hasCheckpoint() const;
  absl::Status writeCheckpoint(const std::string &text) const;
  absl::StatusOr<std::string> readCheckpoint() const;

  /// front/NN.gevo for front member `index` (counted from 0).
  static std::string frontPatchName(size_t index);
  absl::Status writeFrontPatch(const std::string &name,
                               const Patch &patch) const;
  absl::StatusOr<Patch> readPatch(const std::string &name) const;
  /// front.json
  absl::Status writeFront(llvm::json::Object front) const;
  absl::StatusOr<std::vector<FrontEntry>> readFront() const;

  /// operators.csv
  absl::Status writeOperators(const std::string &csv) const;
  /// Empty when the run has none.
  CsvTable readOperators() const;
  /// operator_weights.csv (NSGA-II's chance of drawing each operator, a row
  /// per generation); empty when the run has none.
  CsvTable readOperatorWeights() const;
  /// history.csv; empty when the run has none.
  CsvTable readHistory() const;
  /// surrogate.csv (how well NSGA-II's pre-screen guessed, a row per
  /// generation); empty when the run has none.
  CsvTable readSurrogate() const;

private:
  absl::StatusOr<llvm::json::Value> readJson(const std::string &name,
                                             const std::string &what) const;
  std::string root;
};

/// `value` as run.json and front.json hold it: indented, newline-ended.
std::string prettyJson(const llvm::json::Value &value);

} // namespace gevo

#endif // GEVO_WORKBENCH_RUN_DIRECTORY_H
