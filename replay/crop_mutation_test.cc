//===- crop_mutation_test.cc - Mutations draw crops with offsets/strides --===//
//
// The operand operator on gevo/ir/testdata/ops.mlir (values of 4x8, 8x6,
// 2x4x8 and 4x6 tensors) wires values that must be cropped; the mutation
// draws where each crop takes its block. Every kind of block must come up
// (prefix, suffix, every 2nd), each edit must apply and verify, and its
// patch line must read back to the same edit.
//
//===----------------------------------------------------------------------===//

#include <random>

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/support/file_io.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "replay/patch.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

TEST(CropMutationTest, CropsTakeTheirBlockFromAnOffsetAndAStride) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::StatusOr<std::string> text =
      readFile("gevo/ir/testdata/ops.mlir", "model");
  ASSERT_TRUE(text.ok()) << text.status();
  auto module = parseModule(*context, *text, "ops.mlir");
  ASSERT_TRUE(module.ok()) << module.status();
  MutationOptions options;
  options.kinds = {EditKind::Operand};
  int prefix = 0, suffix = 0, strided = 0;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    std::mt19937_64 rng(seed);
    absl::StatusOr<Edit> edit = proposeAnyEdit(**module, options, rng, 5);
    if (!edit.ok())
      continue;
    bool cropped = false;
    for (const Rewire &rewire : edit->rewires)
      for (const RepairStep &step : rewire.repair) {
        if (step.kind != RepairStep::Kind::Crop)
          continue;
        cropped = true;
        bool offset = false, stride = false;
        for (size_t d = 0; d < step.shape.size(); ++d) {
          offset = offset || step.offsets[d] > 0;
          stride = stride || step.strides[d] > 1;
        }
        if (stride)
          ++strided;
        else if (offset)
          ++suffix;
        else
          ++prefix;
      }
    if (!cropped)
      continue;
    std::string line = printEdit(*edit);
    mlir::OwningOpRef<mlir::ModuleOp> variant((*module)->clone());
    absl::Status applied = applyEdit(*variant, *edit);
    EXPECT_TRUE(applied.ok()) << line << ": " << applied;
    absl::StatusOr<Edit> again = parseEdit(line);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_TRUE(*again == *edit) << line;
  }
  EXPECT_GT(prefix, 0);
  EXPECT_GT(suffix, 0);
  EXPECT_GT(strided, 0);
}

} // namespace
} // namespace gevo
