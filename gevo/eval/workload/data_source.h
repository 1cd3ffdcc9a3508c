//===- data_source.h - Where a workload's data comes from -----------------===//
//
// The `data` object of a workload spec (one file and a seeded split, or a
// file and row range per split; feature scaling): parsed from the spec's JSON
// and loaded into the three splits. Knows nothing of the rest of the spec
// (workload.h builds on it).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_DATA_SOURCE_H
#define GEVO_EVAL_DATA_SOURCE_H

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gevo/eval/workload/dataset.h"
#include "gevo/eval/workload/feature_scaling.h"

namespace llvm::json {
class Value;
} // namespace llvm::json

namespace gevo {

class SpecReader;

/// A file (CSV, or an IDX images/labels pair) and the rows [begin, end) of it
/// that one split takes; `end` < 0: to the end of the file.
struct SplitFile {
  std::string path;       // CSV file.
  std::string imagesPath; // IDX images.
  std::string labelsPath; // IDX labels.
  int64_t begin = 0;
  int64_t end = -1;
  /// "spec:line:col: error: at $.data.<split>", for errors found on loading.
  std::string where;
};

struct DataSource {
  enum class Format { Csv, Idx } format = Format::Csv;
  /// One file split by a seeded shuffle (`split`), or one file per split.
  SplitFile whole;
  bool filePerSplit = false;
  SplitFile train, validation, test;
  CsvOptions csv;
  int64_t numClasses = 0;
  SplitOptions split;
  FeatureScaling scaling;
};

/// Parses `$.data` of a spec into `data`; errors point at the spec's line.
absl::Status parseDataSource(const SpecReader &reader,
                             const llvm::json::Value *value, DataSource &data);

/// Loads the data (one file split by its seed, or a file per split), takes
/// each split's rows and scales its features. Errors about a split's rows
/// point at the spec's line.
absl::StatusOr<DatasetSplit> loadDataSource(const DataSource &data);

} // namespace gevo

#endif // GEVO_EVAL_DATA_SOURCE_H
