//===- copy_index_test.cc - An edit resolved in a copy's derived index ----===//
//
// applyEdit on a fresh clone given the clone's index made from the
// original's (as a proposal is verified) accepts and refuses the edits, and
// makes the modules, that applyEdit on the same clone indexing it itself
// does: random edits of every kind on the digits model, one on another.
//
//===----------------------------------------------------------------------===//

#include <random>

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// `module` printed.
std::string text(mlir::ModuleOp module) {
  std::string out;
  llvm::raw_string_ostream os(out);
  module->print(os);
  return out;
}

TEST(CopyIndexTest, AppliesAndRefusesAsAPlainCopyDoes) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> loaded = loadModule(
      *context, findRunfile("testdata/digits_mlp_predict/model.mlir"));
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  mlir::OwningOpRef<mlir::ModuleOp> module = std::move(*loaded);
  std::mt19937_64 rng(17);
  std::vector<Edit> drawn; // on every state of the module so far
  int applied = 0, refused = 0;
  for (int i = 0; i < 150; ++i) {
    EditKind kind =
        kAllEditKinds[i % (sizeof(kAllEditKinds) / sizeof(kAllEditKinds[0]))];
    absl::StatusOr<Edit> fresh =
        proposeEdit(*module, kind, MutationOptions(), rng);
    if (fresh.ok())
      drawn.push_back(*fresh);
    if (drawn.empty())
      continue;
    // Every other one an edit drawn on an earlier state: some of those no
    // longer resolve, verify or pass the static check.
    const Edit &edit =
        i % 2 || !fresh.ok() ? drawn[rng() % drawn.size()] : *fresh;
    AddressIndex index(*module);
    mlir::IRMapping mapping;
    mlir::OwningOpRef<mlir::ModuleOp> withIndex(
        llvm::cast<mlir::ModuleOp>((*module)->clone(mapping)));
    mlir::OwningOpRef<mlir::ModuleOp> plain((*module).clone());
    AddressIndex derived(*withIndex, index, mapping);
    EditOutcome got, expected;
    absl::Status gotStatus = applyEdit(*withIndex, edit, &got, kDefaultMaxFuzz,
                                       SafetyOptions(), &derived);
    absl::Status expectedStatus = applyEdit(*plain, edit, &expected);
    ASSERT_EQ(gotStatus.ok(), expectedStatus.ok())
        << toString(edit.kind) << ": " << gotStatus << " / " << expectedStatus;
    EXPECT_EQ(gotStatus.message(), expectedStatus.message());
    EXPECT_EQ(got.unproven, expected.unproven);
    EXPECT_EQ(got.fuzz, expected.fuzz);
    if (!gotStatus.ok()) {
      ++refused;
      continue;
    }
    EXPECT_EQ(text(*withIndex), text(*plain));
    ++applied;
    if (i % 3 == 0)
      module = std::move(plain); // the next edits on the edited module
  }
  EXPECT_GT(applied, 30);
  EXPECT_GT(refused, 5);
}

} // namespace
} // namespace gevo
