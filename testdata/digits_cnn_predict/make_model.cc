//===- make_model.cc - Train the digits CNN, write it as linalg and TOSA -===//
//
// Trains the CNN of cnn_trainer.h on the digits workload's training split
// (the same seeded split gevo evaluates with), then writes
// digits_cnn_predict/model.mlir (linalg) and digits_cnn_tosa/model.mlir
// (TOSA), and evaluates both with gevo's evaluator as a check.
//
//   bazel run //testdata:make_cnn_model [-- --output-dir=DIR]
//
// Without --output-dir it rewrites both files in the source tree (under
// `bazel run`); with it, DIR/model.mlir and DIR/model_tosa.mlir.
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gevo/eval/evaluator.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "testdata/digits_cnn_predict/cnn_trainer.h"
#include "testdata/digits_cnn_predict/model_text.h"
#include "llvm/Support/CommandLine.h"

namespace {

llvm::cl::OptionCategory category("make_cnn_model options");
llvm::cl::opt<std::string> outputDir(
    "output-dir",
    llvm::cl::desc("Where to write model.mlir and model_tosa.mlir (default: "
                   "testdata/digits_cnn_predict/ and testdata/digits_cnn_tosa/ "
                   "in the workspace)"),
    llvm::cl::value_desc("dir"), llvm::cl::cat(category));

absl::Status writeFile(const std::string &path, const std::string &text) {
  std::ofstream out(path);
  out << text;
  if (!out)
    return absl::InvalidArgumentError(path + ": cannot write");
  std::fprintf(stderr, "wrote %s\n", path.c_str());
  return absl::OkStatus();
}

/// Evaluates `text` as the workload's module and prints its accuracy.
absl::Status check(const gevo::WorkloadSpec &spec,
                   const gevo::DatasetSplit &data, const std::string &text,
                   const std::string &name) {
  absl::StatusOr<gevo::EvaluationReport> report =
      gevo::evaluateModuleText(spec, data, text, name, {});
  if (!report.ok())
    return report.status();
  std::fprintf(stderr, "%s: validation accuracy %.4f, run %.3f ms (%s)\n",
               name.c_str(), report->validation.accuracy(), report->medianRunMs,
               report->loweredWith.c_str());
  return absl::OkStatus();
}

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(category);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv, "Trains the digits CNN and writes its modules.\n",
          &llvm::errs()))
    return 2;
  absl::StatusOr<gevo::WorkloadSpec> spec = gevo::loadWorkloadSpec(
      gevo::findRunfile("testdata/digits_cnn_predict/workload.json"));
  if (!spec.ok())
    return gevo::reportBadInput(std::string(spec.status().message()));
  absl::StatusOr<gevo::DatasetSplit> data = gevo::loadWorkloadData(*spec);
  if (!data.ok())
    return gevo::reportBadInput(std::string(data.status().message()));
  if (data->validation.size() != gevo::cnn::kRows ||
      data->train.numFeatures != gevo::cnn::kSide * gevo::cnn::kSide)
    return gevo::reportBadInput(spec->specPath +
                                ": expected 360 validation rows of 64 pixels");

  std::fprintf(stderr, "training on %lld rows...\n",
               static_cast<long long>(data->train.size()));
  gevo::cnn::Weights weights = gevo::cnn::train(data->train, {});
  double accuracy = gevo::cnn::accuracy(weights, data->validation);
  std::fprintf(stderr, "trained: host validation accuracy %.4f\n", accuracy);

  std::string linalgPath, tosaPath;
  if (!outputDir.empty()) {
    std::string dir = gevo::resolveUserPath(outputDir);
    linalgPath = dir + "/model.mlir";
    tosaPath = dir + "/model_tosa.mlir";
  } else {
    const char *workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
    if (!workspace)
      return gevo::reportBadInput(
          "--output-dir is required outside `bazel run`");
    linalgPath =
        std::string(workspace) + "/testdata/digits_cnn_predict/model.mlir";
    tosaPath = std::string(workspace) + "/testdata/digits_cnn_tosa/model.mlir";
  }
  std::string linalgText = gevo::cnn::linalgModule(weights, accuracy);
  std::string tosaText = gevo::cnn::tosaModule(weights, accuracy);
  for (const absl::Status &status :
       {writeFile(linalgPath, linalgText), writeFile(tosaPath, tosaText),
        check(*spec, *data, linalgText, linalgPath),
        check(*spec, *data, tosaText, tosaPath)})
    if (!status.ok())
      return gevo::reportBadInput(std::string(status.message()));
  return 0;
}
