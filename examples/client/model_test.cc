// The client's test: calls the patched model, linked ahead of time, through its C interface, and checks that the
// build linked the patched program (bias 0.25), not the original (bias 0.5).

#include <cstdlib>
#include <vector>

#include "model.h"
#include "gtest/gtest.h"

namespace {

using MemRef1D = StridedMemRefType<float, 1>;

MemRef1D describe(std::vector<float> &values) {
  MemRef1D ref;
  ref.basePtr = values.data();
  ref.data = values.data();
  ref.offset = 0;
  ref.sizes[0] = static_cast<int64_t>(values.size());
  ref.strides[0] = 1;
  return ref;
}

TEST(ClientModelTest, RunsThePatchedModel) {
  std::vector<float> x = {1.0f, -2.0f, 0.5f, 3.0f};
  std::vector<float> w = {2.0f, 1.0f, -1.0f, 0.5f};
  MemRef1D xRef = describe(x), wRef = describe(w);
  MemRef1D result{};
  _mlir_ciface_main(&result, &xRef, &wRef);
  ASSERT_EQ(result.sizes[0], 4);
  std::vector<float> y;
  for (int64_t i = 0; i < 4; ++i)
    y.push_back(result.data[result.offset + i * result.strides[0]]);
  free(result.basePtr);
  // max(x * w + 0.25, 0); the unpatched model would give 2.5, 0, 0, 2.
  EXPECT_EQ(y, (std::vector<float>{2.25f, 0.0f, 0.0f, 1.75f}));
}

} // namespace
