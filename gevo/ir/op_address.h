//===- op_address.h - Naming ops and values in fresh MLIR -----------------===//
//
// Addresses are computed from the module alone, so a patch applies to MLIR
// that was never tagged: an op is `@func/op.name#ordinal~fingerprint`, where
// the ordinal counts ops of that name in the function in pre-order and the
// fingerprint hashes the op's name, result types, attributes and where its
// operands come from (producer op name and result number, or argument number).
// SSA names, comments and formatting do not enter.
//
// Addressable: every op nested in a func.func, except the ops inside the
// implicit bodies of named linalg ops (linalg.matmul's body is not printed,
// so it cannot be named); the named op itself is addressable.
//
// Resolution re-anchors like `patch` with fuzz: when the op at the ordinal
// does not carry the fingerprint, the nearest op of that name that does is
// taken (fuzz = ordinal distance); no candidate or a tie is an error, and so
// is a candidate further than the fuzz limit (a far-off ordinal is more likely
// a different op than the same one moved).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_OP_ADDRESS_H
#define GEVO_IR_OP_ADDRESS_H

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
class IRMapping;
} // namespace mlir

namespace gevo {

uint32_t fingerprintOf(mlir::Operation *op);

/// A 16-hex-digit hash of the module's canonical printed form (no locations):
/// equal for a file and its re-printed or re-named copies. `module` must
/// verify (a parsed module does, and so does every state applyEdit leaves on
/// success): it is printed without verifying it again.
std::string modelFingerprint(mlir::ModuleOp module);

/// Whether an op sits in a named linalg op's implicit body (not addressable).
bool isInImplicitBody(mlir::Operation *op);

/// Every addressable op of a module, and the address of each.
class AddressIndex {
public:
  /// `maxFuzz`: how far resolve() may re-anchor an address.
  explicit AddressIndex(mlir::ModuleOp module, int maxFuzz = kDefaultMaxFuzz);
  /// The index of `copy`, a clone of the module `original` indexes made
  /// with `mapping` (the original's ops to the copy's): the same addresses,
  /// nothing printed again.
  AddressIndex(mlir::ModuleOp copy, const AddressIndex &original,
               const mlir::IRMapping &mapping);

  /// The address of an addressable op; nullopt for others.
  std::optional<OpRef> refOf(mlir::Operation *op) const;
  /// A name for a value, if it has one (results of addressable ops, function
  /// arguments, entry-block arguments of addressable ops).
  std::optional<ValueRef> refOf(mlir::Value value) const;
  /// Whether refOf(value) has a name, without building it (cheap: the
  /// mutation operators ask it of every visible value).
  bool hasRef(mlir::Value value) const;

  struct Resolved {
    mlir::Operation *op = nullptr;
    int fuzz = 0; // |ordinal found - ordinal recorded|
  };
  /// Finds the op an address names; errors say which address and why (gone,
  /// ambiguous, or only further than the fuzz limit).
  absl::StatusOr<Resolved> resolve(const OpRef &ref) const;
  /// Finds a value (not NewResult/Constant, which the caller handles).
  absl::StatusOr<mlir::Value> resolve(const ValueRef &ref, int *fuzz) const;

  /// All addressable ops in pre-order, per function.
  const std::vector<mlir::Operation *> &ops() const { return allOps; }

private:
  mutable mlir::ModuleOp module;
  int maxFuzz;
  std::vector<mlir::Operation *> allOps;
  llvm::DenseMap<mlir::Operation *, OpRef> refs;
  // function -> op name -> ops in pre-order
  std::map<std::string, std::map<std::string, std::vector<mlir::Operation *>>>
      byName;
};

/// `//gevo:mutate --list`: the model fingerprint, then one line per
/// addressable op, its address and its first printed line (regions skipped).
/// Names are numbered once for the module, so it takes linear time.
void printAddressList(mlir::ModuleOp module, const AddressIndex &index,
                      llvm::raw_ostream &os);

} // namespace gevo

#endif // GEVO_IR_OP_ADDRESS_H
