//===- entry_signature.cc - The tensor types an entry function uses -------===//

#include "gevo/eval/entry_signature.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gevo/ir/mlir_support.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

namespace gevo {
namespace {

absl::StatusOr<TensorSpec> toTensorSpec(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor)
    return absl::InvalidArgumentError("is not a ranked tensor");
  TensorSpec spec;
  mlir::Type element = tensor.getElementType();
  if (element.isF32())
    spec.type = ElementType::F32;
  else if (element.isF64())
    spec.type = ElementType::F64;
  else if (element.isSignlessInteger(32))
    spec.type = ElementType::I32;
  else if (element.isSignlessInteger(64))
    spec.type = ElementType::I64;
  else
    return absl::InvalidArgumentError("has an element type other than f32, "
                                      "f64, i32 or i64");
  for (int64_t dim : tensor.getShape())
    spec.shape.push_back(mlir::ShapedType::isDynamic(dim) ? TensorSpec::kDynamic
                                                          : dim);
  return spec;
}

std::string printType(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

} // namespace

absl::StatusOr<EntrySignature> readEntrySignature(mlir::ModuleOp module,
                                                  const std::string &entry) {
  auto func = module.lookupSymbol<mlir::func::FuncOp>(entry);
  if (!func)
    return absl::InvalidArgumentError(
        absl::StrCat(formatLocation(module.getLoc()),
                     ": error: the module has no func.func @", entry,
                     " (the workload's entry function)"));
  if (func.isExternal())
    return absl::InvalidArgumentError(
        absl::StrCat(formatLocation(func.getLoc()), ": error: @", entry,
                     " is a declaration without a body"));
  EntrySignature signature;
  signature.name = entry;
  signature.location = formatLocation(func.getLoc());
  mlir::FunctionType type = func.getFunctionType();
  auto collect = [&](llvm::ArrayRef<mlir::Type> types, const char *what,
                     std::vector<TensorSpec> &out) -> absl::Status {
    for (size_t i = 0; i < types.size(); ++i) {
      absl::StatusOr<TensorSpec> spec = toTensorSpec(types[i]);
      if (!spec.ok())
        return absl::InvalidArgumentError(absl::StrCat(
            signature.location, ": error: ", what, " #", i, " of @", entry,
            " (", printType(types[i]), ") ", spec.status().message()));
      out.push_back(*spec);
    }
    return absl::OkStatus();
  };
  if (absl::Status status =
          collect(type.getInputs(), "argument", signature.arguments);
      !status.ok())
    return status;
  if (absl::Status status =
          collect(type.getResults(), "result", signature.results);
      !status.ok())
    return status;
  return signature;
}

void requestCInterface(mlir::ModuleOp module, const std::string &entry) {
  if (auto func = module.lookupSymbol<mlir::func::FuncOp>(entry))
    func->setAttr("llvm.emit_c_interface",
                  mlir::UnitAttr::get(module.getContext()));
}

} // namespace gevo
