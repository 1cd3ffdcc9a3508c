//===- replay_test.cc - Replaying mutator patches on fresh MLIR -----------===//
//
// Random edit sequences on both workloads never crash and always verify; a
// patch replays byte for byte on the same file, on the file re-printed (other
// SSA names, no comments), and on the file with an unrelated function added;
// and apply(parse(print(p))) == apply(p).
//
//===----------------------------------------------------------------------===//

#include <fstream>
#include <random>
#include <sstream>

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/op_address.h"
#include "gevo/ir/readdress.h"
#include "gevo/support/tool_paths.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "replay/apply.h"
#include "replay/parsing_fixture.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

std::string print(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os);
  return text;
}

class ReplayTest
    : public ParsingFixture<::testing::TestWithParam<const char *>> {};

TEST_P(ReplayTest, RandomPatchesReplayByteForByte) {
  std::string source = readRunfile(GetParam());
  mlir::OwningOpRef<mlir::ModuleOp> base = parse(source);
  ASSERT_TRUE(base);
  std::string reprinted = print(*base);
  // The re-printed file has other SSA names (%0 for %W1), no comments and
  // other spacing; the third copy also gains an unrelated function.
  std::string withUnrelated = reprinted;
  withUnrelated.insert(withUnrelated.find("module {\n") + 9,
                       "func.func @unrelated(%a: f32) -> f32 {\n"
                       "  %b = arith.mulf %a, %a : f32\n"
                       "  return %b : f32\n}\n");
  int accepted = 0, rejected = 0;
  const int seeds = 12;
  for (int seed = 1; seed <= seeds; ++seed) {
    std::mt19937_64 rng(seed);
    mlir::OwningOpRef<mlir::ModuleOp> variant = base->clone();
    Patch patch;
    patch.model = modelFingerprint(*base);
    for (int step = 0; step < 4; ++step) {
      absl::StatusOr<Edit> edit =
          proposeAnyEdit(*variant, MutationOptions(), rng, 20);
      if (!edit.ok()) {
        ++rejected;
        continue;
      }
      ASSERT_TRUE(applyEdit(*variant, *edit).ok()) << printEdit(*edit);
      ASSERT_TRUE(mlir::succeeded(mlir::verify(*variant)));
      patch.addEdit(*edit);
      ++accepted;
    }
    std::string expected = print(*variant);
    std::string text = printPatch(patch);
    absl::StatusOr<Patch> parsed = parsePatch(text, "p.gevo");
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    ASSERT_EQ(printPatch(*parsed), text);

    for (const std::string *input : {&source, &reprinted}) {
      mlir::OwningOpRef<mlir::ModuleOp> fresh = parse(*input);
      absl::StatusOr<ApplyReport> report =
          applyPatch(*fresh, *parsed, "p.gevo", OnMismatch::Error);
      ASSERT_TRUE(report.ok()) << report.status() << "\n" << text;
      EXPECT_TRUE(report->modelMatches);
      EXPECT_EQ(print(*fresh), expected) << text;
    }
    mlir::OwningOpRef<mlir::ModuleOp> changed = parse(withUnrelated);
    absl::StatusOr<ApplyReport> report =
        applyPatch(*changed, *parsed, "p.gevo", OnMismatch::Error);
    ASSERT_TRUE(report.ok()) << report.status() << "\n" << text;
    EXPECT_FALSE(report->modelMatches);
    auto mainOf = [](mlir::ModuleOp module) -> std::string {
      auto main = module.lookupSymbol<mlir::func::FuncOp>("main");
      return main ? print(main) : "no @main in:\n" + print(module);
    };
    EXPECT_EQ(mainOf(*changed), mainOf(*variant)) << text;
  }
  EXPECT_GT(accepted, 3 * rejected) << "operators fail too often";
}

