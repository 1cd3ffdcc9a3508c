//===- model_text.h - The digits CNN written as MLIR text -----------------===//
//
// Two spellings of one trained CNN: linalg on tensors (the shipped workload
// the search mutates) and TOSA (as a frontend such as TensorFlow Lite exports
// it; gevo legalises it to linalg when it loads it).
//
//===----------------------------------------------------------------------===//
#ifndef TESTDATA_DIGITS_CNN_PREDICT_MODEL_TEXT_H
#define TESTDATA_DIGITS_CNN_PREDICT_MODEL_TEXT_H

#include <string>

#include "testdata/digits_cnn_predict/cnn_trainer.h"

namespace gevo {
namespace cnn {

/// Rows per call: the workload's eval split.
constexpr int kRows = 360;

/// The prediction module in linalg (conv_2d_nhwc_hwcf, pooling_nhwc_max,
/// a generic contraction, matmul, generics for scale, bias and ReLU).
std::string linalgModule(const Weights &weights, double accuracy);

/// The same prediction in TOSA ops (conv2d, max_pool2d, matmul, ...).
std::string tosaModule(const Weights &weights, double accuracy);

} // namespace cnn
} // namespace gevo

#endif // TESTDATA_DIGITS_CNN_PREDICT_MODEL_TEXT_H
