//===- messages_test.cc - The MPI backend's messages survive the trip -----===//

#include "gevo/mpi/messages.h"

#include <gtest/gtest.h>

#include "replay/patch.h"

namespace gevo {
namespace {

Edit edit(const char *line) {
  absl::StatusOr<Edit> parsed = parseEdit(line);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  return *parsed;
}

TEST(Messages, JobIsPatchTextAndComesBackWhole) {
  RemoteJob job;
  job.key = "0123456789abcdef";
  job.edits = {edit("constant @main/arith.constant#0~c99c2014 = 0.001"),
               edit("delete @main/arith.maximumf#1~8e932aa3 ; "
                    "@main/linalg.yield#5~2e728ee0[0] <- "
                    "@main/linalg.generic#1~0436967b^0")};
  job.scoreTest = true;
  job.maxSeconds = 2.5;
  job.referenceRunMs = 0.1 + 0.2; // not exactly representable in decimal
  job.interleavedPairs = 5;
  std::string text = encodeJob(41, job);
  // A patch: replay's parser reads it, with the edits as patch lines.
  ASSERT_TRUE(parsePatch(text, "job").ok()) << text;
  EXPECT_NE(text.find(printEdit(job.edits[1])), std::string::npos) << text;

  absl::StatusOr<std::pair<uint64_t, RemoteJob>> back = decodeJob(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->first, 41u);
  EXPECT_EQ(back->second.key, job.key);
  ASSERT_EQ(back->second.edits.size(), 2u);
  EXPECT_EQ(printEdit(back->second.edits[0]), printEdit(job.edits[0]));
  EXPECT_EQ(printEdit(back->second.edits[1]), printEdit(job.edits[1]));
  EXPECT_TRUE(back->second.scoreTest);
  EXPECT_EQ(back->second.maxSeconds, 2.5);
  EXPECT_EQ(back->second.referenceRunMs, job.referenceRunMs);
  EXPECT_EQ(back->second.interleavedPairs, 5);
}

TEST(Messages, JobRankZeroDidNotBuildComesBackWithoutKey) {
  RemoteJob job; // no key: the rank keys the variant
  job.edits = {edit("constant @main/arith.constant#0~c99c2014 = 0.001")};
  std::string text = encodeJob(5, job);
  ASSERT_TRUE(parsePatch(text, "job").ok()) << text;
  absl::StatusOr<std::pair<uint64_t, RemoteJob>> back = decodeJob(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->first, 5u);
  EXPECT_TRUE(back->second.key.empty()) << text;
  ASSERT_EQ(back->second.edits.size(), 1u);
  // A keyed job keeps its key.
  job.key = "0000000000000000";
  EXPECT_EQ(decodeJob(encodeJob(6, job))->second.key, job.key);
}

TEST(Messages, JobCarriesItsRacePlanExactly) {
  RemoteJob job;
  job.edits = {edit("constant @main/arith.constant#0~c99c2014 = 0.001")};
  job.interleavedPairs = 5;
  job.race.front = {{0.1, 1.0, 5}, {0.3, 0.123456789012345678, 0}};
  job.race.firstReadingMargin = 0.5;
  job.race.pairNoise = 0.0173;
  job.race.maxError = 0.35;
  job.race.runLimitRatio = 2.25;
  job.race.dryRun = true;
  job.race.referenceMs = 7; // each rank reads against its own
  absl::StatusOr<std::pair<uint64_t, RemoteJob>> back =
      decodeJob(encodeJob(9, job));
  ASSERT_TRUE(back.ok()) << back.status();
  const RacePlan &race = back->second.race;
  ASSERT_EQ(race.front.size(), 2u);
  EXPECT_EQ(race.front[1].ratio, job.race.front[1].ratio);
  EXPECT_EQ(race.front[0].error, 0.1);
  EXPECT_EQ(race.front[0].pairs, 5);
  EXPECT_EQ(race.pairNoise, 0.0173);
  EXPECT_EQ(race.maxError, 0.35);
  EXPECT_EQ(race.runLimitRatio, 2.25);
  EXPECT_TRUE(race.dryRun);
  EXPECT_FALSE(race.stopUndecided);
  EXPECT_EQ(race.referenceMs, 0);
  job.race.dryRun = false;
  job.race.stopUndecided = true;
  job.race.evictShort = true;
  back = decodeJob(encodeJob(9, job));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_FALSE(back->second.race.dryRun);
  EXPECT_TRUE(back->second.race.stopUndecided);
  EXPECT_TRUE(back->second.race.evictShort);
  job.race.dryRun = true;
  // No racing: no plan travels, and a malformed one is an error.
  EXPECT_FALSE(decodeJob(encodeJob(10, RemoteJob{}))->second.race.enabled());
  std::string text = encodeJob(11, job);
  size_t at = text.find("race=");
  ASSERT_NE(at, std::string::npos) << text;
  text.insert(at + 5, "x");
  EXPECT_FALSE(decodeJob(text).ok());
}

TEST(Messages, JobWithoutIdIsRejected) {
  std::string text = encodeJob(7, RemoteJob{"0123456789abcdef"});
  size_t at = text.find("job=7");
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, 5, "jab=7");
  EXPECT_FALSE(decodeJob(text).ok());
}

TEST(Messages, SeveralJobsTravelInOneMessageInOrder) {
  RemoteJob first{"0123456789abcdef"};
  first.edits = {edit("constant @main/arith.constant#0~c99c2014 = 0.001")};
  RemoteJob second{"fedcba9876543210"};
  std::string batch;
  appendToBatch(batch, encodeJob(3, first));
  appendToBatch(batch, encodeJob(4, second));
  absl::StatusOr<std::vector<std::string>> texts = splitBatch(batch);
  ASSERT_TRUE(texts.ok()) << texts.status();
  ASSERT_EQ(texts->size(), 2u);
  absl::StatusOr<std::pair<uint64_t, RemoteJob>> a = decodeJob((*texts)[0]);
  absl::StatusOr<std::pair<uint64_t, RemoteJob>> b = decodeJob((*texts)[1]);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->first, 3u);
  EXPECT_EQ(a->second.key, first.key);
  ASSERT_EQ(a->second.edits.size(), 1u);
  EXPECT_EQ(printEdit(a->second.edits[0]), printEdit(first.edits[0]));
  EXPECT_EQ(b->first, 4u);
  EXPECT_EQ(b->second.key, second.key);
  // A frame that claims more bytes than the message holds, or no length.
  EXPECT_FALSE(splitBatch(batch.substr(0, batch.size() - 1)).ok());
  EXPECT_FALSE(splitBatch("x\nabc").ok());
  EXPECT_TRUE(splitBatch("")->empty());
}

