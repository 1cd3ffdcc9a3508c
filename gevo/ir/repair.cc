//===- repair.cc - Type and shape repair for rewired values ---------------===//

#include "gevo/ir/repair.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/ir/constant_literal.h"
#include "gevo/ir/numeric_types.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"

namespace gevo {
namespace {

using Kind = RepairStep::Kind;

RepairStep castTo(mlir::Type element) {
  RepairStep step;
  step.kind = Kind::Cast;
  step.type = typeText(element);
  return step;
}

RepairStep withShape(Kind kind, llvm::ArrayRef<int64_t> shape) {
  RepairStep step;
  step.kind = kind;
  step.shape.assign(shape.begin(), shape.end());
  return step;
}

/// Converts a scalar or tensor between element types with arith casts.
mlir::Value castElements(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::Value value, mlir::Type toElement) {
  mlir::Type fromElement = mlir::getElementTypeOrSelf(value.getType());
  if (fromElement == toElement)
    return value;
  auto withElement = [&](mlir::Type element) -> mlir::Type {
    if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(value.getType()))
      return tensor.clone(element);
    return element;
  };
  // Index goes through i64 first.
  if (fromElement.isIndex()) {
    value = mlir::arith::IndexCastOp::create(
        b, loc, withElement(b.getI64Type()), value);
    fromElement = b.getI64Type();
    if (fromElement == toElement)
      return value;
  }
  mlir::Type target = toElement.isIndex() ? b.getI64Type() : toElement;
  mlir::Type type = withElement(target);
  if (llvm::isa<mlir::FloatType>(fromElement) &&
      llvm::isa<mlir::FloatType>(target)) {
    if (fromElement.getIntOrFloatBitWidth() < target.getIntOrFloatBitWidth())
      value = mlir::arith::ExtFOp::create(b, loc, type, value);
    else
      value = mlir::arith::TruncFOp::create(b, loc, type, value);
  } else if (llvm::isa<mlir::FloatType>(fromElement)) {
    value = mlir::arith::FPToSIOp::create(b, loc, type, value);
  } else if (llvm::isa<mlir::FloatType>(target)) {
    value = mlir::arith::SIToFPOp::create(b, loc, type, value);
  } else if (fromElement.getIntOrFloatBitWidth() <
             target.getIntOrFloatBitWidth()) {
    value = mlir::arith::ExtSIOp::create(b, loc, type, value);
  } else if (fromElement.getIntOrFloatBitWidth() >
             target.getIntOrFloatBitWidth()) {
    value = mlir::arith::TruncIOp::create(b, loc, type, value);
  }
  if (toElement.isIndex())
    value =
        mlir::arith::IndexCastOp::create(b, loc, withElement(toElement), value);
  return value;
}

/// The plan for static tensor -> static tensor: cast the elements, drop
/// leading dims, crop what is too large, pad what is too small, broadcast
/// up to the rank.
Repair tensorPlan(mlir::RankedTensorType from, mlir::RankedTensorType to) {
  Repair steps;
  if (from.getElementType() != to.getElementType())
    steps.push_back(castTo(to.getElementType()));
  llvm::SmallVector<int64_t> shape(from.getShape());
  int64_t rank = static_cast<int64_t>(shape.size());
  int64_t toRank = to.getRank();
  if (rank > toRank) {
    RepairStep drop;
    drop.kind = Kind::Drop;
    drop.count = rank - toRank;
    steps.push_back(drop);
    shape.erase(shape.begin(), shape.begin() + drop.count);
    rank = toRank;
  }
  llvm::ArrayRef<int64_t> trailing = to.getShape().take_back(rank);
  std::vector<int64_t> cropped(shape.begin(), shape.end());
  bool crop = false, pad = false;
  for (int64_t i = 0; i < rank; ++i) {
    if (shape[i] > trailing[i]) {
      cropped[i] = trailing[i];
      crop = true;
    }
    if (shape[i] < trailing[i])
      pad = true;
  }
  if (crop)
    steps.push_back(RepairStep::prefixCrop(cropped));
  if (pad)
    steps.push_back(withShape(Kind::Pad, trailing));
  if (rank < toRank)
    steps.push_back(withShape(Kind::Broadcast, to.getShape()));
  return steps;
}

absl::Status stepError(size_t i, const RepairStep &step,
                       const std::string &why) {
  static constexpr const char *kNames[] = {
      "cast", "drop", "crop", "pad", "broadcast", "splat", "extract"};
  return absl::InvalidArgumentError(
      absl::StrCat("repair step ", i + 1, " (",
                   kNames[static_cast<int>(step.kind)], "): ", why));
}

/// Builds a crop: an extract_slice of `shape` from `offsets` by `strides`,
/// every index checked to lie inside the value.
absl::StatusOr<mlir::Value> buildCrop(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::Value value, size_t i,
                                      const RepairStep &step) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  size_t rank = step.shape.size();
  if (!tensor || static_cast<size_t>(tensor.getRank()) != rank ||
      step.offsets.size() != rank || step.strides.size() != rank)
    return stepError(i, step, "its rank is not the value's");
  llvm::SmallVector<mlir::OpFoldResult> offsets, sizes, strides;
  for (size_t d = 0; d < rank; ++d) {
    int64_t size = step.shape[d], offset = step.offsets[d],
            stride = step.strides[d], dim = tensor.getDimSize(d);
    if (size < 1 || stride < 1 || offset < 0 || offset >= dim ||
        (size - 1) > (dim - 1 - offset) / stride)
      return stepError(i, step,
                       absl::StrCat("dim ", d, " keeps ", size, " from ",
                                    offset, " by ", stride, ", outside 0..",
                                    dim - 1));
    offsets.push_back(b.getIndexAttr(offset));
    sizes.push_back(b.getIndexAttr(size));
    strides.push_back(b.getIndexAttr(stride));
  }
  auto type = mlir::RankedTensorType::get(step.shape, tensor.getElementType());
  return mlir::tensor::ExtractSliceOp::create(b, loc, type, value, offsets,
                                              sizes, strides)
      .getResult();
}

