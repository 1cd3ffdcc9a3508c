//===- find_op_testing.h - Tests' lookup of an op by name and ordinal -----===//
//
// Tests name the op they edit the way addresses do ("linalg.generic", 0):
// this finds it and its address in a module, for the shrink and retune tests.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_FIND_OP_TESTING_H
#define GEVO_IR_FIND_OP_TESTING_H

#include <optional>
#include <string>
#include <utility>

#include "gevo/ir/op_address.h"
#include "mlir/IR/BuiltinOps.h"

namespace gevo {

/// The op named `name#ordinal` in `module`, and its address; nullopt when
/// the module has none.
inline std::optional<std::pair<mlir::Operation *, OpRef>>
findOp(mlir::ModuleOp module, const std::string &name, int ordinal) {
  AddressIndex index(module);
  for (mlir::Operation *op : index.ops()) {
    std::optional<OpRef> found = index.refOf(op);
    if (found && found->opName == name && found->ordinal == ordinal)
      return std::make_pair(op, *found);
  }
  return std::nullopt;
}

} // namespace gevo

#endif // GEVO_IR_FIND_OP_TESTING_H