TEST(Messages, ResultKeepsEveryFigureExactly) {
  Measurement m;
  m.outcome = Outcome::Crash;
  m.detail = "signal 11 (Segmentation fault): \"quoted\"";
  m.validation.correct = 301;
  m.validation.total = 360;
  m.runMs = {0.1 + 0.2, 1.0 / 3};
  m.medianRunMs = 1.0 / 7;
  m.staticCost = 123456789.0;
  m.loweredOps = 4242;
  std::string text = encodeResult(9, RemoteResult{m});
  absl::StatusOr<std::pair<uint64_t, RemoteResult>> decoded =
      decodeResult(text);
  ASSERT_TRUE(decoded.ok()) << decoded.status();
  EXPECT_EQ(decoded->first, 9u);
  const Measurement &back = decoded->second.measurement;
  EXPECT_EQ(back.outcome, Outcome::Crash);
  EXPECT_EQ(back.detail, m.detail);
  EXPECT_EQ(back.validation.correct, 301);
  EXPECT_EQ(back.runMs, m.runMs);
  EXPECT_EQ(back.medianRunMs, m.medianRunMs);
  EXPECT_EQ(back.staticCost, m.staticCost);
  EXPECT_EQ(toJsonLine(back), toJsonLine(m));
  EXPECT_TRUE(decoded->second.key.empty());
  EXPECT_EQ(text.substr(0, 2), "9 "); // the id, then the JSON line
  EXPECT_FALSE(decodeResult("{\"job\":1}").ok());
  EXPECT_FALSE(decodeResult("9 not json").ok());
  EXPECT_FALSE(decodeResult("x {}").ok());
}

