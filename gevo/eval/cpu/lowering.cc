//===- lowering.cc - Tensor-level MLIR to the LLVM dialect ----------------===//

#include "gevo/eval/cpu/lowering.h"

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gevo/eval/cpu/outline_kernels.h"
#include "gevo/eval/cpu/vector_schedule.h"
#include "gevo/eval/cuda/cuda_pipeline.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/message_lines.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/text_hash.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace gevo {

const char kPlainCpuPipeline[] =
    "inline, canonicalize, "
    "one-shot-bufferize{bufferize-function-boundaries=1 "
    "function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops=1}, "
    "buffer-deallocation-pipeline, convert-bufferization-to-memref, "
    "convert-linalg-to-loops, "
    "convert-scf-to-cf, expand-strided-metadata, lower-affine, "
    "convert-to-llvm, reconcile-unrealized-casts";

const char kVectorCpuPipeline[] =
    "inline{default-pipeline=}, canonicalize, "
    "one-shot-bufferize{bufferize-function-boundaries=1 "
    "function-boundary-type-conversion=identity-layout-map "
    "allow-return-allocs-from-loops=1}, "
    "buffer-deallocation-pipeline, convert-bufferization-to-memref, "
    "gevo-outline-kernels, gevo-vectorize, "
    "gevo-lower-vectors, convert-vector-to-scf, convert-linalg-to-loops, "
    "convert-scf-to-cf, expand-strided-metadata, lower-affine, "
    "convert-vector-to-llvm, convert-to-llvm, reconcile-unrealized-casts";

PipelineChoice resolvePipeline(const std::string &pipeline) {
  std::string text(absl::StripAsciiWhitespace(pipeline));
  if (text.empty() || text == kVectorPipelineName)
    return {kVectorPipelineName, kVectorCpuPipeline, kPlainCpuPipeline};
  if (text == kPlainPipelineName)
    return {kPlainPipelineName, kPlainCpuPipeline, ""};
  return {"custom", pipeline, ""};
}

namespace {

/// `builtin.module(a, b)` -> `a, b`: the pass manager is already anchored on
/// the module, and parsing the wrapper there would nest it and run nothing.
std::string stripModuleAnchor(const std::string &pipeline) {
  std::string text(absl::StripAsciiWhitespace(pipeline));
  constexpr absl::string_view kAnchor = "builtin.module(";
  if (absl::StartsWith(text, kAnchor) && absl::EndsWith(text, ")"))
    return text.substr(kAnchor.size(), text.size() - kAnchor.size() - 1);
  return text;
}

absl::Status buildPassManager(mlir::PassManager &pm,
                              const std::string &pipeline) {
  registerVectorSchedulePasses();
  registerOutlineKernelsPass();
  registerCudaPipelinePasses();
  std::string error;
  llvm::raw_string_ostream errorStream(error);
  if (mlir::succeeded(mlir::parsePassPipeline(stripModuleAnchor(pipeline), pm,
                                              errorStream)))
    return absl::OkStatus();
  // The parser reports "MLIR Textual PassPipeline Parser:1:N: error: ..."
  // followed by the pipeline and a caret; keep one line, named for the flag.
  std::string firstLine = error.substr(0, error.find('\n'));
  constexpr absl::string_view kParserName = "MLIR Textual PassPipeline Parser";
  if (absl::StartsWith(firstLine, kParserName))
    return absl::InvalidArgumentError(
        absl::StrCat("--pipeline", firstLine.substr(kParserName.size()),
                     " (in '", pipeline, "')"));
  return absl::InvalidArgumentError(absl::StrCat(
      "--pipeline: error: cannot parse '", pipeline, "': ", firstLine));
}

/// Runs `pm`; with `verifyAtEnd` (for a pass manager that does not verify
/// after each pass) also checks that the result verifies.
absl::Status runPasses(mlir::PassManager &pm, mlir::ModuleOp module,
                       bool verifyAtEnd) {
  DiagnosticCollector diagnostics(*module.getContext());
  if (mlir::failed(pm.run(module)) ||
      (verifyAtEnd && mlir::failed(mlir::verify(module))))
    return absl::InvalidArgumentError(
        diagnostics.message("lowering failed without a diagnostic"));
  return absl::OkStatus();
}

/// Runs `pm` and checks that only the LLVM dialect is left.
absl::Status runToLLVMDialect(mlir::PassManager &pm, mlir::ModuleOp module,
                              bool verifyAtEnd = false) {
  if (absl::Status status = runPasses(pm, module, verifyAtEnd); !status.ok())
    return status;
  mlir::Operation *leftOver = nullptr;
  module.walk([&](mlir::Operation *op) {
    if (op == module.getOperation() ||
        (op->getDialect() &&
         llvm::isa<mlir::LLVM::LLVMDialect>(op->getDialect())))
      return mlir::WalkResult::advance();
    leftOver = op;
    return mlir::WalkResult::interrupt();
  });
  if (leftOver)
    return absl::InvalidArgumentError(absl::StrCat(
        formatLocation(leftOver->getLoc()), ": error: the pipeline left '",
        leftOver->getName().getStringRef().str(),
        "' unlowered; the JIT needs a module in the LLVM dialect only"));
  return absl::OkStatus();
}

/// `passes` cut after gevo-outline-kernels (outline_kernels.h): the passes
/// up to it and those after it; no cut (second empty) where it is not one
/// of the top-level passes or is the last.
std::pair<std::string, std::string>
cutAfterOutlining(const std::string &passes) {
  std::string text = stripModuleAnchor(passes);
  const std::string name = kOutlineKernelsPass;
  for (size_t at = text.find(name); at != std::string::npos;
       at = text.find(name, at + 1)) {
    size_t end = at + name.size();
    bool starts = at == 0 || text[at - 1] == ',' || text[at - 1] == ' ';
    if (!starts || end >= text.size() || text[end] != ',')
      continue;
    return {text.substr(0, end),
            std::string(absl::StripAsciiWhitespace(text.substr(end + 1)))};
  }
  return {text, ""};
}

} // namespace