/// The element type a cast step names, checked to be a numeric scalar.
absl::StatusOr<mlir::Value> buildCast(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::Value value, size_t i,
                                      const RepairStep &step) {
  mlir::Type element;
  {
    mlir::ScopedDiagnosticHandler quiet(
        b.getContext(), [](mlir::Diagnostic &) { return mlir::success(); });
    size_t read = 0;
    element = mlir::parseType(step.type, b.getContext(), &read);
    if (element && read != step.type.size())
      element = nullptr;
  }
  if (!element || !isNumericScalar(element))
    return stepError(i, step,
                     absl::StrCat("'", step.type, "' is not a scalar type"));
  if (!isNumericScalar(value.getType()) &&
      !isStaticNumericTensor(value.getType()))
    return stepError(i, step, "the value is not a number or a tensor");
  return castElements(b, loc, value, element);
}

/// A rank-reducing slice at index 0 of the leading dims.
absl::StatusOr<mlir::Value> buildDrop(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::Value value, size_t i,
                                      const RepairStep &step) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  if (!isStaticNumericTensor(value.getType()) || step.count < 1 ||
      step.count > tensor.getRank())
    return stepError(i, step, "the value has too few dims");
  int64_t rank = tensor.getRank();
  llvm::SmallVector<int64_t> kept(tensor.getShape().drop_front(step.count));
  llvm::SmallVector<mlir::OpFoldResult> offsets(rank, b.getIndexAttr(0)),
      strides(rank, b.getIndexAttr(1)), sizes(step.count, b.getIndexAttr(1));
  for (int64_t size : kept)
    sizes.push_back(b.getIndexAttr(size));
  auto type = mlir::RankedTensorType::get(kept, tensor.getElementType());
  return mlir::tensor::ExtractSliceOp::create(b, loc, type, value, offsets,
                                              sizes, strides)
      .getResult();
}

