//===- rate_seeds.cc - Learning-rate sweeps where a search can start ------===//
//
// learningRateSeeds() (mutation.h): the step sizes of gradient-descent
// updates written out in the IR, found by their shape alone, each doubled
// and halved.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <optional>
#include <string>

#include "absl/strings/str_format.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/mutation_support.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

namespace gevo {

namespace {

/// The shortest decimal that reads back as `value` in `type`'s precision
/// (0.2, not 0.200000003, for an f32).
std::string shortestLiteral(double value, mlir::FloatType type) {
  bool narrow = type.getWidth() <= 32;
  for (int digits = 1; digits < 17; ++digits) {
    std::string text = absl::StrFormat("%.*g", digits, value);
    double back = std::strtod(text.c_str(), nullptr);
    if (narrow ? static_cast<float>(back) == static_cast<float>(value)
               : back == value)
      return text;
  }
  return absl::StrFormat("%.17g", value);
}

/// The value of `op` when it is a non-zero scalar float constant used only
/// as a factor of steps that are subtracted from something (`w - c * g`,
/// plain SGD's update, wherever it is written: in a loop, in a linalg body);
/// nullopt otherwise.
std::optional<double> stepSize(mlir::Operation *op) {
  auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(op);
  if (!constant)
    return std::nullopt;
  auto attr = llvm::dyn_cast<mlir::FloatAttr>(constant.getValue());
  if (!attr || attr.getValueAsDouble() == 0 || constant->use_empty())
    return std::nullopt;
  for (mlir::Operation *user : constant->getUsers()) {
    if (!llvm::isa<mlir::arith::MulFOp>(user) || user->use_empty())
      return std::nullopt;
    for (mlir::OpOperand &use : user->getResult(0).getUses())
      if (!llvm::isa<mlir::arith::SubFOp>(use.getOwner()) ||
          use.getOperandNumber() != 1)
        return std::nullopt;
  }
  return attr.getValueAsDouble();
}

} // namespace

std::vector<Edit> learningRateSeeds(mlir::ModuleOp module,
                                    const MutationOptions &options) {
  if (!allowsKind(options, EditKind::Constant))
    return {};
  std::vector<Edit> proposed;
  AddressIndex index(module);
  for (mlir::Operation *op :
       candidates(index, options, [](mlir::Operation *op) {
         return llvm::isa<mlir::arith::ConstantOp>(op);
       })) {
    std::optional<double> rate = stepSize(op);
    if (!rate)
      continue;
    auto type = llvm::cast<mlir::FloatType>(op->getResult(0).getType());
    for (double factor : {2.0, 0.5}) {
      Edit edit;
      edit.kind = EditKind::Constant;
      edit.target = *index.refOf(op);
      edit.literal = shortestLiteral(*rate * factor, type);
      proposed.push_back(std::move(edit));
    }
  }
  return applicableSeeds(module, std::move(proposed));
}

} // namespace gevo
