//===- static_safety.h - What an edit may not do to a module, proven ------===//
//
// The static check every edit passes before it is accepted (applyEdit, so
// search, replay and builds agree): index values that reach a tensor or
// memref access, a slice or an scf.for stay in bounds of the module's static
// shapes (MLIR's integer range analysis), loop steps stay positive and loop
// nests bounded, no new call reaches a function without a body, and nothing
// writes into a function's argument. No MLIR headers.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_STATIC_SAFETY_H
#define GEVO_IR_STATIC_SAFETY_H

#include <cstdint>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
class Operation;
} // namespace mlir

namespace gevo {

/// The most times the body of any loop nest may run (the product of the trip
/// counts of an scf.for and the scf.for loops around it): 2^24.
constexpr int64_t kDefaultMaxLoopIterations = int64_t(1) << 24;

struct SafetyOptions {
  /// Off: nothing is checked (benchmarks that measure the check itself).
  bool check = true;
  /// Whether an edit may add a call to a function that has no body (a
  /// declaration the program links against).
  bool allowExternalCalls = false;
  int64_t maxLoopIterations = kDefaultMaxLoopIterations;
};

/// Something about one op of a module that is not proven safe.
struct SafetyFinding {
  enum class Kind { Access, LoopStep, LoopTrips, ExternalCall, ArgumentWrite };
  /// Unproven: it depends on a dynamic shape or a caller's scalar argument,
  /// so nothing static can decide it; Unsafe: everything it depends on is
  /// static, yet it cannot be proven in bounds (or it is a call or a write
  /// the rules refuse).
  enum class Level { Unproven, Unsafe };
  mlir::Operation *op = nullptr;
  Kind kind = Kind::Access;
  Level level = Level::Unsafe;
  /// What is wrong, without the op's address ("index 0 is in [361, 361],
  /// outside [0, 359] of tensor<360x64xf32>").
  std::string message;
};

/// Every finding in `module`, in pre-order. Ops in code the analysis proves
/// dead (a loop that runs no iteration, a function never called) have none.
std::vector<SafetyFinding> findSafetyProblems(mlir::ModuleOp module,
                                              const SafetyOptions &options);

} // namespace gevo

#endif // GEVO_IR_STATIC_SAFETY_H
