//===- head_to_head_test.cc - Racing a variant against a held member ------===//
//
// Racing's pairs of a variant with the front member it must beat, in the
// session's child: the verdicts they reach and the ratios derived from them.
//
//===----------------------------------------------------------------------===//

#include "gevo/eval/race.h"
#include "gevo/eval/variant_session_fixture.h"

namespace gevo {
namespace {

/// The session's fixture with slow_twin.mlir (the unmodified program's
/// logits after a long loop) held compiled as the one front member.
class HeadToHeadTest : public VariantSessionTest {
protected:
  /// Measures the unmodified program fully (`full`), holds slow_twin.mlir
  /// as `key` and races `request` against it as a member of stored ratio
  /// `ratio`, whose first reading never stops a variant.
  void holdTwin(const std::string &key, double ratio) {
    full = measureRaced({});
    ASSERT_TRUE(full.ok()) << full.detail;
    slow = fixture("slow_twin.mlir");
    ASSERT_TRUE(slow);
    ASSERT_TRUE(session->holdOpponent(key, *slow).ok());
    request.interleavedPairs = kRacePairs;
    request.race.front = {{full.error(), ratio, kRacePairs, key}};
    request.race.referenceMs = full.medianRunMs;
    request.race.firstReadingMargin = 1e6;
  }
  /// `m` was timed in all its pairs with the unmodified program (not raced
  /// to a stop, no ratio derived head to head).
  static void expectTimedFully(const Measurement &m) {
    ASSERT_TRUE(m.ok()) << m.detail;
    EXPECT_EQ(m.raced, "");
    EXPECT_EQ(m.runMs.size(), static_cast<size_t>(kRacePairs));
    EXPECT_GT(m.baselineMedianRunMs, 0);
  }
  mlir::OwningOpRef<mlir::ModuleOp> twin() {
    return mlir::OwningOpRef<mlir::ModuleOp>(slow->clone());
  }

