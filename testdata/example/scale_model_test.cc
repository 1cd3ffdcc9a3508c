//===- scale_model_test.cc - The patched example model, linked AOT --------===//
//
// scale.mlir computes x * 2 + 1; double_to_triple.gevo changes the 2 to a 3.
// :scale_model is that patched module lowered by gevo_model_library; this
// test calls it through its C interface and checks that the build linked the
// patched program (x * 3 + 1), not the original.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <vector>

#include "testdata/example/scale_model.h"
#include "gtest/gtest.h"

namespace {

using MemRef1D = StridedMemRefType<float, 1>;

/// A descriptor of `values` (contiguous, offset 0).
MemRef1D describe(std::vector<float> &values) {
  MemRef1D ref;
  ref.basePtr = values.data();
  ref.data = values.data();
  ref.offset = 0;
  ref.sizes[0] = static_cast<int64_t>(values.size());
  ref.strides[0] = 1;
  return ref;
}

/// Runs the model on `input`; the result buffer is allocated by the model
/// (malloc) and owned by the caller.
std::vector<float> runModel(std::vector<float> input) {
  MemRef1D x = describe(input);
  MemRef1D result{};
  _mlir_ciface_main(&result, &x);
  EXPECT_EQ(result.sizes[0], 4);
  EXPECT_EQ(result.strides[0], 1);
  std::vector<float> values;
  for (int64_t i = 0; i < result.sizes[0]; ++i)
    values.push_back(result.data[result.offset + i * result.strides[0]]);
  free(result.basePtr);
  return values;
}

TEST(ScaleModelTest, ComputesThePatchedScale) {
  std::vector<float> input = {1.0f, -2.0f, 0.5f, 4.0f}; // No 0: 2*0+1 == 3*0+1.
  std::vector<float> output = runModel(input);
  ASSERT_EQ(output.size(), input.size());
  for (size_t i = 0; i < input.size(); ++i) {
    EXPECT_FLOAT_EQ(output[i], input[i] * 3.0f + 1.0f) << "element " << i;
    EXPECT_NE(output[i], input[i] * 2.0f + 1.0f)
        << "element " << i << " is what the unpatched model computes";
  }
}

TEST(ScaleModelTest, LeavesTheInputAlone) {
  std::vector<float> input = {4.0f, -1.0f, 10.0f, 0.25f};
  MemRef1D x = describe(input);
  MemRef1D result{};
  _mlir_ciface_main(&result, &x);
  EXPECT_NE(result.data, input.data());
  EXPECT_EQ(input, (std::vector<float>{4.0f, -1.0f, 10.0f, 0.25f}));
  EXPECT_FLOAT_EQ(result.data[result.offset + 2], 31.0f);
  free(result.basePtr);
}

} // namespace
