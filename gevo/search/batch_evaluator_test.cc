//===- batch_evaluator_test.cc - A generation's individuals, measured -----===//
//
// BatchEvaluator on the digits training workload: equal variants run once,
// disturbed paired children run again, and racing's entries are read twice.
//
//===----------------------------------------------------------------------===//

#include "gevo/search/batch_evaluator.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>

#include "gevo/eval/race.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/workbench.h"
#include "mlir/IR/BuiltinOps.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// A workbench on the training workload, one timed run per variant and no
/// warm-up; null (and a test failure) when it cannot start.
std::unique_ptr<Workbench> trainingBench() {
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec(findRunfile("testdata/digits_mlp_train"));
  if (!spec.ok()) {
    ADD_FAILURE() << spec.status();
    return nullptr;
  }
  WorkbenchOptions options;
  options.evaluation.warmup = 0;
  options.evaluation.repeats = 1;
  options.workers = 2;
  options.timeoutSeconds = 30;
  absl::StatusOr<std::unique_ptr<Workbench>> bench =
      Workbench::create(*spec, options);
  if (!bench.ok()) {
    ADD_FAILURE() << bench.status();
    return nullptr;
  }
  return std::move(*bench);
}

/// The first arith.constant of `module`: the training loop's learning rate.
std::optional<OpRef> firstConstant(mlir::ModuleOp module) {
  AddressIndex index(module);
  for (mlir::Operation *op : index.ops())
    if (index.refOf(op)->opName == "arith.constant")
      return *index.refOf(op);
  return std::nullopt;
}

TEST(BatchEvaluatorTest, EquivalentVariantsAreEvaluatedOnce) {
  std::unique_ptr<Workbench> bench = trainingBench();
  ASSERT_NE(bench, nullptr);
  mlir::ModuleOp baseline = bench->unmodified();

  // The learning rate set to 0.5 and back to 0.01: the same program as
  // the unmodified one, by another edit list.
  std::optional<OpRef> lr = firstConstant(baseline);
  ASSERT_TRUE(lr.has_value());
  Edit up{EditKind::Constant, *lr, {}, "0.5", {}};
  mlir::OwningOpRef<mlir::ModuleOp> changed(baseline.clone());
  ASSERT_TRUE(applyEdit(*changed, up).ok());
  std::optional<OpRef> changedLr = firstConstant(*changed);
  ASSERT_TRUE(changedLr.has_value());
  Edit back{EditKind::Constant, *changedLr, {}, "0.01", {}};

  BatchEvaluator evaluator(*bench);
  std::vector<Individual> batch(4);
  batch[1].edits = {up, back};
  batch[2].edits = {up};
  batch[3].edits = {up};
  evaluator.evaluate(batch);
  EXPECT_EQ(batch[0].key, batch[1].key);
  EXPECT_NE(batch[0].key, batch[2].key);
  EXPECT_EQ(batch[2].key, batch[3].key);
  EXPECT_EQ(evaluator.counts.evaluations, 2); // unmodified, and lr = 0.5
  EXPECT_EQ(evaluator.counts.cacheHits, 2);
  for (const Individual &individual : batch)
    EXPECT_TRUE(individual.feasible()) << individual.measurement.detail;
  EXPECT_EQ(batch[0].measurement.validation.correct,
            batch[1].measurement.validation.correct);
  EXPECT_NE(batch[0].measurement.validation.correct,
            batch[2].measurement.validation.correct);
}