/// Zeros after the value up to the step's shape.
absl::StatusOr<mlir::Value> buildPad(mlir::OpBuilder &b, mlir::Location loc,
                                     mlir::Value value, size_t i,
                                     const RepairStep &step) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  int64_t rank = isStaticNumericTensor(value.getType()) ? tensor.getRank() : -1;
  if (rank != static_cast<int64_t>(step.shape.size()))
    return stepError(i, step, "its rank is not the value's");
  llvm::SmallVector<mlir::OpFoldResult> low(rank, b.getIndexAttr(0)), high;
  for (int64_t d = 0; d < rank; ++d) {
    if (step.shape[d] < tensor.getDimSize(d))
      return stepError(i, step, absl::StrCat("dim ", d, " would shrink"));
    high.push_back(b.getIndexAttr(step.shape[d] - tensor.getDimSize(d)));
  }
  mlir::Type element = tensor.getElementType();
  mlir::Value zero = buildConstant(b, loc, element, "0");
  return mlir::tensor::PadOp::create(
             b, loc, mlir::RankedTensorType::get(step.shape, element), value,
             low, high, zero)
      .getResult();
}

/// Leading dims added by a linalg.broadcast.
absl::StatusOr<mlir::Value> buildBroadcast(mlir::OpBuilder &b,
                                           mlir::Location loc,
                                           mlir::Value value, size_t i,
                                           const RepairStep &step) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  int64_t rank = isStaticNumericTensor(value.getType()) ? tensor.getRank() : -1;
  int64_t toRank = static_cast<int64_t>(step.shape.size());
  if (rank < 0 || toRank <= rank ||
      !llvm::equal(tensor.getShape(),
                   llvm::ArrayRef<int64_t>(step.shape).take_back(rank)))
    return stepError(i, step, "its trailing dims are not the value's");
  mlir::Value init = mlir::tensor::EmptyOp::create(b, loc, step.shape,
                                                   tensor.getElementType());
  llvm::SmallVector<int64_t> dims;
  for (int64_t d = 0; d < toRank - rank; ++d)
    dims.push_back(d);
  return mlir::linalg::BroadcastOp::create(b, loc, value, init, dims)
      ->getResult(0);
}

/// Builds one step.
absl::StatusOr<mlir::Value> buildStep(mlir::OpBuilder &b, mlir::Location loc,
                                      mlir::Value value, size_t i,
                                      const RepairStep &step, mlir::Type to) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  switch (step.kind) {
  case Kind::Cast:
    return buildCast(b, loc, value, i, step);
  case Kind::Drop:
    return buildDrop(b, loc, value, i, step);
  case Kind::Crop:
    return buildCrop(b, loc, value, i, step);
  case Kind::Pad:
    return buildPad(b, loc, value, i, step);
  case Kind::Broadcast:
    return buildBroadcast(b, loc, value, i, step);
  case Kind::Splat:
    if (!isNumericScalar(value.getType()) || !isStaticNumericTensor(to) ||
        mlir::getElementTypeOrSelf(to) != value.getType())
      return stepError(i, step, "the value is not an element of the operand");
    return mlir::tensor::SplatOp::create(b, loc, to, value).getResult();
  case Kind::Extract: {
    if (!isStaticNumericTensor(value.getType()) || tensor.getNumElements() == 0)
      return stepError(i, step, "the value is not a non-empty tensor");
    mlir::Value zero = mlir::arith::ConstantIndexOp::create(b, loc, 0);
    llvm::SmallVector<mlir::Value> indices(tensor.getRank(), zero);
    return mlir::tensor::ExtractOp::create(b, loc, value, indices).getResult();
  }
  }
  return stepError(i, step, "unknown step");
}

} // namespace

