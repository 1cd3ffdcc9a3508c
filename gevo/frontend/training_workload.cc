//===- training_workload.cc - A workload's "training" field to a program --===//
//
// The workload's own reader does not know the `training` field yet, so it is
// taken out of the JSON before the rest is read (module, data, splits). The
// forward module is MLIR text or an ONNX file, imported here.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_workload.h"

#include <filesystem>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/frontend/onnx_import.h"
#include "gevo/frontend/training.h"
#include "gevo/support/file_io.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {

absl::StatusOr<TrainingWorkload> loadTrainingWorkload(const std::string &path) {
  std::string specPath = path;
  if (std::filesystem::is_directory(path))
    specPath = (std::filesystem::path(path) / "workload.json").string();
  absl::StatusOr<std::string> text = readFile(specPath, "workload spec");
  if (!text.ok())
    return text.status();
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(*text);
  llvm::json::Object *root = value ? value->getAsObject() : nullptr;
  if (!root) {
    if (!value)
      llvm::consumeError(value.takeError());
    return absl::InvalidArgumentError(
        absl::StrCat(specPath, ": not a JSON object"));
  }
  const llvm::json::Value *training = root->get("training");
  if (!training)
    return absl::InvalidArgumentError(absl::StrCat(
        specPath, ": training: missing (no training to generate)"));
  std::string trainingText;
  llvm::raw_string_ostream(trainingText) << *training;
  absl::StatusOr<TrainingSpec> spec = parseTrainingSpec(trainingText, specPath);
  if (!spec.ok())
    return spec.status();
  root->erase("training");
  std::string rest;
  llvm::raw_string_ostream(rest) << llvm::json::Value(std::move(*root));
  absl::StatusOr<WorkloadSpec> workload = parseWorkloadSpec(rest, specPath);
  if (!workload.ok())
    return workload.status();
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(*workload);
  if (!data.ok())
    return data.status();
  if (data->validation.size() != data->test.size())
    return absl::InvalidArgumentError(absl::StrCat(
        specPath, ": data: the validation (", data->validation.size(),
        " rows) and test (", data->test.size(),
        " rows) splits must be the same size: the generated program's eval "
        "input has one shape"));
  TrainingWorkload result;
  result.spec = *spec;
  result.spec.trainRows = data->train.size();
  result.spec.evalRows = data->validation.size();
  result.spec.classes = data->train.numClasses;
  result.forwardPath = workload->modulePath;
  result.specPath = specPath;
  return result;
}

absl::StatusOr<std::string> makeTrainingModule(const std::string &path) {
  absl::StatusOr<TrainingWorkload> workload = loadTrainingWorkload(path);
  if (!workload.ok())
    return workload.status();
  // An ONNX forward model is imported with its batch at the eval rows, as
  // //:import --batch would.
  OnnxImportOptions options;
  options.batch = workload->spec.evalRows;
  absl::StatusOr<std::string> forward =
      absl::EndsWith(workload->forwardPath, ".onnx")
          ? importOnnxFile(workload->forwardPath, options)
          : readFile(workload->forwardPath, "forward module");
  if (!forward.ok())
    return forward.status();
  absl::StatusOr<std::string> text =
      generateTrainingModule(*forward, workload->spec, workload->forwardPath);
  if (!text.ok() && absl::StartsWith(text.status().message(), "training."))
    return absl::InvalidArgumentError(
        absl::StrCat(workload->specPath, ": ", text.status().message()));
  return text;
}

} // namespace gevo
