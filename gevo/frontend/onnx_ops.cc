//===- onnx_ops.cc - The table of ONNX ops the importer knows -------------===//

#include "gevo/frontend/onnx_ops.h"

#include <algorithm>
#include <map>

namespace gevo {
namespace {

const std::map<std::string, OpHandler> &handlers() {
  static const auto *table = new std::map<std::string, OpHandler>{
      {"Abs", importUnary},
      {"Add", importBinary},
      {"AveragePool", importPool},
      {"BatchNormalization", importBatchNorm},
      {"Cast", importIdentity},
      {"Ceil", importUnary},
      {"Clip", importClip},
      {"Concat", importConcat},
      {"Constant", importConstant},
      {"Conv", importConv},
      {"Cos", importUnary},
      {"Div", importBinary},
      {"Dropout", importIdentity},
      {"Elu", importUnary},
      {"Erf", importUnary},
      {"Exp", importUnary},
      {"Flatten", importFlatten},
      {"Floor", importUnary},
      {"Gather", importGather},
      {"Gemm", importGemm},

      {"GlobalAveragePool", importGlobalPool},
      {"GlobalMaxPool", importGlobalPool},
      {"HardSigmoid", importUnary},
      {"Identity", importIdentity},
      {"LeakyRelu", importUnary},
      {"Log", importUnary},
      {"LogSoftmax", importSoftmax},
      {"MatMul", importMatMul},
      {"Max", importVariadic},
      {"MaxPool", importPool},
      {"Mean", importVariadic},
      {"Min", importVariadic},
      {"Mul", importBinary},
      {"Neg", importUnary},
      {"Pad", importPad},
      {"Slice", importSlice},
      {"LayerNormalization", importLayerNorm},
      {"ReduceL1", importReduce},
      {"ReduceL2", importReduce},
      {"ReduceLogSum", importReduce},
      {"ReduceLogSumExp", importReduce},
      {"ReduceProd", importReduce},
      {"ReduceSumSquare", importReduce},
      {"Pow", importBinary},
      {"PRelu", importPRelu},
      {"Reciprocal", importUnary},
      {"ReduceMax", importReduce},
      {"ReduceMean", importReduce},
      {"ReduceMin", importReduce},
      {"ReduceSum", importReduce},
      {"Relu", importUnary},
      {"Reshape", importReshape},
      {"Selu", importUnary},
      {"Shape", importShape},
      {"Sigmoid", importUnary},
      {"Sin", importUnary},
      {"Softmax", importSoftmax},
      {"Softplus", importUnary},
      {"Softsign", importUnary},
      {"Sqrt", importUnary},
      {"Squeeze", importSqueeze},
      {"Sub", importBinary},
      {"Sum", importVariadic},
      {"Tanh", importUnary},
      {"Transpose", importTranspose},
      {"Unsqueeze", importSqueeze},
  };
  return *table;
}

} // namespace

OpHandler findOpHandler(const std::string &opType) {
  auto found = handlers().find(opType);
  return found == handlers().end() ? nullptr : found->second;
}

std::vector<std::string> supportedOnnxOps() {
  std::vector<std::string> types;
  for (const auto &[type, handler] : handlers())
    types.push_back(type);
  return types;
}

} // namespace gevo
