//===- clone_support.h - What the copy and replace operators share --------===//
//
// Both clone an op (copy_operator.cc: before another op, replace_operator.cc:
// in place of another op, which is erased): which ops can be cloned, how
// the clone's operands are chosen, and the structural change itself.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_CLONE_SUPPORT_H
#define GEVO_IR_CLONE_SUPPORT_H

#include <vector>

#include "absl/status/status.h"
#include "gevo/ir/mutation_support.h"

namespace gevo {

/// Ops that can be cloned: movable, with results, allowed by `options`.
std::vector<mlir::Operation *> cloneSources(const AddressIndex &index,
                                            const MutationOptions &options);

/// The clone's operands (`new[k]` rewires): one still visible is kept half of
/// the time, the others take chooseValue()'s choice among `visible`.
absl::Status rewireClone(const AddressIndex &index, mlir::Operation *source,
                         const std::vector<mlir::Value> &visible, Rng &rng,
                         Edit &edit);

/// A clone of `source` inserted just before `before`.
mlir::Operation *insertClone(mlir::Operation *source, mlir::Operation *before);

} // namespace gevo

#endif // GEVO_IR_CLONE_SUPPORT_H
