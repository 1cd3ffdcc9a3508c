//===- numeric_types.cc - Which types repairs and constants handle --------===//

#include "gevo/ir/numeric_types.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {

bool isNumericScalar(mlir::Type type) { return type.isIntOrIndexOrFloat(); }

bool isStaticNumericTensor(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() &&
         isNumericScalar(tensor.getElementType());
}

std::string typeText(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

} // namespace gevo
