//===- ops_linear.cc - ONNX MatMul and Gemm as linalg.matmul --------------===//
//
// A 2-D product is a linalg.matmul into a zero-filled tensor, as hand-written
// models spell it, so the search's shrinks and the analyzer's labels read an
// imported dense layer as they read ours: Gemm's transposed weights (PyTorch's
// Linear) are transposed at import time, its alpha/beta/bias an elementwise op
// after the product. Batched products are one linalg.generic contraction.

#include "absl/strings/str_cat.h"
#include "gevo/frontend/linalg_text.h"
#include "gevo/frontend/onnx_ops.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

std::string emitMatmul(ImportState &state, const std::string &a,
                       const Shape &aShape, const std::string &b,
                       const Shape &bShape) {
  Shape out = {aShape[0], bShape[1]};
  std::string init = emitFilled(state, out, 0.0f);
  std::string name = state.fresh();
  state.emit(absl::StrCat(name, " = linalg.matmul ins(", a, ", ", b, " : ",
                          tensorType(aShape), ", ", tensorType(bShape),
                          ") outs(", init, " : ", tensorType(out), ") -> ",
                          tensorType(out)));
  return name;
}

/// A batched product: [..., M, K] x [..., K, N] with broadcast batch
/// dimensions, as one generic over (batch..., M, N, K).
absl::StatusOr<TensorValue> batchedMatmul(ImportState &state, TensorValue &a,
                                          TensorValue &b) {
  Shape aBatch(a.shape.begin(), a.shape.end() - 2);
  Shape bBatch(b.shape.begin(), b.shape.end() - 2);
  std::optional<Shape> batch = broadcastShapes(aBatch, bBatch);
  if (!batch)
    return state.error("batch dimensions do not broadcast");
  int64_t m = a.shape[a.shape.size() - 2], n = b.shape.back();
  int rank = batch->size() + 3;
  auto operandMap = [&](const Shape &own, const std::string &row,
                        const std::string &column) {
    std::vector<std::string> results;
    int offset = batch->size() - own.size();
    for (size_t i = 0; i < own.size(); ++i)
      results.push_back(own[i] == 1 && (*batch)[offset + i] != 1
                            ? "0"
                            : absl::StrCat("d", offset + i));
    results.push_back(row);
    results.push_back(column);
    return affineMap(rank, results);
  };
  std::string mDim = absl::StrCat("d", rank - 3),
              nDim = absl::StrCat("d", rank - 2),
              kDim = absl::StrCat("d", rank - 1);
  Shape outShape = *batch;
  outShape.push_back(m);
  outShape.push_back(n);
  std::vector<std::string> outResults;
  for (int i = 0; i < rank - 1; ++i)
    outResults.push_back(absl::StrCat("d", i));
  std::vector<std::string> iterators(rank - 1, "parallel");
  iterators.push_back("reduction");
  GenericOperand output{emitFilled(state, outShape, 0.0f), outShape,
                        affineMap(rank, outResults)};
  TensorValue result;
  result.shape = outShape;
  result.ssa = emitGeneric(
      state,
      {{state.use(a), a.shape, operandMap(aBatch, mDim, kDim)},
       {state.use(b), b.shape, operandMap(bBatch, kDim, nDim)}},
      output, iterators,
      [](ImportState &s, const std::vector<std::string> &args) {
        std::string product =
            scalar(s, "arith.mulf", absl::StrCat(args[0], ", ", args[1]));
        return scalar(s, "arith.addf", absl::StrCat(args[2], ", ", product));
      });
  return result;
}

/// `value` transposed (2-D): its data when known, else a linalg.transpose.
TensorValue transposed(ImportState &state, TensorValue &value) {
  TensorValue out;
  out.shape = {value.shape[1], value.shape[0]};
  if (value.floats && value.ssa.empty()) {
    std::vector<float> data(value.floats->size());
    for (int64_t i = 0; i < value.shape[0]; ++i)
      for (int64_t j = 0; j < value.shape[1]; ++j)
        data[j * value.shape[0] + i] = (*value.floats)[i * value.shape[1] + j];
    out.floats = std::move(data);
    return out;
  }
  out.ssa = emitTranspose(state, state.use(value), value.shape, {1, 0});
  return out;
}

} // namespace

absl::Status importMatMul(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * a, state.input(0));
  GEVO_ASSIGN_OR_RETURN(TensorValue * b, state.input(1));
  if (a->shape.size() < 2 || b->shape.size() < 2)
    return state.error("1-D operands are not supported");
  if (a->shape.back() != b->shape[b->shape.size() - 2])
    return state.error("the contracted dimensions differ");
  if (a->shape.size() == 2 && b->shape.size() == 2) {
    TensorValue result;
    result.shape = {a->shape[0], b->shape[1]};
    result.ssa =
        emitMatmul(state, state.use(*a), a->shape, state.use(*b), b->shape);
    state.define(0, std::move(result));
    return absl::OkStatus();
  }
  GEVO_ASSIGN_OR_RETURN(TensorValue result, batchedMatmul(state, *a, *b));
  state.define(0, std::move(result));
  return absl::OkStatus();
}

absl::Status importGemm(ImportState &state) {
  GEVO_ASSIGN_OR_RETURN(TensorValue * aIn, state.input(0));
  GEVO_ASSIGN_OR_RETURN(TensorValue * bIn, state.input(1));
  if (aIn->shape.size() != 2 || bIn->shape.size() != 2)
    return state.error("Gemm needs 2-D operands");
  TensorValue a = state.intAttr("transA", 0) ? transposed(state, *aIn) : *aIn;
  TensorValue b = state.intAttr("transB", 0) ? transposed(state, *bIn) : *bIn;
  if (a.shape[1] != b.shape[0])
    return state.error("the contracted dimensions differ");
  Shape out = {a.shape[0], b.shape[1]};
  std::string product =
      emitMatmul(state, state.use(a), a.shape, state.use(b), b.shape);
  float alpha = state.floatAttr("alpha", 1.0f);
  float beta = state.floatAttr("beta", 1.0f);
  TensorValue *c = state.optionalInput(2);
  std::vector<GenericOperand> inputs = {{product, out, ""}};
  if (c) {
    if (!broadcastShapes(c->shape, out) ||
        *broadcastShapes(c->shape, out) != out)
      return state.error("C does not broadcast to the product's shape");
    inputs.push_back({state.use(*c), c->shape, ""});
  }
  TensorValue result;
  result.shape = out;
  result.ssa = product;
  if (c || alpha != 1.0f)
    result.ssa = emitElementwise(
        state, inputs, out,
        [&](ImportState &s, const std::vector<std::string> &args) {
          std::string y = args[0];
          if (alpha != 1.0f)
            y = scalar(s, "arith.mulf",
                       absl::StrCat(y, ", ", scalarConstant(s, alpha)));
          if (!c)
            return y;
          std::string bias = args[1];
          if (beta != 1.0f)
            bias = scalar(s, "arith.mulf",
                          absl::StrCat(bias, ", ", scalarConstant(s, beta)));
          return scalar(s, "arith.addf", absl::StrCat(y, ", ", bias));
        });
  state.define(0, std::move(result));
  return absl::OkStatus();
}

} // namespace gevo
