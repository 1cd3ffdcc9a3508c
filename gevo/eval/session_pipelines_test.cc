//===- session_pipelines_test.cc - The sandboxed path scores as plain does ===//
//
// The evaluation a search runs (EvaluationSession: warmed up in the parent,
// each variant lowered, compiled and run in a forked child) with the default,
// optimising configuration must make the same predictions as the plain
// pipeline on both digits workloads, and must really run the optimised code.
//
//===----------------------------------------------------------------------===//

#include "gevo/eval/variant_session.h"

#include "gevo/eval/sandbox.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/support/tool_paths.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

Measurement measureUnmodified(const std::string &workload,
                              const std::string &pipeline) {
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec(findRunfile("testdata/" + workload));
  EXPECT_TRUE(spec.ok()) << spec.status();
  EvaluationOptions options;
  options.pipeline = pipeline;
  absl::StatusOr<std::unique_ptr<EvaluationSession>> session =
      EvaluationSession::create(*spec, options);
  EXPECT_TRUE(session.ok()) << session.status();
  if (!session.ok())
    return Measurement();
  SandboxPool pool(1, SandboxLimits{60, int64_t(4) << 30});
  RunRequest request;
  request.scoreTest = true;
  // Two children of the same warmed session: the second must not differ.
  Measurement first =
      (*session)->evaluate(pool, (*session)->baseline().clone(), request);
  Measurement second =
      (*session)->evaluate(pool, (*session)->baseline().clone(), request);
  EXPECT_EQ(first.validation.correct, second.validation.correct);
  EXPECT_EQ(first.test.correct, second.test.correct);
  return first;
}

class SessionPipelinesTest : public ::testing::TestWithParam<const char *> {};

TEST_P(SessionPipelinesTest, DefaultScoresAsPlainDoes) {
  Measurement plain = measureUnmodified(GetParam(), "plain");
  Measurement fast = measureUnmodified(GetParam(), "");
  ASSERT_TRUE(plain.ok()) << plain.detail;
  ASSERT_TRUE(fast.ok()) << fast.detail;
  // The optimising pipeline's code ran, not the fallback.
  EXPECT_EQ(fast.loweringFallback, "");
  EXPECT_GT(fast.lowerMs, 0);
  EXPECT_GT(fast.codegenMs, 0);
  EXPECT_GT(fast.validation.total, 0);
  // Summation order differs (vector lanes); predictions must not.
  EXPECT_EQ(fast.validation.correct, plain.validation.correct);
  EXPECT_EQ(fast.test.correct, plain.test.correct);
  EXPECT_GT(fast.validation.accuracy(), 0.9);
}

INSTANTIATE_TEST_SUITE_P(Digits, SessionPipelinesTest,
                         ::testing::Values("digits_mlp_train",
                                           "digits_mlp_predict"));

} // namespace
} // namespace gevo
