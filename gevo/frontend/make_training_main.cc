//===- make_training_main.cc - gevo-make-training: write a training program //
//
//   bazel run //:make_training -- --workload=W -o train.mlir
//
// Generates the training module for the workload's forward model and its
// `training` field (gevo/frontend/training.h), checks that it parses and
// verifies, and writes it. Bad input is one line naming the field or op,
// exit 2.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_workload.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"

namespace {

llvm::cl::OptionCategory category("gevo-make-training options");
llvm::cl::opt<std::string>
    workloadPath("workload",
                 llvm::cl::desc("workload.json (or its directory) with a "
                                "forward `module` and a `training` field"),
                 llvm::cl::Required, llvm::cl::cat(category));
llvm::cl::opt<std::string>
    outputPath("o",
               llvm::cl::desc("MLIR file to write (default: standard output)"),
               llvm::cl::value_desc("train.mlir"), llvm::cl::init("-"),
               llvm::cl::cat(category));

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(category);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "gevo-make-training: the training program (forward, softmax "
          "cross-entropy, gradients, SGD, epochs and batches) of a "
          "workload's forward model, as one MLIR module\n"))
    return gevo::kBadInputExitCode;
  absl::StatusOr<std::string> text =
      gevo::makeTrainingModule(gevo::resolveUserPath(workloadPath));
  if (!text.ok())
    return gevo::reportBadInput(std::string(text.status().message()));
  std::unique_ptr<mlir::MLIRContext> context = gevo::createContext();
  auto module = gevo::parseModule(*context, *text, "generated training");
  if (!module.ok())
    return gevo::reportBadInput(
        absl::StrCat("internal: the generated module does not parse: ",
                     module.status().message()));
  if (mlir::failed(mlir::verify(**module)))
    return gevo::reportBadInput(
        "internal: the generated module does not verify");
  std::string out = outputPath == "-" ? "-" : gevo::resolveUserPath(outputPath);
  if (absl::Status written = gevo::writeOutput(out, *text); !written.ok())
    return gevo::reportBadInput(std::string(written.message()));
  return 0;
}