TEST_P(ReplayTest, EditsReaddressedAfterDroppingOthersApplyWithoutFuzz) {
  // What a minimiser does: keep some edits of a patch. The kept ones still
  // re-anchor by fingerprint; re-recorded, they apply exactly (fuzz 0) and
  // build the same module. A patch kept whole is re-recorded unchanged.
  mlir::OwningOpRef<mlir::ModuleOp> base = parse(readRunfile(GetParam()));
  ASSERT_TRUE(base);
  int shifted = 0, checked = 0;
  for (int seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 rng(100 + seed);
    mlir::OwningOpRef<mlir::ModuleOp> variant = base->clone();
    std::vector<Edit> edits;
    for (int step = 0; step < 5; ++step) {
      absl::StatusOr<Edit> edit =
          proposeAnyEdit(*variant, MutationOptions(), rng, 20);
      if (edit.ok() && applyEdit(*variant, *edit).ok())
        edits.push_back(*edit);
    }
    absl::StatusOr<std::vector<Edit>> whole = readdressEdits(*base, edits);
    ASSERT_TRUE(whole.ok()) << whole.status();
    EXPECT_TRUE(*whole == edits);
    // Drop each edit in turn; keep the rest when they still apply.
    for (size_t drop = 0; drop < edits.size(); ++drop) {
      std::vector<Edit> kept = edits;
      kept.erase(kept.begin() + drop);
      mlir::OwningOpRef<mlir::ModuleOp> asKept = base->clone();
      bool applies = true;
      for (const Edit &edit : kept)
        applies = applies && applyEdit(*asKept, edit).ok();
      absl::StatusOr<std::vector<Edit>> readdressed =
          readdressEdits(*base, kept);
      ASSERT_EQ(readdressed.ok(), applies) << readdressed.status();
      if (!applies)
        continue;
      ++checked;
      shifted += *readdressed != kept;
      mlir::OwningOpRef<mlir::ModuleOp> replayed = base->clone();
      for (const Edit &edit : *readdressed) {
        EditOutcome outcome;
        ASSERT_TRUE(applyEdit(*replayed, edit, &outcome).ok());
        EXPECT_EQ(outcome.fuzz, 0) << printEdit(edit);
      }
      EXPECT_EQ(print(*replayed), print(*asKept));
    }
  }
  EXPECT_GT(checked, 20);
  EXPECT_GT(shifted, 0) << "no dropped edit ever moved another's address";
}

INSTANTIATE_TEST_SUITE_P(
    Workloads, ReplayTest,
    ::testing::Values("testdata/digits_mlp_train/model.mlir",
                      "testdata/digits_mlp_predict/model.mlir"));

constexpr const char kSmall[] = R"mlir(
func.func @main(%a: f32, %b: f32) -> f32 {
  %0 = arith.mulf %a, %b : f32
  %1 = arith.addf %0, %a : f32
  %2 = arith.mulf %1, %1 : f32
  return %2 : f32
}
)mlir";

class AnchorTest : public ParsingFixture<> {
protected:
  /// A patch deleting the second mulf (its use, the return, takes %0).
  Patch deleteSecondMulf() {
    mlir::OwningOpRef<mlir::ModuleOp> module = parse(kSmall);
    AddressIndex index(*module);
    Patch patch;
    patch.model = modelFingerprint(*module);
    mlir::Operation *mulf = nullptr, *first = nullptr, *ret = nullptr;
    for (mlir::Operation *op : index.ops()) {
      std::string name = op->getName().getStringRef().str();
      if (name == "arith.mulf")
        (first ? mulf : first) = op;
      if (name == "func.return")
        ret = op;
    }
    Edit edit;
    edit.kind = EditKind::Delete;
    edit.target = *index.refOf(mulf);
    Rewire rewire;
    rewire.user = *index.refOf(ret);
    rewire.value = *index.refOf(first->getResult(0));
    edit.rewires.push_back(rewire);
    patch.addEdit(edit);
    return patch;
  }
};

