//===- variant_session_test.cc - Bad variants are contained and classified ===//

#include "gevo/eval/variant_session.h"

#include "gevo/eval/variant_session_fixture.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

#include <csignal>

namespace gevo {
namespace {

TEST_F(VariantSessionTest, ScoresAValidModuleInTheParent) {
  Measurement m = evaluateFile("ok.mlir");
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.detail;
  EXPECT_EQ(m.validation.total, 360);
  // Ten raw pixels as class scores: wrong mostly, but not always.
  EXPECT_GT(m.validation.correct, 0);
  EXPECT_LT(m.validation.correct, 360);
  EXPECT_EQ(m.runMs.size(), 2u);
  EXPECT_GT(m.loweredOps, 0);
  EXPECT_GT(m.staticCost, 0);
}

TEST_F(VariantSessionTest, ChildrenOfTheForkServerMeasureAsChildrenForkedHere) {
  ASSERT_TRUE(session->forkServer() && session->forkServer()->alive());
  Measurement served = evaluateFile("ok.mlir");
  EvaluationOptions local;
  local.forkServer = false;
  auto here = EvaluationSession::create(session->spec(), local);
  ASSERT_TRUE(here.ok()) << here.status();
  EXPECT_EQ((*here)->forkServer(), nullptr);
  SandboxPool pool(1, SandboxLimits{20, int64_t(2) << 30});
  auto module = loadModule((*here)->context(),
                           findRunfile(std::string(kFixture) + "/ok.mlir"));
  ASSERT_TRUE(module.ok()) << module.status();
  Measurement forked = (*here)->evaluate(pool, std::move(*module), {});
  ASSERT_EQ(served.outcome, Outcome::Ok) << served.detail;
  ASSERT_EQ(forked.outcome, Outcome::Ok) << forked.detail;
  EXPECT_EQ(served.validation.correct, forked.validation.correct);
  EXPECT_EQ(served.loweredOps, forked.loweredOps);
  EXPECT_EQ(served.runMs.size(), forked.runMs.size());
}

TEST_F(VariantSessionTest, AVariantOutlivesItsForkServer) {
  ASSERT_TRUE(session->forkServer());
  ASSERT_EQ(::kill(session->forkServer()->pid(), SIGKILL), 0);
  Measurement m = evaluateFile("ok.mlir");
  EXPECT_EQ(m.outcome, Outcome::Ok) << m.detail;
  EXPECT_FALSE(session->forkServer()->alive());
  EXPECT_EQ(evaluateFile("ok.mlir").outcome, Outcome::Ok);
}

TEST_F(VariantSessionTest, InfiniteLoopTimesOut) {
  Measurement m = evaluateFile("infinite_loop.mlir", /*timeout=*/1.5);
  EXPECT_EQ(m.outcome, Outcome::Timeout) << m.detail;
  EXPECT_NE(m.detail.find("timeout"), std::string::npos) << m.detail;
}

TEST_F(VariantSessionTest, OutOfBoundsReadCrashesTheChildOnly) {
  Measurement m = evaluateFile("out_of_bounds.mlir");
  EXPECT_EQ(m.outcome, Outcome::Crash) << m.detail;
  EXPECT_NE(m.detail.find("signal"), std::string::npos) << m.detail;
}

TEST_F(VariantSessionTest, ReadingPastTheEndOfAnInputIsOutOfBounds) {
  Measurement m = evaluateFile("slice_past_end.mlir");
  EXPECT_EQ(m.outcome, Outcome::OutOfBounds) << m.detail;
  EXPECT_NE(m.detail.find("input tensor"), std::string::npos) << m.detail;
}

TEST_F(VariantSessionTest, WritingIntoAnInputIsOutOfBounds) {
  // Inputs are read only in the worker: the write faults at once.
  Measurement m = evaluateFile("writes_input.mlir");
  EXPECT_EQ(m.outcome, Outcome::OutOfBounds) << m.detail;
  EXPECT_NE(m.detail.find("write into an input tensor"), std::string::npos)
      << m.detail;
}

TEST_F(VariantSessionTest, NaNLogitsAreClassified) {
  Measurement m = evaluateFile("nan.mlir");
  EXPECT_EQ(m.outcome, Outcome::NonFinite) << m.detail;
  EXPECT_EQ(m.validation.nonFiniteRows, 360);
}

TEST_F(VariantSessionTest, RacingStopsNaNLogitsAfterTheFirstRun) {
  // It fails whatever its time: no pair is made, and it is still a failure.
  RunRequest request;
  request.interleavedPairs = kRacePairs;
  request.race.front = {{0.5, 1.0}};
  request.race.referenceMs = 1.0;
  Measurement m = evaluateFile("nan.mlir", 20, request);
  EXPECT_EQ(m.outcome, Outcome::NonFinite) << m.detail;
  EXPECT_EQ(m.validation.nonFiniteRows, 360);
  EXPECT_EQ(m.raced, kRacedFailedFirstRun);
  EXPECT_EQ(m.runMs.size(), 1u);
  EXPECT_FALSE(stoppedDominated(m.raced));
  EXPECT_FALSE(enteredEarly(m.raced));
}

TEST_F(VariantSessionTest, HugeAllocationIsOutOfMemory) {
  Measurement m = evaluateFile("huge_allocation.mlir");
  EXPECT_EQ(m.outcome, Outcome::OutOfMemory) << m.detail;
}

TEST_F(VariantSessionTest, ReadingMemoryNeverWrittenIsClassified) {
  Measurement m = evaluateFile("uninitialized.mlir");
  EXPECT_EQ(m.outcome, Outcome::ReadsUninitialized) << m.detail;
}

TEST_F(VariantSessionTest, WrongNumberOfRowsIsWrongShape) {
  Measurement m = evaluateFile("wrong_shape.mlir");
  EXPECT_EQ(m.outcome, Outcome::WrongShape) << m.detail;
  EXPECT_NE(m.detail.find("5x10"), std::string::npos) << m.detail;
}

TEST_F(VariantSessionTest, UnlowerableOpIsLoweringFailed) {
  Measurement m = evaluateFile("unlowerable.mlir");
  EXPECT_EQ(m.outcome, Outcome::LoweringFailed) << m.detail;
  EXPECT_NE(m.detail.find("tosa"), std::string::npos) << m.detail;
}

TEST_F(VariantSessionTest, IrThatDoesNotVerifyIsInvalidIr) {
  auto module = loadModule(session->context(),
                           findRunfile(std::string(kFixture) + "/ok.mlir"));
  ASSERT_TRUE(module.ok());
  // Return an i32 where the function promises a tensor.
  auto function = (*module)->lookupSymbol<mlir::func::FuncOp>("main");
  mlir::Operation *ret = function.getBody().front().getTerminator();
  mlir::OpBuilder builder(ret);
  mlir::Value bad = mlir::arith::ConstantIntOp::create(builder, ret->getLoc(),
                                                       builder.getI32Type(), 1);
  ret->setOperand(0, bad);
  SandboxPool pool(1, SandboxLimits());
  Measurement m = session->evaluate(pool, std::move(*module), RunRequest());
  EXPECT_EQ(m.outcome, Outcome::InvalidIr) << m.detail;
}

TEST_F(VariantSessionTest, InterleavedRunsGiveARatioNearOneForTheBaseline) {
  SandboxPool pool(1, SandboxLimits());
  RunRequest request;
  request.interleavedPairs = 6;
  request.scoreTest = true;
  Measurement m = session->evaluate(
      pool, mlir::OwningOpRef<mlir::ModuleOp>(session->baseline().clone()),
      request);
  ASSERT_EQ(m.outcome, Outcome::Ok) << m.detail;
  EXPECT_EQ(m.runMs.size(), 6u);
  EXPECT_GT(m.runtimeRatio, 0.2);
  EXPECT_LT(m.runtimeRatio, 5.0);
  EXPECT_EQ(m.test.total, 360);
}

TEST(SandboxTest, ManyChildrenAtOnceAllComeBack) {
  SandboxPool pool(3, SandboxLimits{5, 0});
  std::vector<std::string> payloads(8);
  for (int i = 0; i < 8; ++i)
    pool.submit([i] { return std::string(100000 + i, 'a' + i); },
                [&, i](ChildResult r) { payloads[i] = r.payload; });
  pool.wait();
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(payloads[i].size(), 100000u + i) << "child " << i;
    EXPECT_TRUE(payloads[i] == std::string(100000 + i, 'a' + i))
        << "child " << i;
  }
}

TEST(SandboxTest, AbortIsASignalWithItsMessage) {
  ChildResult r = runIsolated(
      []() -> std::string {
        std::fputs("about to abort\n", stderr);
        std::abort();
      },
      SandboxLimits());
  EXPECT_EQ(r.ending, ChildResult::Ending::Signaled);
  EXPECT_EQ(r.signal, SIGABRT);
  EXPECT_NE(r.stderrTail.find("about to abort"), std::string::npos);
}

// Racing in a real child: stopped early after a first reading a front
// member beats beyond the margin (its error still exact), never when only
// less accurate members are faster; a dry run records where it would stop.
TEST_F(VariantSessionTest, RacingAFrontItCannotReachStopsItAfterTheFirstRun) {
  Measurement full = measureRaced({});
  ASSERT_TRUE(full.ok()) << full.detail;
  EXPECT_EQ(full.raced, "");
  EXPECT_EQ(full.runMs.size(), static_cast<size_t>(kRacePairs));
  // Its pairs' spread, which racing reads a pair's noise from: the same
  // program on both sides differs by timing noise only.
  EXPECT_GE(full.pairSpread, 0);
  EXPECT_LT(full.pairSpread, 0.5);
  // A member with no error, 1000x faster: nothing reaches it.
  Measurement raced = measureRaced({{0.0, 0.001}}, false, full.medianRunMs);
  ASSERT_TRUE(raced.ok()) << raced.detail;
  EXPECT_EQ(raced.raced, kRacedAfterFirstRun);
  EXPECT_EQ(raced.runMs.size(), 1u);
  // Its ratio is that one run's against the reference: about 1.
  EXPECT_GT(raced.runtimeRatio, 0.3);
  EXPECT_LT(raced.runtimeRatio, 3);
  // The error is exact however little was timed.
  EXPECT_EQ(raced.validation.correct, full.validation.correct);
  EXPECT_EQ(raced.validation.total, full.validation.total);
}

TEST_F(VariantSessionTest,
       RacingAFrontOnlyLessAccurateMembersHoldDoesNotStopIt) {
  Measurement full = measureRaced({});
  ASSERT_TRUE(full.ok()) << full.detail;
  // Faster, but less accurate than the variant: it enters however slow,
  // so its timing stops once the minimum of pairs is made.
  Measurement m =
      measureRaced({{full.error() + 0.01, 0.001}}, false, full.medianRunMs);
  ASSERT_TRUE(m.ok()) << m.detail;
  RacePlan plan;
  EXPECT_EQ(m.raced, enteredAfterPairs(plan.minPairs));
  EXPECT_EQ(m.runMs.size(), static_cast<size_t>(plan.minPairs));
  EXPECT_GT(m.runtimeRatio, 0);
}

// The unmodified program's known error: its logits in the child must score
// it (racing's first run of the variant comes before any of its runs, so
// comparing its first and last run cannot see what that run wrote).
TEST_F(VariantSessionTest, RacingChecksTheUnmodifiedProgramsKnownError) {
  Measurement full = measureRaced({});
  ASSERT_TRUE(full.ok()) << full.detail;
  RunRequest request;
  request.interleavedPairs = kRacePairs;
  request.race.front = {{full.error() + 0.01, 0.001}}; // it enters
  request.race.referenceMs = full.medianRunMs;
  request.race.unmodifiedError = full.error();
  SandboxPool pool(1, SandboxLimits{30, int64_t(2) << 30});
  auto unmodified = [&] {
    return mlir::OwningOpRef<mlir::ModuleOp>(session->baseline().clone());
  };
  Measurement same = session->evaluate(pool, unmodified(), request);
  EXPECT_TRUE(same.ok()) << same.detail;
  request.race.unmodifiedError = full.error() + 0.05;
  Measurement other = session->evaluate(pool, unmodified(), request);
  EXPECT_EQ(other.outcome, Outcome::OutOfBounds) << other.detail;
}

// Pairs with the unmodified program that put a short variant just behind a
// short member (race.h, processNoise): dominated in this process, not beyond
// what another would read, so timing stops after minPairs with its reading
// kept; the same readings of long programs stop it as dominated.
TEST_F(VariantSessionTest, RacingKeepsAShortVariantWithinTheProcessNoise) {
  Measurement full = measureRaced({});
  ASSERT_TRUE(full.ok()) << full.detail;
  ASSERT_LT(full.medianRunMs, 1.0); // microseconds: the cap's noise
  RunRequest request;
  request.interleavedPairs = kRacePairs;
  request.race.front = {{full.error(), 0.97, kRacePairs}};
  request.race.referenceMs = full.medianRunMs;
  request.race.firstReadingMargin = 1e6; // no first-run stop
  request.race.band = 0.3; // a pair's own noise always lies within it
  SandboxPool pool(1, SandboxLimits{30, int64_t(2) << 30});
  auto unmodified = [&] {
    return mlir::OwningOpRef<mlir::ModuleOp>(session->baseline().clone());
  };
  // Real microsecond timings scatter: a noisy pair can leave the verdict
  // open one pair longer (CI read pairs:3 once), so the stop may come at any
  // pair from the plan's minimum to one before the last.
  RacePlan plan;
  auto stoppedEarly = [&](const Measurement &m, int minimum) {
    int n = static_cast<int>(m.runMs.size());
    return n >= minimum && n < kRacePairs;
  };
  Measurement kept = session->evaluate(pool, unmodified(), request);
  ASSERT_TRUE(kept.ok()) << kept.detail;
  EXPECT_TRUE(stoppedEarly(kept, plan.minPairs)) << kept.runMs.size();
  EXPECT_EQ(kept.raced,
            withinNoiseAfterPairs(static_cast<int>(kept.runMs.size())));
  EXPECT_FALSE(stoppedDominated(kept.raced));
  EXPECT_GT(kept.runtimeRatio, 0.5);
  EXPECT_LT(kept.runtimeRatio, 2.0);
  request.race.referenceMs = 100; // read as a 100-ms program: no such noise
  Measurement stopped = session->evaluate(pool, unmodified(), request);
  ASSERT_TRUE(stopped.ok()) << stopped.detail;
  EXPECT_TRUE(stoppedEarly(stopped, plan.minPairsDominated))
      << stopped.runMs.size();
  EXPECT_EQ(stopped.raced,
            racedAfterPairs(static_cast<int>(stopped.runMs.size())));
  EXPECT_TRUE(stoppedDominated(stopped.raced));
}

// Pairs that no interval closes on (a pair noise of 10) decide nothing.
// Stopping the undecided, a variant whose pairs put it ahead of every member
// at least as accurate stops after minPairs with that reading (it joins the
// front on it, to be read again); one behind them is timed through every
// pair, as without it.
TEST_F(VariantSessionTest, RacingStopsTheUndecidedOnlyAheadOfTheFront) {
  Measurement full = measureRaced({});
  ASSERT_TRUE(full.ok()) << full.detail;
  RunRequest request;
  request.interleavedPairs = kRacePairs;
  request.race.referenceMs = full.medianRunMs;
  request.race.firstReadingMargin = 1e6; // no first-run stop
  request.race.pairNoise = 10;
  request.race.stopUndecided = true;
  request.race.front = {{full.error(), 5.0, kRacePairs}}; // it is ahead
  SandboxPool pool(1, SandboxLimits{30, int64_t(2) << 30});
  auto unmodified = [&] {
    return mlir::OwningOpRef<mlir::ModuleOp>(session->baseline().clone());
  };
  int pairs = RacePlan().minPairs;
  ASSERT_LT(pairs, kRacePairs);
  Measurement ahead = session->evaluate(pool, unmodified(), request);
  ASSERT_TRUE(ahead.ok()) << ahead.detail;
  EXPECT_EQ(ahead.raced, undecidedAfterPairs(pairs));
  EXPECT_EQ(ahead.runMs.size(), static_cast<size_t>(pairs));
  EXPECT_FALSE(stoppedDominated(ahead.raced));
  EXPECT_FALSE(enteredEarly(ahead.raced));
  request.race.front[0].ratio = 0.2; // it is behind
  Measurement behind = session->evaluate(pool, unmodified(), request);
  ASSERT_TRUE(behind.ok()) << behind.detail;
  EXPECT_EQ(behind.raced, "");
  EXPECT_EQ(behind.runMs.size(), static_cast<size_t>(kRacePairs));
}

// With RacePlan::evictShort, a short variant beside a long unmodified program
// (a reference of 100 ms) is timed against one run of it; beside a short one,
// or without the setting, against a run per pair. A pair noise of 10 keeps
// every verdict open, so that every pair is made.
TEST_F(VariantSessionTest, RacingTimesAShortVariantAgainstOneLongRun) {
  Measurement full = measureRaced({});
  ASSERT_TRUE(full.ok()) << full.detail;
  RunRequest request;
  request.interleavedPairs = kRacePairs;
  request.race.front = {{full.error(), 1.0, kRacePairs}};
  request.race.firstReadingMargin = 1e6; // no first-run stop
  request.race.pairNoise = 10;
  request.race.evictShort = true;
  request.race.referenceMs = 100;
  SandboxPool pool(1, SandboxLimits{30, int64_t(2) << 30});
  auto measure = [&] {
    return session->evaluate(
        pool, mlir::OwningOpRef<mlir::ModuleOp>(session->baseline().clone()),
        request);
  };
  Measurement once = measure();
  ASSERT_TRUE(once.ok()) << once.detail;
  EXPECT_EQ(once.raced, "");
  EXPECT_EQ(once.runMs.size(), static_cast<size_t>(kRacePairs));
  EXPECT_EQ(once.baselineRuns, 1);
  EXPECT_GT(once.runtimeRatio, 0);
  absl::StatusOr<Measurement> back = parseMeasurementJson(toJsonLine(once));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->baselineRuns, 1);
  request.race.referenceMs = full.medianRunMs; // a short unmodified program
  EXPECT_EQ(measure().baselineRuns, kRacePairs);
  request.race.referenceMs = 100;
  request.race.evictShort = false;
  EXPECT_EQ(measure().baselineRuns, kRacePairs);
}

