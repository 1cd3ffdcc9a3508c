//===- mlir_support.h - MLIR contexts, module parsing, diagnostics as Status
//==//
//
// The one place that knows which dialects and passes gevo-ml registers, and
// how MLIR diagnostics become `absl::Status` messages of the form
// `file:line:col: error: ...` (one line per diagnostic).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_MLIR_SUPPORT_H
#define GEVO_IR_MLIR_SUPPORT_H

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace gevo {

/// A context with every upstream dialect, interface and translation
/// registered, multithreading off (per-variant work is small and the
/// evaluator parallelises across processes instead).
std::unique_ptr<mlir::MLIRContext> createContext();

/// Parses MLIR text; `bufferName` names the source in error messages. Text
/// nested deeper than kMaxMlirNesting (nesting_guard.h) is refused before
/// parsing, so hostile input cannot overflow the parser's stack.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
parseModule(mlir::MLIRContext &context, const std::string &text,
            const std::string &bufferName);

/// Reads and parses an MLIR file.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadModule(mlir::MLIRContext &context, const std::string &path);

/// `module` as bytecode, appended to `out`; false where it cannot be
/// written.
bool writeModuleBytecode(mlir::ModuleOp module, std::string &out);
/// The module `bytes` (bytecode) hold, read into `context` and verified;
/// null where it does not read.
mlir::OwningOpRef<mlir::ModuleOp>
readModuleBytecode(llvm::StringRef bytes, mlir::MLIRContext &context);

/// `module` (of another context) copied into `context` through its
/// bytecode; null when either step fails.
mlir::OwningOpRef<mlir::ModuleOp> copyIntoContext(mlir::ModuleOp module,
                                                  mlir::MLIRContext &context);

/// "file:line:col" for a location that has one (looking through fused, named
/// and call-site locations), otherwise the printed location.
std::string formatLocation(mlir::Location location);

/// Collects the diagnostics emitted while it lives, one line each, so that a
/// failed step can report them as a Status.
class DiagnosticCollector {
public:
  explicit DiagnosticCollector(mlir::MLIRContext &context);
  ~DiagnosticCollector();
  /// All collected lines joined by newlines; `fallback` when there are none.
  std::string message(const std::string &fallback) const;

private:
  mlir::MLIRContext &context;
  uint64_t handlerId;
  std::string collected;
};

} // namespace gevo

#endif // GEVO_IR_MLIR_SUPPORT_H