TEST(Messages, ResultSaysWhatTheRankBuilt) {
  RemoteResult result;
  result.measurement.outcome = Outcome::Ok;
  result.key = "0123456789abcdef";
  result.dropped = {0, 3};
  result.fromCache = true;
  std::string text = encodeResult(12, result);
  absl::StatusOr<std::pair<uint64_t, RemoteResult>> back = decodeResult(text);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->first, 12u);
  EXPECT_EQ(back->second.key, "0123456789abcdef");
  EXPECT_EQ(back->second.dropped, (std::vector<int>{0, 3}));
  EXPECT_TRUE(back->second.fromCache);
  EXPECT_EQ(toJsonLine(back->second.measurement),
            toJsonLine(result.measurement));
  EXPECT_FALSE(decodeResult("12 dropped=1,x {}").ok());
  EXPECT_FALSE(decodeResult("12 color=red {}").ok());
  EXPECT_FALSE(decodeResult("12 key=ab").ok());
}

TEST(Messages, BreedingTextsKeepTheirNumbersAndBytes) {
  // Recipes are patch text: several lines, any bytes but the frame's.
  std::vector<std::pair<uint64_t, std::string>> texts = {
      {7, "# gevo patch v1\nmodel 0000\n"}, {0, ""}, {123456789, "a\n\nb"}};
  absl::StatusOr<std::vector<std::pair<uint64_t, std::string>>> back =
      decodeNumbered(encodeNumbered(texts));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, texts);
  EXPECT_FALSE(decodeNumbered("5\nab").ok());    // no number line
  EXPECT_FALSE(decodeNumbered("9\n3\nab").ok()); // frame past the end
}

TEST(Messages, BredAnswerSaysWhetherTheBreederFailed) {
  std::string why;
  EXPECT_EQ(decodeBred(encodeBred(std::string("-x\n"))), "-x\n");
  std::optional<std::string> failed = decodeBred(
      encodeBred(absl::InvalidArgumentError("no breeder here")), &why);
  EXPECT_FALSE(failed.has_value());
  EXPECT_EQ(why, "no breeder here");
}

TEST(Messages, HelloRoundTripsAndNeedsEveryField) {
  RankHello hello{"node-17", 4242, 3, "fedcba9876543210", 0.75};
  absl::StatusOr<RankHello> back = decodeHello(encodeHello(hello));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->host, "node-17");
  EXPECT_EQ(back->pid, 4242);
  EXPECT_EQ(back->workers, 3);
  EXPECT_EQ(back->unmodifiedKey, "fedcba9876543210");
  EXPECT_EQ(back->baselineRunMs, 0.75);
  EXPECT_FALSE(decodeHello("{\"host\":\"a\",\"pid\":1}").ok());
}

TEST(Messages, RunTimesAreScaledToTheReferenceBaseline) {
  Measurement m;
  m.runMs = {4.0, 6.0};
  m.medianRunMs = 5.0;
  m.validation.correct = 10;
  m.validation.total = 20;
  // Measured where the unmodified program takes 2 ms; rank 0 sees 1 ms.
  scaleRunTimes(m, /*referenceRunMs=*/1.0, /*ownRunMs=*/2.0);
  EXPECT_EQ(m.medianRunMs, 2.5);
  EXPECT_EQ(m.runMs, (std::vector<double>{2.0, 3.0}));
  EXPECT_EQ(m.error(), 0.5); // scores untouched
  scaleRunTimes(m, 0, 2.0);  // nothing known: unchanged
  EXPECT_EQ(m.medianRunMs, 2.5);
}

} // namespace
} // namespace gevo
