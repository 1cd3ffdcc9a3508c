//===- onnx_model_test.cc - The ONNX example model, imported and linked ---===//
//
// scale.onnx computes x * 2 + 1 over a symbolic batch. :scale_onnx_model is
// it imported (batch 4, entry scale2) and lowered by gevo_model_library;
// :scale_onnx_patched_model is onnx_double_to_triple.gevo applied to it by
// gevo_patch (entry scale3), x * 3 + 1. Both are called through their C
// interfaces.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <vector>

#include "testdata/example/scale_onnx_model.h"
#include "testdata/example/scale_onnx_patched_model.h"
#include "gtest/gtest.h"

namespace {

using MemRef1D = StridedMemRefType<float, 1>;
using Entry = void (*)(MemRef1D *, MemRef1D *);

/// Runs `entry` on `input`; the result buffer is the model's (malloc).
std::vector<float> run(Entry entry, std::vector<float> input) {
  MemRef1D x{input.data(), input.data(), 0, {4}, {1}};
  MemRef1D result{};
  entry(&result, &x);
  EXPECT_EQ(result.sizes[0], 4);
  std::vector<float> values;
  for (int64_t i = 0; i < result.sizes[0]; ++i)
    values.push_back(result.data[result.offset + i * result.strides[0]]);
  free(result.basePtr);
  return values;
}

TEST(OnnxModelTest, TheImportComputesTheExportedScale) {
  std::vector<float> input = {1.0f, -2.0f, 0.5f, 4.0f};
  std::vector<float> output = run(_mlir_ciface_scale2, input);
  ASSERT_EQ(output.size(), input.size());
  for (size_t i = 0; i < input.size(); ++i)
    EXPECT_FLOAT_EQ(output[i], input[i] * 2.0f + 1.0f) << "element " << i;
}

TEST(OnnxModelTest, ThePatchedImportComputesThePatchedScale) {
  std::vector<float> input = {1.0f, -2.0f, 0.5f, 4.0f}; // No 0: 2*0+1 == 3*0+1.
  std::vector<float> output = run(_mlir_ciface_scale3, input);
  ASSERT_EQ(output.size(), input.size());
  for (size_t i = 0; i < input.size(); ++i)
    EXPECT_FLOAT_EQ(output[i], input[i] * 3.0f + 1.0f) << "element " << i;
}

} // namespace