TEST(BatchEvaluatorTest,
     DisturbedPairedChildrenRunAgainAndTheCacheKeepsTheReading) {
  auto paired = [](double ratio, double unmodifiedMs) {
    Measurement m;
    m.runtimeRatio = ratio;
    m.baselineMedianRunMs = unmodifiedMs;
    return m;
  };
  // Beside a 2 ms reference, the unmodified side may read up to 3 ms.
  EXPECT_TRUE(disturbedPair(paired(0.5, 3.1), 2.0));
  EXPECT_FALSE(disturbedPair(paired(0.5, 2.9), 2.0));
  EXPECT_FALSE(disturbedPair(paired(0, 9), 2.0)); // a plain reading

  std::unique_ptr<Workbench> bench = trainingBench();
  ASSERT_NE(bench, nullptr);
  ASSERT_TRUE(bench->measureBaseline().ok());
  std::optional<OpRef> lr = firstConstant(bench->unmodified());
  ASSERT_TRUE(lr.has_value());
  Edit up{EditKind::Constant, *lr, {}, "0.02", {}};

  // Factor 0: every paired child counts as disturbed and runs once more;
  // equal variants share what is kept, and so does the cache.
  BatchEvaluator evaluator(*bench, 2, 0);
  std::vector<Individual> batch(3);
  batch[1].edits = {up};
  batch[2].edits = {up};
  evaluator.evaluate(batch);
  EXPECT_EQ(evaluator.counts.evaluations, 2);
  EXPECT_EQ(evaluator.counts.remeasured, 2);
  EXPECT_EQ(evaluator.counts.outcomes[Outcome::Ok], 3);
  for (const Individual &individual : batch) {
    ASSERT_TRUE(individual.feasible()) << individual.measurement.detail;
    std::optional<Measurement> cached = bench->cache().find(individual.key);
    ASSERT_TRUE(cached.has_value());
    EXPECT_EQ(cached->runtimeRatio, individual.measurement.runtimeRatio);
    EXPECT_EQ(cached->baselineMedianRunMs,
              individual.measurement.baselineMedianRunMs);
  }
  EXPECT_EQ(batch[1].measurement.runMs, batch[2].measurement.runMs);
}

/// The lines `path` (a cache.jsonl) holds for `key`.
int cacheLines(const std::string &path, const std::string &key) {
  std::ifstream in(path);
  int lines = 0;
  for (std::string line; std::getline(in, line);)
    lines += line.find("\"" + key + "\"") != std::string::npos;
  return lines;
}

/// A racing evaluator on a fresh training bench whose cache is written to
/// `cachePath` (the unmodified program measured), and the edit that doubles
/// the learning rate: more accurate than the unmodified program (the rate
/// seeds' test in search_test.cc), so no member is at least as accurate and
/// its reading would enter the front.
struct RacingCase {
  std::unique_ptr<Workbench> bench;
  std::unique_ptr<BatchEvaluator> evaluator;
  Edit up;
};

std::optional<RacingCase> racingCase(const std::string &cachePath, bool reread,
                                     bool dryRun = false,
                                     double disturbedFactor = 1e9) {
  RacingCase c;
  c.bench = trainingBench();
  if (!c.bench || !c.bench->measureBaseline().ok())
    return std::nullopt;
  std::filesystem::remove(cachePath);
  if (!c.bench->cache().open(cachePath).ok())
    return std::nullopt;
  c.bench->cache().insert(c.bench->unmodifiedKey(), c.bench->baseline());
  std::optional<OpRef> lr = firstConstant(c.bench->unmodified());
  if (!lr)
    return std::nullopt;
  c.up = Edit{EditKind::Constant, *lr, {}, "0.02", {}};
  // By default no child counts as disturbed (a busy test machine would add
  // readings of its own): every reading past the first is an entry's second.
  c.evaluator = std::make_unique<BatchEvaluator>(*c.bench, 3, disturbedFactor);
  c.evaluator->setRacing(0.5, dryRun, 0, reread);
  return c;
}

std::string scratchFile(const std::string &name) {
  const char *root = std::getenv("TEST_TMPDIR");
  return std::string(root ? root : "/tmp") + "/" + name;
}

TEST(BatchEvaluatorTest, AnEntrysReadingIsASecondOneInAChildOfItsOwn) {
  for (bool reread : {false, true}) {
    SCOPED_TRACE(reread ? "re-reading entries" : "not re-reading");
    std::string path = scratchFile("entries.jsonl");
    std::optional<RacingCase> c = racingCase(path, reread);
    ASSERT_TRUE(c.has_value());
    // Generational: equal variants of a batch share both readings.
    std::vector<Individual> batch(2);
    batch[0].edits = {c->up};
    batch[1].edits = {c->up};
    c->evaluator->evaluate(batch);
    EXPECT_EQ(c->evaluator->counts.evaluations, 1);
    EXPECT_EQ(c->evaluator->counts.reread, reread ? 1 : 0);
    for (const Individual &individual : batch) {
      ASSERT_TRUE(individual.feasible()) << individual.measurement.detail;
      EXPECT_LT(individual.measurement.error(), c->bench->baseline().error());
      std::optional<Measurement> cached =
          c->bench->cache().find(individual.key);
      ASSERT_TRUE(cached.has_value());
      EXPECT_EQ(cached->runMs, individual.measurement.runMs);
    }
    EXPECT_EQ(batch[0].measurement.runMs, batch[1].measurement.runMs);
    // Both readings are in the cache's file, the second last (it is what
    // a resumed or imported run finds).
    EXPECT_EQ(cacheLines(path, batch[0].key), reread ? 2 : 1);
  }
}