  Measurement full;
  mlir::OwningOpRef<mlir::ModuleOp> slow;
  RunRequest request;
};

// Head to head: a front member the parent compiled (here slow_twin.mlir,
// held as a member whose stored ratio is 0.5) stops a variant as fast as it
// (slow_twin.mlir again) after pairs of the two, whatever its stored
// reading; its ratio is theirs times the member's. (The unmodified program
// runs for microseconds, whose pairs scatter too widely to decide.)
TEST_F(HeadToHeadTest, RacingHeadToHeadStopsATwinOfAHeldMember) {
  ASSERT_TRUE(session->holdsOpponents());
  holdTwin("twin", 0.5);
  EXPECT_TRUE(session->holdsOpponent("twin"));
  request.race.band = 0.3; // ratios within 30% count as equal
  SandboxPool pool(1, SandboxLimits{30, int64_t(2) << 30});
  Measurement m = session->evaluate(pool, twin(), request);
  ASSERT_TRUE(m.ok()) << m.detail;
  EXPECT_TRUE(stoppedDominated(m.raced)) << m.raced;
  EXPECT_EQ(m.raced, racedAgainstMember(static_cast<int>(m.runMs.size())));
  EXPECT_GE(m.runMs.size(), 2u);
  EXPECT_GT(m.runtimeRatio, 0.3);
  EXPECT_LT(m.runtimeRatio, 0.8);
  EXPECT_EQ(m.baselineMedianRunMs, 0); // the unmodified program never ran
  EXPECT_EQ(m.validation.correct, full.validation.correct);
  // A member whose logits score another error than the front says was
  // computed from memory the variant wrote: the variant fails.
  request.race.front = {{full.error() - 0.01, 0.5, kRacePairs, "twin"}};
  Measurement corrupt = session->evaluate(pool, twin(), request);
  EXPECT_EQ(corrupt.outcome, Outcome::OutOfBounds) << corrupt.detail;
  // A member no longer on the front is freed; a key never held is timed
  // against the unmodified program.
  session->keepOpponents({});
  EXPECT_FALSE(session->holdsOpponent("twin"));
  request.race.front = {{full.error(), 0.5, kRacePairs, "twin"}};
  Measurement plain = session->evaluate(pool, twin(), request);
  ASSERT_TRUE(plain.ok()) << plain.detail;
  EXPECT_GT(plain.baselineMedianRunMs, 0);
}

// Head to head the other way: a variant far faster than a held member as
// accurate (slow_twin.mlir: the same logits after a long loop) enters the
// front after pairs of the two, its ratio theirs times the member's, with no
// run of the unmodified program; against a member whose own ratio was
// derived so, or one shorter than RacePlan::minDerivingMs, it is timed
// against the unmodified program instead, and those pairs cannot stop it as
// dominated by the member's stored reading.
TEST_F(HeadToHeadTest, RacingHeadToHeadEntersAVariantThatBeatsTheMember) {
  // Its stored ratio (2: it is slower than the unmodified program).
  holdTwin("slow", 2.0);
  request.race.minDerivingMs = 0; // the member counts as long
  SandboxPool pool(1, SandboxLimits{30, int64_t(2) << 30});
  auto unmodified = [&] {
    return mlir::OwningOpRef<mlir::ModuleOp>(session->baseline().clone());
  };
  Measurement m = session->evaluate(pool, unmodified(), request);
  ASSERT_TRUE(m.ok()) << m.detail;
  EXPECT_TRUE(enteredEarly(m.raced)) << m.raced;
  EXPECT_TRUE(enteredHeadToHead(m.raced)) << m.raced;
  EXPECT_EQ(m.raced, enteredAgainstMember(static_cast<int>(m.runMs.size())));
  EXPECT_GE(m.runMs.size(), 2u);
  EXPECT_GT(m.runtimeRatio, 0);
  EXPECT_LT(m.runtimeRatio, 0.25);     // far faster than the member's 2
  EXPECT_EQ(m.baselineMedianRunMs, 0); // the unmodified program never ran
  EXPECT_EQ(m.validation.correct, full.validation.correct);
  // The member's ratio was itself derived: pairs with the unmodified
  // program give the variant's.
  request.race.front[0].derived = true;
  Measurement plain = session->evaluate(pool, unmodified(), request);
  ASSERT_TRUE(plain.ok()) << plain.detail;
  EXPECT_EQ(plain.raced, enteredAfterPairs(RacePlan().minPairs));
  EXPECT_GT(plain.baselineMedianRunMs, 0);
  // A member of microseconds (under the default minDerivingMs) whose stored
  // reading was lucky (x0.01): the variant beats it head to head, so its
  // pairs with the unmodified program, which read it far slower than that
  // stored x0.01, are all made instead of stopping it as dominated.
  request.race.front[0].derived = false;
  request.race.front[0].ratio = 0.01;
  request.race.minDerivingMs = RacePlan().minDerivingMs;
  ASSERT_LT(0.01 * request.race.referenceMs, request.race.minDerivingMs);
  Measurement lucky = session->evaluate(pool, unmodified(), request);
  expectTimedFully(lucky);
  EXPECT_GT(lucky.runtimeRatio, 0.1);
}

// Pairs that decide neither way (a twin of the member, with a pair noise
// no interval closes on): against a member long enough to derive from, the
// variant's ratio is the pairs' times the member's and the unmodified
// program never runs; against a shorter one it is timed fully against the
// unmodified program, and not stopped as dominated.
TEST_F(HeadToHeadTest, RacingHeadToHeadTieDerivesFromALongMember) {
  holdTwin("twin", 0.5);
  request.race.pairNoise = 10;    // no interval decides
  request.race.minDerivingMs = 0; // the member counts as long
  SandboxPool pool(1, SandboxLimits{30, int64_t(2) << 30});
  Measurement tied = session->evaluate(pool, twin(), request);
  ASSERT_TRUE(tied.ok()) << tied.detail;
  EXPECT_EQ(tied.raced, tiedAgainstMember(kRacePairs));
  EXPECT_TRUE(derivedHeadToHead(tied.raced));
  EXPECT_FALSE(stoppedDominated(tied.raced));
  EXPECT_FALSE(enteredEarly(tied.raced));
  EXPECT_EQ(tied.runMs.size(), static_cast<size_t>(kRacePairs));
  EXPECT_GT(tied.runtimeRatio, 0.3); // about the member's 0.5
  EXPECT_LT(tied.runtimeRatio, 0.8);
  EXPECT_EQ(tied.baselineMedianRunMs, 0); // the unmodified program never ran
  request.race.minDerivingMs = RacePlan().minDerivingMs;
  ASSERT_LT(0.5 * request.race.referenceMs, request.race.minDerivingMs);
  expectTimedFully(session->evaluate(pool, twin(), request));
  // Stopping the undecided changes nothing here: its pairs with the
  // unmodified program put it behind the member's stored reading, where a
  // stop would keep a reading nothing reads again.
  request.race.stopUndecided = true;
  expectTimedFully(session->evaluate(pool, twin(), request));
}

} // namespace
} // namespace gevo
