//===- shrink.cc - Narrowing one dimension through every op that shares it ===//

#include "gevo/ir/shrink.h"

#include "gevo/ir/shrink_constants.h"
#include "gevo/ir/shrink_web.h"

#include "absl/strings/str_cat.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace gevo {
namespace {

/// The spread of each dimension of one value (or use).
using SpreadOf = llvm::function_ref<Spread(int64_t)>;

mlir::RankedTensorType narrowed(mlir::Type type, const DimSet &dims,
                                int64_t count, SpreadOf spreadOf) {
  auto tensor = llvm::cast<mlir::RankedTensorType>(type);
  llvm::SmallVector<int64_t> shape(tensor.getShape());
  for (int64_t dim : dims) {
    Spread spread = spreadOf(dim);
    shape[dim] = spread.outer * count * spread.inner;
  }
  return mlir::RankedTensorType::get(shape, tensor.getElementType());
}

/// A copy of an empty or a fill of one, narrowed, built at the builder.
mlir::Value cloneNarrowed(mlir::OpBuilder &builder, mlir::Value value,
                          const DimSet &dims, int64_t count,
                          SpreadOf spreadOf) {
  mlir::Operation *op = value.getDefiningOp();
  mlir::RankedTensorType type =
      narrowed(value.getType(), dims, count, spreadOf);
  if (auto fill = llvm::dyn_cast<mlir::linalg::FillOp>(op)) {
    mlir::Value init =
        cloneNarrowed(builder, fill.getOutputs()[0], dims, count, spreadOf);
    return mlir::linalg::FillOp::create(builder, op->getLoc(),
                                        fill.getInputs()[0], init)
        .getResult(0);
  }
  return mlir::tensor::EmptyOp::create(builder, op->getLoc(), type.getShape(),
                                       type.getElementType());
}

/// Erases an empty/fill chain that nothing uses any more.
void eraseIfDead(mlir::Operation *op) {
  while (op && op->use_empty()) {
    mlir::Operation *next = nullptr;
    if (auto fill = llvm::dyn_cast<mlir::linalg::FillOp>(op))
      next = fill.getOutputs()[0].getDefiningOp();
    op->erase();
    op = next;
  }
}

absl::Status checkSelection(const Selection &keep, int64_t size) {
  int64_t count = keep.count();
  if (count < 1 || count >= size)
    return absl::InvalidArgumentError(absl::StrCat(
        "keep ", toString(keep), " keeps ", count, " of ", size,
        " indices; a shrink keeps at least one and drops at least one"));
  if (keep.at(count - 1) >= size || keep.at(0) < 0)
    return absl::InvalidArgumentError(
        absl::StrCat("keep ", toString(keep), " reaches past the dimension's ",
                     size, " indices"));
  return absl::OkStatus();
}

/// Whether one of `loops` of `op` is a convolution's (or pooling's) channel
/// loop, by the roles MLIR infers from its indexing maps.
bool carriesChannels(mlir::Operation *op,
                     const llvm::SmallSetVector<unsigned, 2> &loops) {
  auto linalg = llvm::dyn_cast<mlir::linalg::LinalgOp>(op);
  if (!linalg)
    return false;
  llvm::FailureOr<mlir::linalg::ConvolutionDimensions> dims =
      mlir::linalg::inferConvolutionDims(linalg);
  if (mlir::failed(dims))
    return false;
  return llvm::any_of(loops, [&](unsigned loop) {
    return llvm::is_contained(dims->outputChannel, loop) ||
           llvm::is_contained(dims->inputChannel, loop) ||
           llvm::is_contained(dims->depth, loop);
  });
}

/// Adds each index's share of a constant's weight; a dimension a reshape
/// spread holds an index at several positions, whose shares add up.
void weighConstant(mlir::DenseElementsAttr attr, const DimSet &dims,
                   int64_t size, SpreadOf spreadOf,
                   std::vector<double> &weight) {
  DimSet plain;
  for (int64_t d : dims) {
    Spread spread = spreadOf(d);
    if (spread.trivial()) {
      plain.insert(d);
      continue;
    }
    DimSet one;
    one.insert(d);
    std::vector<double> positions(spread.outer * size * spread.inner, 0.0);
    addWeights(attr, one, positions);
    for (size_t p = 0; p < positions.size(); ++p)
      weight[(static_cast<int64_t>(p) / spread.inner) % size] += positions[p];
  }
  if (!plain.empty())
    addWeights(attr, plain, weight);
}

/// A constant of the web with the kept indices only; a dimension a reshape
/// spread keeps every position of each kept index.
mlir::DenseElementsAttr sliceConstant(mlir::DenseElementsAttr attr,
                                      const DimSet &dims, int64_t size,
                                      SpreadOf spreadOf,
                                      const Selection &keep) {
  auto none = [](int64_t) { return Spread{}; };
  DimSet plain;
  for (int64_t d : dims)
    if (spreadOf(d).trivial())
      plain.insert(d);
  int64_t count = keep.count();
  if (!plain.empty())
    attr =
        gather(attr, narrowed(attr.getType(), plain, count, none), plain, keep);
  for (int64_t d : dims) {
    if (plain.contains(d))
      continue;
    DimSet one;
    one.insert(d);
    attr = gather(attr, narrowed(attr.getType(), one, count, spreadOf), one,
                  spreadSelection(keep, size, spreadOf(d)));
  }
  return attr;
}

/// Re-types every value of the web but those from outside; constants are
/// sliced, and an expand_shape's static output shape follows its type.
void retypeWeb(Web &web, const Selection &keep) {
  int64_t count = keep.count();
  for (auto &[v, dims] : web.values) {
    if (web.sources.contains(v))
      continue;
    auto spreadOf = [&](int64_t d) { return web.spreadOf(v, d); };
    mlir::RankedTensorType type = narrowed(v.getType(), dims, count, spreadOf);
    if (auto constant = v.getDefiningOp<mlir::arith::ConstantOp>())
      constant.setValueAttr(sliceConstant(
          llvm::cast<mlir::DenseElementsAttr>(constant.getValue()), dims,
          web.size, spreadOf, keep));
    v.setType(type);
    if (auto expand = v.getDefiningOp<mlir::tensor::ExpandShapeOp>())
      expand.setStaticOutputShape(type.getShape());
  }
}

} // namespace