TEST_F(VariantSessionTest, RacingADryRunMakesEveryRunAndSaysWhereItWouldStop) {
  Measurement m = measureRaced({{0.0, 0.001}}, /*dryRun=*/true, 1.0);
  ASSERT_TRUE(m.ok()) << m.detail;
  EXPECT_EQ(m.raced, "");
  EXPECT_EQ(m.wouldRace, kRacedAfterFirstRun);
  EXPECT_EQ(m.runMs.size(), static_cast<size_t>(kRacePairs));
  // Its child's wall time covers at least its runs; it and the rest survive
  // the cache's JSON.
  double runs = 0;
  for (double ms : m.runMs)
    runs += ms;
  EXPECT_GE(m.childMs, runs);
  // And its CPU time too (the runs are computation, not waiting), of which
  // the system's is a part (it may read 0 where the kernel counts CPU time
  // by ticks).
  EXPECT_GE(m.childCpuMs, 0.5 * runs);
  EXPECT_LE(m.childSystemMs, m.childCpuMs);
  absl::StatusOr<Measurement> back = parseMeasurementJson(toJsonLine(m));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->wouldRace, kRacedAfterFirstRun);
  EXPECT_EQ(back->childMs, m.childMs);
  EXPECT_EQ(back->childCpuMs, m.childCpuMs);
  EXPECT_EQ(back->childSystemMs, m.childSystemMs);
}

} // namespace
} // namespace gevo
