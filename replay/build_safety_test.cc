//===- build_safety_test.cc - Builds and proposals refuse what apply does
//--===//
//
// buildVariant() and proposals hand the static check the module they copied
// before each edit (ModuleBeforeEdit) instead of letting it copy its own:
// they drop the edit replay refuses and keep the rest, and a finding the
// module had before any edit stays the module's, not the edit's.
//
//===----------------------------------------------------------------------===//

#include <fstream>
#include <random>
#include <sstream>

#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/ir/static_safety.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/build_variant.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "replay/parsing_fixture.h"
#include "replay/patch.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// A read past the end of %x that the function returns: a finding before
// any edit.
constexpr char kReadPastTheEnd[] = R"mlir(
func.func @main(%x: tensor<8xf32>) -> (f32, f32) {
  %c9 = arith.constant 9 : index
  %zero = arith.constant 0.0 : f32
  %past = tensor.extract %x[%c9] : tensor<8xf32>
  %sum = arith.addf %past, %zero : f32
  return %past, %zero : f32, f32
}
)mlir";

class BuildSafetyTest : public ParsingFixture<> {
protected:
  static std::vector<std::string> messagesOf(mlir::ModuleOp module) {
    std::vector<std::string> messages;
    for (const SafetyFinding &finding : findSafetyProblems(module, {}))
      messages.push_back(finding.message);
    return messages;
  }
};

TEST_F(BuildSafetyTest, BuildsDropWhatReplayRefusesAndKeepTheRest) {
  mlir::OwningOpRef<mlir::ModuleOp> base =
      parse(readRunfile("testdata/digits_mlp_predict/model.mlir"));
  ASSERT_TRUE(base);
  absl::StatusOr<Edit> rewire =
      parseEdit("operand @main/linalg.fill#0~72b98bd2 ; "
                "@main/linalg.fill#0~72b98bd2[0] <- @main^0 via extract");
  ASSERT_TRUE(rewire.ok()) << rewire.status();
  // Index 361 reads past the 360 rows of the input (replay's error); 63
  // stays inside.
  for (const char *index : {"361", "63"}) {
    absl::StatusOr<Edit> constant = parseEdit(
        std::string("constant @main/arith.constant#8~3a8d3f45 = ") + index);
    ASSERT_TRUE(constant.ok()) << constant.status();
    BuiltVariant built = buildVariant(*base, {*rewire, *constant});
    bool inside = std::string(index) == "63";
    EXPECT_EQ(built.dropped, inside ? 0 : 1) << index;
    EXPECT_EQ(built.edits.size(), inside ? 2u : 1u) << index;
    EXPECT_EQ(built.edits.front(), *rewire);
  }
}

TEST_F(BuildSafetyTest, AFindingTheModuleHadIsNotTheEdits) {
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(kReadPastTheEnd);
  ASSERT_TRUE(module);
  ASSERT_THAT(messagesOf(*module), ElementsAre(HasSubstr("outside [0, 7]")));
  // An edit elsewhere builds, and the read stays the module's.
  mlir::OwningOpRef<mlir::ModuleOp> copy(module->clone());
  std::mt19937_64 rng(37);
  int keptTheRead = 0, proposed = 0;
  for (int i = 0; i < 40; ++i) {
    absl::StatusOr<Edit> edit = proposeAnyEdit(*module, MutationOptions(), rng);
    if (!edit.ok())
      continue;
    ++proposed;
    BuiltVariant built = buildVariant(*module, {*edit});
    EXPECT_EQ(built.dropped, 0) << printEdit(*edit);
    keptTheRead += messagesOf(*built.module).size() == 1;
  }
  EXPECT_GT(proposed, 0);
  EXPECT_GT(keptTheRead, 0);
  // Neither the proposals nor the builds changed the module they read.
  EXPECT_EQ(modelFingerprint(*module), modelFingerprint(*copy));
}

} // namespace
} // namespace gevo
