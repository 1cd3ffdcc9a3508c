//===- workload.h - What a workload is: module, data, bindings, objectives ===//
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
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/workload/data_source.h"
#include "gevo/eval/workload/dataset.h"
#include "gevo/frontend/training_spec.h"

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
  /// Features only: each row's shape (`"shape": [1, 28, 28]`), so the
  /// argument is [rows, 1, 28, 28]; empty: a flat row, [rows, features].
  std::vector<int64_t> shape;
  /// "spec:line:col: error: at $.arguments[i].shape", for errors found when
  /// the data is loaded.
  std::string where;
};

enum class ResultRole { Logits, Other };

struct WorkloadSpec {
  std::string name;
  std::string description;
  std::string specPath;   // The JSON file this was read from.
  std::string modulePath; // Resolved against the spec's directory.
  /// "spec:line:col: error: at $.module", for errors found on loading it.
  std::string moduleWhere;
  /// An `.onnx` module's batch (`"batch"`); 0: the rows of the split the
  /// first argument binds (importBatch).
  int64_t batch = 0;
  std::string entry = "main";
  /// The `training` field: `module` is then a forward model, and the module
  /// the workload runs is its training program, generated on load
  /// (workload_module.h) for the data's sizes; `entry` is then the
  /// generated entry and `forwardEntry` the forward model's (`"entry"`).
  std::optional<TrainingSpec> training;
  std::string forwardEntry;
  /// hashText of the `training` field's canonical JSON (keys sorted), which
  /// a patch's `source training` line records.
  std::string trainingHash;
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

/// Loads the spec's data (loadDataSource, data_source.h) and checks that
/// every binding's row shape holds a row's features.
absl::StatusOr<DatasetSplit> loadWorkloadData(const WorkloadSpec &spec);

/// The batch an `.onnx` module is imported with: `"batch"` when given, else
/// the rows of the split the first argument binds (`eval`: validation and
/// test, which must then be of one size, since the module is imported once).
absl::StatusOr<int64_t> importBatch(const WorkloadSpec &spec,
                                    const DatasetSplit &data);

const char *toString(SplitRole role);
const char *toString(DataField field);

} // namespace gevo

#endif // GEVO_EVAL_WORKLOAD_H
