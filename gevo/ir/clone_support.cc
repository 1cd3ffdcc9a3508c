//===- clone_support.cc - What the copy and replace operators share -------===//

#include "gevo/ir/clone_support.h"

#include <algorithm>

#include "gevo/support/status_macros.h"

namespace gevo {

std::vector<mlir::Operation *> cloneSources(const AddressIndex &index,
                                            const MutationOptions &options) {
  return candidates(index, options, [](mlir::Operation *op) {
    return isMovable(op) && op->getNumResults() > 0;
  });
}

absl::Status rewireClone(const AddressIndex &index, mlir::Operation *source,
                         const std::vector<mlir::Value> &visible, Rng &rng,
                         Edit &edit) {
  for (mlir::OpOperand &operand : source->getOpOperands()) {
    mlir::Value current = operand.get();
    bool isVisible =
        std::find(visible.begin(), visible.end(), current) != visible.end();
    if (isVisible && chance(0.5, rng))
      continue;
    Rewire rewire;
    rewire.userIsNew = true;
    rewire.operand = static_cast<int>(operand.getOperandNumber());
    GEVO_RETURN_IF_ERROR(
        chooseValue(index, visible, current.getType(), nullptr, rng, rewire));
    edit.rewires.push_back(rewire);
  }
  return absl::OkStatus();
}

mlir::Operation *insertClone(mlir::Operation *source, mlir::Operation *before) {
  mlir::Operation *created = source->clone();
  before->getBlock()->getOperations().insert(before->getIterator(), created);
  return created;
}

} // namespace gevo
