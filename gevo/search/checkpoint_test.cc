//===- checkpoint_test.cc - Checkpoints round-trip ------------------------===//

#include "gevo/search/checkpoint.h"

#include "replay/patch.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// A checkpoint with every field set.
Checkpoint sampleCheckpoint() {
  Checkpoint c;
  c.generation = 7;
  c.rngState = "1 2 3";
  c.elapsedSeconds = 12.5;
  c.counts.evaluations = 40;
  c.counts.cacheHits = 3;
  c.counts.remeasured = 6;
  c.counts.outcomes[Outcome::Crash] = 2;
  Individual individual;
  absl::StatusOr<Edit> edit =
      parseEdit("constant @main/arith.constant#0~c2d0ff7a = 0.005");
  EXPECT_TRUE(edit.ok()) << edit.status();
  if (edit.ok())
    individual.edits = {*edit};
  individual.key = "0123456789abcdef";
  individual.generation = 3;
  individual.newestKind = EditKind::Constant;
  individual.measurement.validation = {300, 360, 0};
  individual.measurement.medianRunMs = 21.5;
  c.population = {individual};
  c.archive = {individual, individual};
  Individual unmeasured; // a steady-state child still running
  unmeasured.edits = individual.edits;
  unmeasured.generation = 4;
  c.pending = {unmeasured};
  c.operators[EditKind::Constant].variants = 5;
  c.operators[EditKind::Constant].ok = 4;
  c.operators[EditKind::Constant].failures[Outcome::Timeout] = 1;
  c.operators[EditKind::Delete].variants = 2;
  Individual failed = individual;
  failed.key = "fedcba9876543210";
  failed.measurement.outcome = Outcome::Crash;
  failed.measurement.runMs = {1.25, 0.1 + 0.2};
  c.failed = {failed};
  return c;
}

TEST(CheckpointTest, CheckpointRoundTrips) {
  Checkpoint c = sampleCheckpoint();
  const Individual &individual = c.population[0];
  absl::StatusOr<Checkpoint> back = parseCheckpoint(toJsonText(c), "test");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->generation, 7);
  EXPECT_EQ(back->rngState, "1 2 3");
  EXPECT_EQ(back->counts.evaluations, 40);
  EXPECT_EQ(back->counts.cacheHits, 3);
  EXPECT_EQ(back->counts.remeasured, 6);
  EXPECT_EQ(back->counts.outcomes[Outcome::Crash], 2);
  ASSERT_EQ(back->population.size(), 1u);
  EXPECT_EQ(back->population[0].edits, individual.edits);
  EXPECT_EQ(back->population[0].key, individual.key);
  EXPECT_EQ(back->population[0].newestKind, EditKind::Constant);
  EXPECT_EQ(back->population[0].measurement.validation.correct, 300);
  EXPECT_EQ(back->archive.size(), 2u);
  ASSERT_EQ(back->pending.size(), 1u);
  EXPECT_EQ(back->pending[0].edits, individual.edits);
  EXPECT_EQ(back->pending[0].generation, 4);
  EXPECT_TRUE(back->pending[0].key.empty());
  EXPECT_EQ(back->operators[EditKind::Constant].failures[Outcome::Timeout], 1);
  ASSERT_EQ(back->failed.size(), 1u);
  EXPECT_EQ(back->failed[0].measurement.outcome, Outcome::Crash);

  EXPECT_FALSE(parseCheckpoint("{\"version\": 2}", "x").ok());
  EXPECT_FALSE(parseCheckpoint("not json", "x").ok());
}

TEST(CheckpointTest, TextIsWhatAJsonTreeOfItPrints) {
  // The checkpoint is streamed, not built as one tree: its text must still
  // be the canonical one (keys sorted as a json::Object prints them,
  // numbers as json::Value prints them), so that checkpoints written before
  // and after read and compare alike.
  std::string text = toJsonText(sampleCheckpoint());
  llvm::Expected<llvm::json::Value> tree = llvm::json::parse(text);
  ASSERT_TRUE(static_cast<bool>(tree)) << llvm::toString(tree.takeError());
  std::string printed;
  llvm::raw_string_ostream os(printed);
  os << *tree;
  os.flush();
  EXPECT_EQ(text, printed);
  // And reading it back writes it again word for word.
  absl::StatusOr<Checkpoint> back = parseCheckpoint(text, "test");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(toJsonText(*back), text);
}

} // namespace
} // namespace gevo