TEST_F(AnchorTest, ReanchorsAfterAnInsertionWithFuzz) {
  Patch patch = deleteSecondMulf();
  EXPECT_EQ(toString(patch.edits()[0].target).substr(0, 18),
            "@main/arith.mulf#1");
  // Another mulf (different operands, so another fingerprint) comes first.
  std::string shifted = kSmall;
  shifted.replace(shifted.find("  %0 ="), 0,
                  "  %x = arith.mulf %b, %b : f32\n");
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(shifted);
  absl::StatusOr<ApplyReport> report =
      applyPatch(*module, patch, "p.gevo", OnMismatch::Error);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->edits.size(), 1u);
  EXPECT_EQ(report->edits[0].fate, EditResult::Fate::Reanchored);
  EXPECT_EQ(report->edits[0].fuzz, 1);
  EXPECT_THAT(print(*module), HasSubstr("return %1 : f32"));
  EXPECT_THAT(report->summary("p.gevo"), HasSubstr("1 re-anchored"));
}

TEST_F(AnchorTest, GoneAnchorIsAnErrorNamingTheEdit) {
  Patch patch = deleteSecondMulf();
  std::string changed = kSmall;
  changed.replace(changed.find("%2 = arith.mulf %1, %1"), 22,
                  "%2 = arith.mulf %a, %1");
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(changed);
  std::string before = print(*module);
  absl::StatusOr<ApplyReport> report =
      applyPatch(*module, patch, "p.gevo", OnMismatch::Error);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()),
              HasSubstr("edit 1 (delete @main/arith.mulf#1~"));
  EXPECT_THAT(std::string(report.status().message()),
              HasSubstr("the anchor is gone or changed"));
  // With skip, the edit is reported and the module left as it was.
  module = parse(changed);
  report = applyPatch(*module, patch, "p.gevo", OnMismatch::Skip);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->edits[0].fate, EditResult::Fate::Skipped);
  EXPECT_EQ(print(*module), before);
}

TEST_F(AnchorTest, FarOffOrdinalIsRefusedBeyondTheFuzzLimit) {
  Patch patch = deleteSecondMulf();
  Edit edit = patch.edits()[0];
  edit.target.ordinal = 999999; // the op is at ordinal 1
  Patch far;
  far.model = patch.model;
  far.addEdit(edit);
  far.entries.back().line = 3;
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(kSmall);
  absl::StatusOr<ApplyReport> report =
      applyPatch(*module, far, "p.gevo", OnMismatch::Error);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()),
              HasSubstr("p.gevo:3: error: edit 1 (delete "));
  EXPECT_THAT(std::string(report.status().message()),
              HasSubstr("is 999998 positions from ordinal 999999, beyond the "
                        "fuzz limit of 100"));
  // Within the limit (default or raised) it re-anchors with that fuzz.
  far.entries.back().edit.target.ordinal = 101;
  module = parse(kSmall);
  report = applyPatch(*module, far, "p.gevo", OnMismatch::Error);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->edits[0].fuzz, 100);
  far.entries.back().edit.target.ordinal = 999999;
  module = parse(kSmall);
  report = applyPatch(*module, far, "p.gevo", OnMismatch::Error, 1000000);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->edits[0].fuzz, 999998);
  // A limit of 0 takes only the recorded ordinal.
  far.entries.back().edit.target.ordinal = 0;
  module = parse(kSmall);
  report = applyPatch(*module, far, "p.gevo", OnMismatch::Error, 0);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()),
              HasSubstr("beyond the fuzz limit of 0"));
}

TEST_F(AnchorTest, TwoEquallyNearCandidatesAreAmbiguous) {
  Patch patch = deleteSecondMulf();
  // The recorded op (mulf #1: %1 * %1) is gone from ordinal 1, and two copies
  // of it sit at ordinals 0 and 2.
  constexpr const char kTwins[] = R"mlir(
func.func @main(%a: f32, %b: f32) -> f32 {
  %1 = arith.addf %a, %a : f32
  %x = arith.mulf %1, %1 : f32
  %0 = arith.mulf %a, %b : f32
  %y = arith.mulf %1, %1 : f32
  return %y : f32
}
)mlir";
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(kTwins);
  absl::StatusOr<ApplyReport> report =
      applyPatch(*module, patch, "p.gevo", OnMismatch::Error);
  ASSERT_FALSE(report.ok());
  EXPECT_THAT(std::string(report.status().message()), HasSubstr("ambiguous"));
}

} // namespace
} // namespace gevo
