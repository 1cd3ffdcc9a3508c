//===- cuda_lower_main.cc - gevo-cuda-lower: the GPU target without a GPU -===//
//
// Prints what the GPU target makes of a module: the host code and kernels
// after outlining (--stage=kernels), or the fully lowered module with its
// serialised kernels (--stage=binary), and writes each kernel object (PTX,
// cubin or fatbin) to --objects-dir. No GPU is needed; a cubin needs ptxas.
// Exit codes: 0 ok, 2 bad input or a pipeline that fails, 1 internal.
//
//===----------------------------------------------------------------------===//

#include <string>

#include "absl/strings/str_cat.h"
#include "gevo/eval/cuda/cuda_pipeline.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

namespace {

llvm::cl::OptionCategory category("gevo-cuda-lower options");

llvm::cl::opt<std::string> input(llvm::cl::Positional,
                                 llvm::cl::desc("<module.mlir>"),
                                 llvm::cl::Required, llvm::cl::cat(category));

llvm::cl::opt<std::string>
    stage("stage",
          llvm::cl::desc("'kernels' (after outlining) or 'binary' (default)"),
          llvm::cl::init("binary"), llvm::cl::cat(category));

llvm::cl::opt<std::string>
    format("format", llvm::cl::desc("ptx, cubin or fatbin (default)"),
           llvm::cl::init("fatbin"), llvm::cl::cat(category));

llvm::cl::opt<std::string>
    chip("chip", llvm::cl::desc("GPU architecture (default sm_90)"),
         llvm::cl::init("sm_90"), llvm::cl::cat(category));

llvm::cl::opt<std::string> objectsDir(
    "objects-dir",
    llvm::cl::desc("Write each kernel module's object here as "
                   "<module>.<ptx|cubin|fatbin>; created if missing"),
    llvm::cl::value_desc("dir"), llvm::cl::cat(category));

llvm::cl::opt<bool> quiet("quiet",
                          llvm::cl::desc("Do not print the lowered module"),
                          llvm::cl::cat(category));

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(argc, argv, "gevo-cuda-lower\n");
  gevo::CudaChip target;
  target.chip = chip;
  if (format == "ptx")
    target.format = gevo::CudaBinaryFormat::kPtx;
  else if (format == "cubin")
    target.format = gevo::CudaBinaryFormat::kCubin;
  else if (format != "fatbin")
    return gevo::reportBadInput(
        "--format: expected ptx, cubin or fatbin, got '" + format + "'");
  if (stage != "kernels" && stage != "binary")
    return gevo::reportBadInput("--stage: expected kernels or binary, got '" +
                                stage + "'");
  if (stage == "binary") {
    absl::Status toolkit = gevo::prepareCudaToolkit(target);
    if (!toolkit.ok())
      return gevo::reportBadInput(absl::StrCat("--format=", std::string(format),
                                               ": ", toolkit.message()));
  }

  std::unique_ptr<mlir::MLIRContext> context = gevo::createContext();
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      gevo::loadModule(*context, gevo::resolveUserPath(input));
  if (!module.ok())
    return gevo::reportBadInput(std::string(module.status().message()));
  gevo::registerCudaPipelinePasses();
  std::string passes = stage == "kernels" ? gevo::cudaKernelPipeline()
                                          : gevo::cudaPipeline(target);
  mlir::PassManager pm(context.get(), mlir::ModuleOp::getOperationName());
  std::string parseError;
  llvm::raw_string_ostream parseStream(parseError);
  if (mlir::failed(mlir::parsePassPipeline(passes, pm, parseStream))) {
    llvm::errs() << "internal error: the CUDA pipeline does not parse: "
                 << parseError << "\n";
    return 1;
  }
  gevo::DiagnosticCollector diagnostics(*context);
  if (mlir::failed(pm.run(**module)))
    return gevo::reportBadInput(
        diagnostics.message("the CUDA pipeline failed without a diagnostic"));

  if (!objectsDir.empty()) {
    absl::Status made = gevo::makeDirectory(gevo::resolveUserPath(objectsDir));
    if (!made.ok())
      return gevo::reportBadInput(std::string(made.message()));
    std::string extension = format;
    for (auto binary : (*module)->getOps<mlir::gpu::BinaryOp>()) {
      for (mlir::Attribute attribute : binary.getObjects()) {
        auto object = llvm::cast<mlir::gpu::ObjectAttr>(attribute);
        std::string path = absl::StrCat(gevo::resolveUserPath(objectsDir), "/",
                                        binary.getName().str(), ".", extension);
        absl::Status written =
            gevo::writeOutput(path, object.getObject().getValue().str());
        if (!written.ok())
          return gevo::reportBadInput(std::string(written.message()));
      }
    }
  }
  if (!quiet)
    (*module)->print(llvm::outs());
  return 0;
}
