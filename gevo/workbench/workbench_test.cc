//===- workbench_test.cc - Edit lists measured on the training workload ---===//
//
// The workbench's promises: limits derived from the unmodified program, one
// run per distinct variant, answers from the cache, lists whose edits do not
// all apply left unmeasured when asked, and noise control against the
// unmodified program.
//
//===----------------------------------------------------------------------===//

#include "gevo/workbench/workbench.h"

#include "gevo/ir/op_address.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/BuiltinOps.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

class WorkbenchTest : public testing::Test {
protected:
  void SetUp() override {
    absl::StatusOr<WorkloadSpec> spec =
        loadWorkloadSpec(findRunfile("testdata/digits_mlp_train"));
    ASSERT_TRUE(spec.ok()) << spec.status();
    WorkbenchOptions options;
    options.evaluation.warmup = 0;
    options.evaluation.repeats = 1;
    options.workers = 2;
    absl::StatusOr<std::unique_ptr<Workbench>> created =
        Workbench::create(*spec, options);
    ASSERT_TRUE(created.ok()) << created.status();
    bench = std::move(*created);
    AddressIndex index(bench->unmodified());
    for (mlir::Operation *op : index.ops())
      if (index.refOf(op)->opName == "arith.constant") {
        constant = *index.refOf(op);
        break;
      }
  }

  /// The first constant of the unmodified program set to `literal`.
  Edit setConstant(const std::string &literal) const {
    return Edit{EditKind::Constant, constant, {}, literal, {}};
  }

  std::unique_ptr<Workbench> bench;
  OpRef constant;
};

TEST_F(WorkbenchTest, DerivesLimitsFromTheUnmodifiedProgram) {
  EXPECT_EQ(bench->timeoutSeconds(), 600); // nothing known yet
  ASSERT_TRUE(bench->measureBaseline().ok());
  EXPECT_TRUE(bench->baseline().ok());
  EXPECT_GE(bench->timeoutSeconds(), 2);
  EXPECT_LT(bench->timeoutSeconds(), 600);
  EXPECT_EQ(bench->unmodifiedKey(), modelFingerprint(bench->unmodified()));
}

TEST_F(WorkbenchTest, MeasuresEachDistinctVariantOnce) {
  Edit half = setConstant("0.5");
  std::vector<std::vector<Edit>> lists = {{}, {half}, {half}, {}};
  size_t arrived = 0;
  std::vector<MeasuredVariant> first =
      bench->measure(lists, BatchRequest(),
                     [&](size_t, const MeasuredVariant &) { ++arrived; });
  EXPECT_EQ(arrived, lists.size());
  ASSERT_EQ(first.size(), lists.size());
  EXPECT_TRUE(first[0].ran);
  EXPECT_TRUE(first[1].ran);
  EXPECT_FALSE(first[2].ran);
  EXPECT_FALSE(first[3].ran);
  EXPECT_EQ(first[1].key, first[2].key);
  EXPECT_EQ(first[0].key, bench->unmodifiedKey());
  for (const MeasuredVariant &variant : first) {
    ASSERT_TRUE(variant.measurement);
    EXPECT_TRUE(variant.measurement->ok()) << variant.measurement->detail;
  }
  // The same lists again: every answer from the cache.
  for (const MeasuredVariant &variant : bench->measure(lists)) {
    EXPECT_TRUE(variant.fromCache);
    EXPECT_FALSE(variant.ran);
  }
}

TEST_F(WorkbenchTest, LeavesOutListsThatDoNotApplyWhenAsked) {
  // The second edit names the constant as the first one left it, with the
  // old fingerprint: it no longer applies.
  std::vector<std::vector<Edit>> lists = {
      {setConstant("0.5"), setConstant("0.25")}};
  BatchRequest skip;
  skip.skipIncomplete = true;
  std::vector<MeasuredVariant> skipped = bench->measure(lists, skip);
  EXPECT_EQ(skipped[0].dropped, 1);
  EXPECT_FALSE(skipped[0].measurement);
  std::vector<MeasuredVariant> built = bench->measure(lists);
  EXPECT_EQ(built[0].dropped, 1);
  ASSERT_EQ(built[0].edits.size(), 1u);
  ASSERT_TRUE(built[0].measurement);
}

TEST_F(WorkbenchTest, MeasuresAgainstTheUnmodifiedProgram) {
  ASSERT_TRUE(bench->measureBaseline().ok());
  Workbench::AgainstUnmodified again =
      bench->measureAgainstUnmodified({{setConstant("0.5")}}, 2, true);
  ASSERT_EQ(again.variants.size(), 1u);
  ASSERT_TRUE(again.unmodified.ok()) << again.unmodified.detail;
  EXPECT_GT(again.unmodified.runtimeRatio, 0);
  EXPECT_GT(again.unmodified.test.total, 0);
  ASSERT_TRUE(again.variants[0].ok()) << again.variants[0].detail;
  EXPECT_GT(again.variants[0].runtimeRatio, 0);
}

TEST(CombineChildrenTest, TheMedianChildOutvotesOneSlowSide) {
  std::vector<Measurement> runs(3);
  double ratios[] = {0.98, 0.21, 1.03}; // the second child's baseline was slow
  for (int i = 0; i < 3; ++i) {
    runs[i].runtimeRatio = ratios[i];
    runs[i].medianRunMs = 1 + i;
    runs[i].baselineMedianRunMs = 1;
    runs[i].runMs = {1.0 + i, 1.5 + i};
  }
  Measurement combined = combineChildren(runs);
  ASSERT_TRUE(combined.ok());
  EXPECT_DOUBLE_EQ(combined.runtimeRatio, 0.98);
  EXPECT_DOUBLE_EQ(combined.medianRunMs, 2);
  EXPECT_EQ(combined.runMs.size(), 6u);
}

TEST(CombineChildrenTest, AFailureInAnyChildIsTheVariantsFailure) {
  std::vector<Measurement> runs(3);
  runs[2].outcome = Outcome::Crash;
  runs[2].detail = "SIGSEGV";
  Measurement combined = combineChildren(runs);
  EXPECT_EQ(combined.outcome, Outcome::Crash);
  EXPECT_EQ(combined.detail, "SIGSEGV");
}

TEST_F(WorkbenchTest, RepeatedMeasurementsRunInChildrenOfTheirOwn) {
  ASSERT_TRUE(bench->measureBaseline().ok());
  BatchRequest request;
  request.distinctRuns = true;
  std::vector<MeasuredVariant> twice = bench->measure({{}, {}}, request);
  ASSERT_EQ(twice.size(), 2u);
  EXPECT_TRUE(twice[0].ran);
  EXPECT_TRUE(twice[1].ran);
  EXPECT_FALSE(twice[1].fromCache);
  EXPECT_NE(twice[0].measurement->runMs, twice[1].measurement->runMs);
}

} // namespace
} // namespace gevo
