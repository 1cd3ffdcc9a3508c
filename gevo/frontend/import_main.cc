//===- import_main.cc - gevo-import: an ONNX model as gevo-ml's MLIR ------===//
//
//   bazel run //:import -- model.onnx -o model.mlir [--batch=N]
//
// Imports the model (gevo/frontend/onnx_import.h), checks that the module
// parses and verifies as stock MLIR, and writes it. Bad input (a file that is
// not ONNX, an unsupported op, a graph with a cycle) is one line, exit 2.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/onnx_import.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/CommandLine.h"

namespace {

llvm::cl::OptionCategory category("gevo-import options");
llvm::cl::opt<std::string> inputPath(llvm::cl::Positional,
                                     llvm::cl::desc("<model.onnx>"),
                                     llvm::cl::Required,
                                     llvm::cl::cat(category));
llvm::cl::opt<std::string>
    outputPath("o",
               llvm::cl::desc("MLIR file to write (default: standard output)"),
               llvm::cl::value_desc("model.mlir"), llvm::cl::init("-"),
               llvm::cl::cat(category));
llvm::cl::opt<int64_t> batch(
    "batch",
    llvm::cl::desc("Size given to every symbolic dimension of the graph's "
                   "inputs (a batch dimension written as a name)"),
    llvm::cl::init(1), llvm::cl::cat(category));
llvm::cl::opt<std::string>
    entry("entry", llvm::cl::desc("Name of the module's public function"),
          llvm::cl::init("main"), llvm::cl::cat(category));

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(category);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "gevo-import: an ONNX model (as PyTorch, Keras or scikit-learn "
          "export it) as one MLIR module of linalg on tensors, weights as "
          "dense constants, every op at a loc naming its ONNX node\n"))
    return gevo::kBadInputExitCode;
  if (batch < 1)
    return gevo::reportBadInput("--batch must be at least 1");
  gevo::OnnxImportOptions options;
  options.batch = batch;
  options.entry = entry;
  absl::StatusOr<std::string> text =
      gevo::importOnnxFile(gevo::resolveUserPath(inputPath), options);
  if (!text.ok())
    return gevo::reportBadInput(std::string(text.status().message()));
  std::unique_ptr<mlir::MLIRContext> context = gevo::createContext();
  auto module = gevo::parseModule(*context, *text, inputPath);
  if (!module.ok())
    return gevo::reportBadInput(
        absl::StrCat("internal: the imported module does not parse: ",
                     module.status().message()));
  if (mlir::failed(mlir::verify(**module)))
    return gevo::reportBadInput(
        "internal: the imported module does not verify");
  std::string out = outputPath == "-" ? "-" : gevo::resolveUserPath(outputPath);
  if (absl::Status written = gevo::writeOutput(out, *text); !written.ok())
    return gevo::reportBadInput(std::string(written.message()));
  return 0;
}
