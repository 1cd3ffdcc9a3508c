//===- strided_crop_test.cc - A strided crop repair, run AOT --------------===//
//
// pick.mlir computes x[0..3] + 0.5 from an 8-element x; odd_elements.gevo
// rewires the add to x's odd elements through a crop repair with an offset
// and a stride (`crop(4 at 1 step 2)`). :pick_model is the patched module
// lowered by gevo_model_library; this test checks the numbers it computes.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <vector>

#include "testdata/example/pick_model.h"
#include "gtest/gtest.h"

namespace {

using MemRef1D = StridedMemRefType<float, 1>;

TEST(StridedCropTest, TheAddTakesTheOddElements) {
  std::vector<float> input = {10, 11, 12, 13, 14, 15, 16, 17};
  MemRef1D x;
  x.basePtr = x.data = input.data();
  x.offset = 0;
  x.sizes[0] = 8;
  x.strides[0] = 1;
  MemRef1D result{};
  _mlir_ciface_main(&result, &x);
  ASSERT_EQ(result.sizes[0], 4);
  std::vector<float> output;
  for (int64_t i = 0; i < 4; ++i)
    output.push_back(result.data[result.offset + i * result.strides[0]]);
  free(result.basePtr);
  // x[1], x[3], x[5], x[7] plus 0.5; the unpatched model gives 10.5 .. 13.5.
  EXPECT_EQ(output, (std::vector<float>{11.5f, 13.5f, 15.5f, 17.5f}));
}

} // namespace
