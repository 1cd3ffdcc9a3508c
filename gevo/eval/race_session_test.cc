//===- race_session_test.cc - Racing in a real sandboxed child ------------===//
//
// The child stops timing a variant that a front member beats beyond the
// margin, says so, and still sends the logits the parent scores; a dry run
// makes every run and says where it would have stopped.
//
//===----------------------------------------------------------------------===//

#include "gevo/eval/sandbox.h"
#include "gevo/eval/variant_session.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

constexpr char kFixture[] = "gevo/eval/testdata/variants";
constexpr int kPairs = 4;

class RaceSessionTest : public ::testing::Test {
protected:
  void SetUp() override {
    absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(findRunfile(kFixture));
    ASSERT_TRUE(spec.ok()) << spec.status();
    absl::StatusOr<std::unique_ptr<EvaluationSession>> created =
        EvaluationSession::create(*spec, EvaluationOptions());
    ASSERT_TRUE(created.ok()) << created.status();
    session = std::move(*created);
  }

  /// The unmodified program as a variant, timed in kPairs pairs against a
  /// front holding `front`.
  Measurement measure(std::vector<FrontPoint> front, bool dryRun = false) {
    RunRequest request;
    request.interleavedPairs = kPairs;
    request.race.front = std::move(front);
    request.race.dryRun = dryRun;
    SandboxPool pool(1, SandboxLimits{30, int64_t(2) << 30});
    return session->evaluate(
        pool, mlir::OwningOpRef<mlir::ModuleOp>(session->baseline().clone()),
        request);
  }

  std::unique_ptr<EvaluationSession> session;
};

TEST_F(RaceSessionTest, AFrontItCannotReachStopsItAfterTheFirstRun) {
  Measurement full = measure({});
  ASSERT_TRUE(full.ok()) << full.detail;
  EXPECT_EQ(full.raced, "");
  EXPECT_EQ(full.runMs.size(), static_cast<size_t>(kPairs));
  // A member with no error, 1000x faster: nothing reaches it.
  Measurement raced = measure({{0.0, 0.001}});
  ASSERT_TRUE(raced.ok()) << raced.detail;
  EXPECT_EQ(raced.raced, kRacedAfterFirstRun);
  EXPECT_EQ(raced.runMs.size(), 1u);
  EXPECT_GT(raced.runtimeRatio, 0);
  // The error is exact however little was timed.
  EXPECT_EQ(raced.validation.correct, full.validation.correct);
  EXPECT_EQ(raced.validation.total, full.validation.total);
}

TEST_F(RaceSessionTest, AFrontOnlyLessAccurateMembersHoldDoesNotStopIt) {
  Measurement full = measure({});
  ASSERT_TRUE(full.ok()) << full.detail;
  // Faster, but less accurate than the variant: it enters however slow.
  Measurement m = measure({{full.error() + 0.01, 0.001}});
  ASSERT_TRUE(m.ok()) << m.detail;
  EXPECT_EQ(m.raced, "");
  EXPECT_EQ(m.runMs.size(), static_cast<size_t>(kPairs));
}

TEST_F(RaceSessionTest, ADryRunMakesEveryRunAndSaysWhereItWouldStop) {
  Measurement m = measure({{0.0, 0.001}}, /*dryRun=*/true);
  ASSERT_TRUE(m.ok()) << m.detail;
  EXPECT_EQ(m.raced, "");
  EXPECT_EQ(m.wouldRace, kRacedAfterFirstRun);
  EXPECT_EQ(m.runMs.size(), static_cast<size_t>(kPairs));
  // It survives the cache's JSON.
  absl::StatusOr<Measurement> back = parseMeasurementJson(toJsonLine(m));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->wouldRace, kRacedAfterFirstRun);
}

} // namespace
} // namespace gevo
