//===- operator_round_trip_test.cc - Every operator prints, parses, applies
//===//
//
// For every registered mutation operator (gevo/ir/operators.def): an edit it
// proposes on a real module (gevo/ir/testdata/ops.mlir, or the digits MLP's
// training module where ops.mlir has no candidate) prints as a line that
// starts with the operator's word, parses back to the same edit, prints
// again byte for byte, and applies to a clone that verifies.
//
//===----------------------------------------------------------------------===//

#include <random>
#include <string>

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/support/file_io.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "replay/patch.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

constexpr const char *kModules[] = {"gevo/ir/testdata/ops.mlir",
                                    "testdata/digits_mlp_train/model.mlir"};

class OperatorRoundTripTest : public ::testing::TestWithParam<EditKind> {
protected:
  void SetUp() override { context = createContext(); }

  mlir::OwningOpRef<mlir::ModuleOp> load(const std::string &path) {
    absl::StatusOr<std::string> text = readFile(path, "model");
    EXPECT_TRUE(text.ok()) << text.status();
    if (!text.ok())
      return nullptr;
    auto module = parseModule(*context, *text, path);
    EXPECT_TRUE(module.ok()) << module.status();
    return module.ok() ? std::move(*module) : nullptr;
  }

  std::unique_ptr<mlir::MLIRContext> context;
};

TEST_P(OperatorRoundTripTest, ProposalPrintsParsesAndApplies) {
  EditKind kind = GetParam();
  const MutationOperator &op = operatorFor(kind);
  ASSERT_EQ(op.kind(), kind);
  MutationOptions options;
  options.kinds = {kind};
  int checked = 0;
  for (const char *path : kModules) {
    mlir::OwningOpRef<mlir::ModuleOp> module = load(path);
    ASSERT_TRUE(module);
    for (uint64_t seed = 1; seed <= 40 && checked < 5; ++seed) {
      std::mt19937_64 rng(seed);
      absl::StatusOr<Edit> edit = proposeEdit(*module, kind, options, rng);
      // The constant operator also proposes operand edits (one use only).
      if (!edit.ok() || edit->kind != kind)
        continue;
      ++checked;
      std::string line = printEdit(*edit);
      EXPECT_EQ(line.rfind(std::string(op.word()) + " ", 0), 0u) << line;
      absl::StatusOr<Edit> parsed = parseEdit(line);
      ASSERT_TRUE(parsed.ok()) << line << ": " << parsed.status();
      EXPECT_TRUE(*parsed == *edit) << line;
      EXPECT_EQ(printEdit(*parsed), line);
      mlir::OwningOpRef<mlir::ModuleOp> variant(module->clone());
      absl::Status applied = applyEdit(*variant, *parsed);
      EXPECT_TRUE(applied.ok()) << path << ": " << line << ": " << applied;
    }
  }
  EXPECT_GT(checked, 0) << "no " << toString(kind) << " edit proposed";
}

INSTANTIATE_TEST_SUITE_P(EveryOperator, OperatorRoundTripTest,
                         ::testing::ValuesIn(kAllEditKinds),
                         [](const ::testing::TestParamInfo<EditKind> &info) {
                           return std::string(toString(info.param));
                         });

} // namespace
} // namespace gevo