std::optional<Repair> planRepair(mlir::Type from, mlir::Type to) {
  if (from == to)
    return Repair();
  if (isNumericScalar(from) && isNumericScalar(to))
    return Repair{castTo(to)};
  if (isStaticNumericTensor(from) && isStaticNumericTensor(to))
    return tensorPlan(llvm::cast<mlir::RankedTensorType>(from),
                      llvm::cast<mlir::RankedTensorType>(to));
  if (isNumericScalar(from) && isStaticNumericTensor(to)) {
    mlir::Type element = mlir::getElementTypeOrSelf(to);
    Repair steps;
    if (from != element)
      steps.push_back(castTo(element));
    steps.push_back(withShape(Kind::Splat, {}));
    return steps;
  }
  if (isStaticNumericTensor(from) && isNumericScalar(to)) {
    auto tensor = llvm::cast<mlir::RankedTensorType>(from);
    if (tensor.getNumElements() == 0)
      return std::nullopt;
    Repair steps{withShape(Kind::Extract, {})};
    if (tensor.getElementType() != to)
      steps.push_back(castTo(to));
    return steps;
  }
  return std::nullopt;
}

void varyCrops(Repair &repair, mlir::Type from,
               llvm::function_ref<size_t(size_t)> draw) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(from);
  if (!tensor)
    return;
  std::vector<int64_t> shape(tensor.getShape().begin(),
                             tensor.getShape().end());
  for (RepairStep &step : repair) {
    if (step.kind == Kind::Drop &&
        step.count <= static_cast<int64_t>(shape.size()))
      shape.erase(shape.begin(), shape.begin() + step.count);
    if (step.kind == Kind::Pad || step.kind == Kind::Broadcast)
      shape = step.shape;
    if (step.kind != Kind::Crop || step.shape.size() != shape.size())
      continue;
    // 0 prefix, 1 suffix, 2 every 2nd from 0, 3 every 2nd from 1: offered
    // where every cropped dim has room for it.
    bool fits[4] = {true, true, true, true};
    for (size_t d = 0; d < shape.size(); ++d)
      if (step.shape[d] < shape[d]) {
        fits[2] = fits[2] && 2 * step.shape[d] - 1 <= shape[d];
        fits[3] = fits[3] && 2 * step.shape[d] <= shape[d];
      }
    std::vector<int> styles;
    for (int style = 0; style < 4; ++style)
      if (fits[style])
        styles.push_back(style);
    int style = styles[draw(styles.size())];
    for (size_t d = 0; d < shape.size(); ++d) {
      bool cropped = step.shape[d] < shape[d];
      step.offsets[d] = !cropped || style == 0 || style == 2 ? 0
                        : style == 1 ? shape[d] - step.shape[d]
                                     : 1;
      step.strides[d] = cropped && style >= 2 ? 2 : 1;
    }
    shape = step.shape;
  }
}

bool fitsPlan(const Repair &recorded, const Repair &plan) {
  if (recorded.size() != plan.size())
    return false;
  for (size_t i = 0; i < plan.size(); ++i) {
    if (plan[i].kind == Kind::Crop) {
      if (recorded[i].kind != Kind::Crop || recorded[i].shape != plan[i].shape)
        return false;
    } else if (recorded[i] != plan[i]) {
      return false;
    }
  }
  return true;
}

absl::StatusOr<mlir::Value> buildRepair(mlir::OpBuilder &builder,
                                        mlir::Location loc, mlir::Value from,
                                        const Repair &steps, mlir::Type to) {
  mlir::Value value = from;
  for (size_t i = 0; i < steps.size(); ++i) {
    absl::StatusOr<mlir::Value> next =
        buildStep(builder, loc, value, i, steps[i], to);
    if (!next.ok())
      return next.status();
    value = *next;
  }
  if (value.getType() != to)
    return absl::InvalidArgumentError(
        absl::StrCat("the repair gives ", typeText(value.getType()),
                     ", not the operand's ", typeText(to)));
  return value;
}

} // namespace gevo
