//===- mlir_support.cc - MLIR contexts, module parsing, diagnostics -------===//

#include "gevo/ir/mlir_support.h"

#include "gevo/ir/escape.h"
#include "gevo/ir/nesting_guard.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/SourceMgr.h"

namespace gevo {
namespace {

void registerPassesOnce() {
  static const bool registered = [] {
    mlir::registerAllPasses();
    return true;
  }();
  (void)registered;
}

const char *severityName(mlir::DiagnosticSeverity severity) {
  switch (severity) {
  case mlir::DiagnosticSeverity::Error:
    return "error";
  case mlir::DiagnosticSeverity::Warning:
    return "warning";
  case mlir::DiagnosticSeverity::Note:
    return "note";
  case mlir::DiagnosticSeverity::Remark:
    return "remark";
  }
  return "error";
}

} // namespace

std::unique_ptr<mlir::MLIRContext> createContext() {
  registerPassesOnce();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllToLLVMIRTranslations(registry);
  auto context = std::make_unique<mlir::MLIRContext>(
      registry, mlir::MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  return context;
}

std::string formatLocation(mlir::Location location) {
  if (auto file = llvm::dyn_cast<mlir::FileLineColLoc>(location))
    return absl::StrCat(file.getFilename().str(), ":", file.getLine(), ":",
                        file.getColumn());
  if (auto named = llvm::dyn_cast<mlir::NameLoc>(location))
    return formatLocation(named.getChildLoc());
  if (auto callSite = llvm::dyn_cast<mlir::CallSiteLoc>(location))
    return formatLocation(callSite.getCallee());
  if (auto fused = llvm::dyn_cast<mlir::FusedLoc>(location)) {
    for (mlir::Location inner : fused.getLocations()) {
      std::string text = formatLocation(inner);
      if (!text.empty() && text != "unknown")
        return text;
    }
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  location.print(os);
  return text == "loc(unknown)" ? "unknown" : text;
}

DiagnosticCollector::DiagnosticCollector(mlir::MLIRContext &context)
    : context(context) {
  handlerId =
      context.getDiagEngine().registerHandler([this](mlir::Diagnostic &diag) {
        // One line per diagnostic: its notes follow in parentheses.
        if (!collected.empty())
          collected += "\n";
        // Diagnostics quote the input: escape its control bytes.
        absl::StrAppend(&collected,
                        escapeForMessage(formatLocation(diag.getLocation())),
                        ": ", severityName(diag.getSeverity()), ": ",
                        escapeForMessage(diag.str()));
        for (mlir::Diagnostic &note : diag.getNotes())
          absl::StrAppend(&collected, " (",
                          escapeForMessage(formatLocation(note.getLocation())),
                          ": note: ", escapeForMessage(note.str()), ")");
        return mlir::success();
      });
}

DiagnosticCollector::~DiagnosticCollector() {
  context.getDiagEngine().eraseHandler(handlerId);
}

std::string DiagnosticCollector::message(const std::string &fallback) const {
  return collected.empty() ? fallback : collected;
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
parseModule(mlir::MLIRContext &context, const std::string &text,
            const std::string &bufferName) {
  // Refuse text nested deeper than the parser's recursion can take.
  if (absl::Status nesting = checkNesting(text, bufferName); !nesting.ok())
    return nesting;
  DiagnosticCollector diagnostics(context);
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, bufferName), llvm::SMLoc());
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, &context);
  if (!module)
    return absl::InvalidArgumentError(
        diagnostics.message(absl::StrCat(bufferName, ": cannot parse MLIR")));
  return module;
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadModule(mlir::MLIRContext &context, const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return absl::NotFoundError(absl::StrCat(
        path, ": cannot open MLIR file: ", buffer.getError().message()));
  return parseModule(context, (*buffer)->getBuffer().str(), path);
}

bool writeModuleBytecode(mlir::ModuleOp module, std::string &out) {
  llvm::raw_string_ostream stream(out);
  bool written = mlir::succeeded(mlir::writeBytecodeToFile(module, stream));
  stream.flush();
  return written;
}

mlir::OwningOpRef<mlir::ModuleOp>
readModuleBytecode(llvm::StringRef bytes, mlir::MLIRContext &context) {
  mlir::Block block;
  mlir::ParserConfig config(&context);
  if (mlir::failed(mlir::readBytecodeFile(
          llvm::MemoryBufferRef(bytes, "variant"), &block, config)) ||
      !llvm::hasSingleElement(block))
    return nullptr;
  auto module = llvm::dyn_cast<mlir::ModuleOp>(block.front());
  if (!module)
    return nullptr;
  module->remove();
  return module;
}

mlir::OwningOpRef<mlir::ModuleOp> copyIntoContext(mlir::ModuleOp module,
                                                  mlir::MLIRContext &context) {
  std::string bytes;
  if (!writeModuleBytecode(module, bytes))
    return nullptr;
  return readModuleBytecode(bytes, context);
}

} // namespace gevo