absl::StatusOr<ShrinkWeb> analyzeShrink(mlir::Value value, int dim) {
  Web web;
  GEVO_RETURN_IF_ERROR(web.grow(value, dim));
  ShrinkWeb out;
  out.size = web.size;
  out.values = static_cast<int>(web.values.size() + web.splitUses.size());
  out.ops = static_cast<int>(web.loops.size());
  out.allowsIndexList = web.sources.empty() && web.indexReads.empty();
  std::vector<double> weight(web.size, 0.0);
  for (auto &[v, dims] : web.values)
    if (auto constant = v.getDefiningOp<mlir::arith::ConstantOp>()) {
      weighConstant(
          llvm::cast<mlir::DenseElementsAttr>(constant.getValue()), dims,
          web.size, [&](int64_t d) { return web.spreadOf(v, d); }, weight);
      ++out.constants;
    }
  if (out.constants > 0)
    out.weight = std::move(weight);
  for (auto &[op, loops] : web.loops)
    out.channels = out.channels || carriesChannels(op, loops);
  for (mlir::Value source : web.sources) {
    mlir::Value root = source;
    if (auto slice = source.getDefiningOp<mlir::tensor::ExtractSliceOp>())
      root = slice.getSource();
    auto argument = llvm::dyn_cast<mlir::BlockArgument>(root);
    if (!argument ||
        !llvm::isa<mlir::func::FuncOp>(argument.getOwner()->getParentOp()))
      continue;
    for (int64_t d : web.values[source])
      out.arguments.push_back({static_cast<int>(argument.getArgNumber()), d});
  }
  return out;
}

absl::Status applyShrink(mlir::Value value, int dim, const Selection &keep) {
  Web web;
  GEVO_RETURN_IF_ERROR(web.grow(value, dim));
  GEVO_RETURN_IF_ERROR(checkSelection(keep, web.size));
  bool isRange = keep.indices.empty();
  if (!isRange && !(web.sources.empty() && web.indexReads.empty()))
    return absl::InvalidArgumentError(
        "a list of kept indices needs every narrowed value computed in the "
        "function (no argument or slice to cut, no linalg.index to remap)");
  int64_t count = keep.count();
  mlir::MLIRContext *context = value.getContext();
  mlir::OpBuilder builder(context);

  // Values from outside the web keep their type and get sliced.
  for (mlir::Value source : web.sources) {
    const DimSet &dims = web.values[source];
    auto type = llvm::cast<mlir::RankedTensorType>(source.getType());
    llvm::SmallVector<int64_t> offsets(type.getRank(), 0),
        strides(type.getRank(), 1);
    llvm::SmallVector<int64_t> sizes(type.getShape());
    for (int64_t d : dims) {
      offsets[d] = keep.start;
      sizes[d] = count;
      strides[d] = keep.step;
    }
    if (auto result = llvm::dyn_cast<mlir::OpResult>(source))
      builder.setInsertionPointAfter(result.getOwner());
    else
      builder.setInsertionPointToStart(
          llvm::cast<mlir::BlockArgument>(source).getOwner());
    auto slice = mlir::tensor::ExtractSliceOp::create(
        builder, source.getLoc(),
        narrowed(type, dims, count, [](int64_t) { return Spread{}; }), source,
        mlir::ValueRange{}, mlir::ValueRange{}, mlir::ValueRange{},
        builder.getDenseI64ArrayAttr(offsets),
        builder.getDenseI64ArrayAttr(sizes),
        builder.getDenseI64ArrayAttr(strides));
    source.replaceAllUsesExcept(slice.getResult(), slice);
  }

  retypeWeb(web, keep);

  // Each empty or fill that a narrowed op reads gets a narrowed copy.
  for (auto &[operand, dims] : web.splitUses) {
    mlir::Operation *original = operand->get().getDefiningOp();
    builder.setInsertionPointAfter(original);
    operand->set(
        cloneNarrowed(builder, operand->get(), dims, count,
                      [&](int64_t d) { return web.spreadOf(operand, d); }));
    eraseIfDead(original);
  }

  // linalg.index of a narrowed loop counts kept positions; map them back.
  for (mlir::linalg::IndexOp index : web.indexReads) {
    if (keep.start == 0 && keep.step == 1)
      continue;
    builder.setInsertionPointAfter(index);
    mlir::Location loc = index.getLoc();
    auto step = mlir::arith::ConstantIndexOp::create(builder, loc, keep.step);
    auto start = mlir::arith::ConstantIndexOp::create(builder, loc, keep.start);
    auto scaled = mlir::arith::MulIOp::create(builder, loc, index, step);
    auto mapped = mlir::arith::AddIOp::create(builder, loc, scaled, start);
    index.getResult().replaceAllUsesExcept(mapped.getResult(),
                                           scaled.getOperation());
  }
  return absl::OkStatus();
}

} // namespace gevo