absl::Status checkPipeline(mlir::MLIRContext &context,
                           const std::string &pipeline) {
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  return buildPassManager(pm, resolvePipeline(pipeline).passes);
}

absl::StatusOr<std::unique_ptr<Lowering>>
Lowering::create(mlir::MLIRContext &context, const std::string &pipeline) {
  return create(context, resolvePipeline(pipeline));
}

absl::StatusOr<std::unique_ptr<Lowering>>
Lowering::create(mlir::MLIRContext &context, const PipelineChoice &choice) {
  std::unique_ptr<Lowering> lowering(new Lowering());
  lowering->pipelineChoice = choice;
  lowering->passManager = std::make_unique<mlir::PassManager>(
      &context, mlir::ModuleOp::getOperationName());
  auto [head, tail] = cutAfterOutlining(choice.passes);
  GEVO_RETURN_IF_ERROR(buildPassManager(*lowering->passManager,
                                        tail.empty() ? choice.passes : head));
  if (!tail.empty()) {
    lowering->tailManager = std::make_unique<mlir::PassManager>(
        &context, mlir::ModuleOp::getOperationName());
    GEVO_RETURN_IF_ERROR(buildPassManager(*lowering->tailManager, tail));
    lowering->kernelSalt = hashText(tail);
  }
  // Verifying after each of ~25 passes costs ~12% of the vector pipeline's
  // CPU time; it verifies once at the end instead, and a failure there falls
  // back like any other.
  if (!choice.fallbackPasses.empty()) {
    lowering->passManager->enableVerifier(false);
    if (lowering->tailManager)
      lowering->tailManager->enableVerifier(false);
  }
  if (!choice.fallbackPasses.empty()) {
    lowering->fallbackManager = std::make_unique<mlir::PassManager>(
        &context, mlir::ModuleOp::getOperationName());
    GEVO_RETURN_IF_ERROR(
        buildPassManager(*lowering->fallbackManager, choice.fallbackPasses));
  }
  return lowering;
}

Lowering::~Lowering() = default;

void Lowering::addInstrumentation(
    const std::function<std::unique_ptr<mlir::PassInstrumentation>()> &make) {
  passManager->addInstrumentation(make());
  if (tailManager)
    tailManager->addInstrumentation(make());
  if (fallbackManager)
    fallbackManager->addInstrumentation(make());
}

absl::Status Lowering::runFirstChoice(mlir::ModuleOp module, bool verifyAtEnd,
                                      const CompiledKernels &compiled) {
  if (!tailManager)
    return runToLLVMDialect(*passManager, module, verifyAtEnd);
  module->setAttr(kKernelSaltAttr,
                  mlir::StringAttr::get(module.getContext(), kernelSalt));
  // Verified once, after the rest (verifyAtEnd), not here as well.
  if (absl::Status status = runPasses(*passManager, module, false);
      !status.ok())
    return status;
  if (compiled)
    dropCompiledKernels(module, compiled);
  return runToLLVMDialect(*tailManager, module, verifyAtEnd);
}

absl::Status Lowering::run(mlir::ModuleOp module, LoweringNote *note,
                           const CompiledKernels &compiled) {
  LoweringNote local;
  LoweringNote &out = note ? *note : local;
  out = LoweringNote{pipelineChoice.name, ""};
  if (!fallbackManager)
    return runFirstChoice(module, false, compiled);
  // The passes rewrite the module in place: keep what the fallback starts
  // from.
  mlir::OwningOpRef<mlir::ModuleOp> original = module.clone();
  absl::Status status = runFirstChoice(module, /*verifyAtEnd=*/true, compiled);
  if (status.ok())
    return status;
  out.fallbackReason = firstLine(status.message());
  if (out.fallbackReason.empty())
    out.fallbackReason = "the vector pipeline failed";
  out.loweredWith = kPlainPipelineName;
  module.getBodyRegion().takeBody(original->getBodyRegion());
  module->setAttrs(original.get()->getAttrDictionary());
  return runToLLVMDialect(*fallbackManager, module);
}

absl::Status lowerToLLVMDialect(mlir::ModuleOp module,
                                const std::string &pipeline,
                                LoweringNote *note) {
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<Lowering> lowering,
                        Lowering::create(*module.getContext(), pipeline));
  return lowering->run(module, note);
}

} // namespace gevo
