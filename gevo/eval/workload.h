//===- workload.h - What a workload is: module, data, bindings, objectives
//-===//
//
// A workload ties an MLIR module to a data set: which function to call, which
// split and field feeds each argument, which result holds the logits, how to
// time it, and what the search optimises. It is read from a JSON file
// (`workload.json`) beside the module; every field is documented in
// docs/workload.md.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_WORKLOAD_H
#define GEVO_EVAL_WORKLOAD_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/dataset.h"
#include "gevo/eval/feature_scaling.h"

namespace gevo {

/// Which rows feed an argument. `Eval` is the held-out split being scored:
/// validation during a search, test when a result is reported.
enum class SplitRole { Train, Eval, Validation, Test };

/// How a split becomes a tensor.
enum class DataField {
  Features,     // f32 [rows, numFeatures]
  Labels,       // i32 [rows]
  LabelsOneHot, // f32 [rows, numClasses]
};

struct ArgumentBinding {
  SplitRole split = SplitRole::Train;
  DataField field = DataField::Features;
};

enum class ResultRole { Logits, Other };

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

struct WorkloadSpec {
  std::string name;
  std::string description;
  std::string specPath;   // The JSON file this was read from.
  std::string modulePath; // Resolved against the spec's directory.
  std::string entry = "main";
  DataSource data;
  std::vector<ArgumentBinding> arguments;
  std::vector<ResultRole> results;
  int warmup = 1;
  int repeats = 5;
  std::vector<std::string> objectives = {"runtime", "error"};

  /// Index of the result that holds the logits.
  int logitsResult() const;
};

/// Parses the JSON text of a spec. `specPath` names it in errors and anchors
/// relative paths. Errors read `specPath:line:col: error: ...`: for malformed
/// JSON, and `... error: at $.field: ...` for a wrong field.
absl::StatusOr<WorkloadSpec> parseWorkloadSpec(const std::string &json,
                                               const std::string &specPath);

/// Reads a spec from a `workload.json` file or a directory holding one.
absl::StatusOr<WorkloadSpec> loadWorkloadSpec(const std::string &path);

/// Loads the spec's data (one file split by its seed, or a file per split),
/// takes each split's rows and scales its features. Errors about a split's
/// rows point at the spec's line.
absl::StatusOr<DatasetSplit> loadWorkloadData(const WorkloadSpec &spec);

const char *toString(SplitRole role);
const char *toString(DataField field);

} // namespace gevo

#endif // GEVO_EVAL_WORKLOAD_H