/// Submits `c`'s edit as one steady-state child and services the evaluator
/// until it arrives (nothing when it has not within `seconds`).
std::optional<Individual> submitUp(RacingCase &c, int seconds) {
  Individual child;
  child.edits = {c.up};
  std::optional<Individual> arrived;
  c.evaluator->submit(
      child, [&](Individual individual) { arrived = std::move(individual); });
  for (int i = 0; i < seconds * 10 && !arrived; ++i)
    c.evaluator->service(100);
  return arrived;
}

TEST(BatchEvaluatorTest, ASteadyStateEntryIsReadAgainAsItArrives) {
  std::string path = scratchFile("steady_entries.jsonl");
  std::optional<RacingCase> c = racingCase(path, /*reread=*/true);
  ASSERT_TRUE(c.has_value());
  std::optional<Individual> arrived = submitUp(*c, 60);
  ASSERT_TRUE(arrived.has_value());
  ASSERT_TRUE(arrived->feasible()) << arrived->measurement.detail;
  EXPECT_EQ(c->evaluator->counts.evaluations, 1);
  EXPECT_EQ(c->evaluator->counts.reread, 1);
  EXPECT_EQ(c->evaluator->running(), 0);
  EXPECT_EQ(cacheLines(path, arrived->key), 2);
  std::optional<Measurement> cached = c->bench->cache().find(arrived->key);
  ASSERT_TRUE(cached.has_value());
  EXPECT_EQ(cached->runMs, arrived->measurement.runMs);
}

TEST(BatchEvaluatorTest, ADisturbedSecondReadingIsCachedOnce) {
  // Every child counts as disturbed, so both readings are run twice: the
  // first's steadier reading may add a line, the second's is cached once.
  std::string path = scratchFile("disturbed_entries.jsonl");
  std::optional<RacingCase> c = racingCase(path, /*reread=*/true,
                                           /*dryRun=*/false,
                                           /*disturbedFactor=*/0);
  ASSERT_TRUE(c.has_value());
  std::optional<Individual> arrived = submitUp(*c, 120);
  ASSERT_TRUE(arrived.has_value());
  ASSERT_TRUE(arrived->feasible()) << arrived->measurement.detail;
  EXPECT_EQ(c->evaluator->counts.reread, 1);
  EXPECT_EQ(c->evaluator->counts.remeasured, 2);
  int lines = cacheLines(path, arrived->key);
  EXPECT_GE(lines, 2);
  EXPECT_LE(lines, 3);
  std::optional<Measurement> cached = c->bench->cache().find(arrived->key);
  ASSERT_TRUE(cached.has_value());
  EXPECT_EQ(cached->runMs, arrived->measurement.runMs);
}

TEST(BatchEvaluatorTest, ADryRunReadsNothingTwice) {
  // The default, as the racing bench runs it: every variant timed
  // fully, nothing stopped and nothing read again.
  std::string path = scratchFile("dry_entries.jsonl");
  std::optional<RacingCase> c =
      racingCase(path, /*reread=*/true, /*dryRun=*/true);
  ASSERT_TRUE(c.has_value());
  std::vector<Individual> batch(1);
  batch[0].edits = {c->up};
  c->evaluator->evaluate(batch);
  ASSERT_TRUE(batch[0].feasible()) << batch[0].measurement.detail;
  EXPECT_EQ(c->evaluator->counts.evaluations, 1);
  EXPECT_EQ(c->evaluator->counts.reread, 0);
  EXPECT_EQ(cacheLines(path, batch[0].key), 1);
}

} // namespace
} // namespace gevo
