//===- variant_session_fixture.h - A session over the variants fixture ----===//
//
// The test fixture the session's tests share: an EvaluationSession over
// gevo/eval/testdata/variants, its modules loaded in the session's context,
// evaluated plainly or raced against a given front.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_VARIANT_SESSION_FIXTURE_H
#define GEVO_EVAL_VARIANT_SESSION_FIXTURE_H

#include "gevo/eval/sandbox.h"
#include "gevo/eval/variant_session.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {

inline constexpr char kFixture[] = "gevo/eval/testdata/variants";
inline constexpr int kRacePairs = 4;

class VariantSessionTest : public ::testing::Test {
protected:
  void SetUp() override {
    absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(findRunfile(kFixture));
    ASSERT_TRUE(spec.ok()) << spec.status();
    absl::StatusOr<std::unique_ptr<EvaluationSession>> created =
        EvaluationSession::create(*spec, EvaluationOptions());
    ASSERT_TRUE(created.ok()) << created.status();
    session = std::move(*created);
  }

  /// A module of the fixture's directory, in the session's context.
  mlir::OwningOpRef<mlir::ModuleOp> fixture(const std::string &name) {
    auto module = loadModule(session->context(),
                             findRunfile(std::string(kFixture) + "/" + name));
    EXPECT_TRUE(module.ok()) << module.status();
    return module.ok() ? std::move(*module) : nullptr;
  }

  Measurement evaluateFile(const std::string &name, double timeout = 20,
                           const RunRequest &request = RunRequest()) {
    SandboxPool pool(1, SandboxLimits{timeout, int64_t(2) << 30});
    return session->evaluate(pool, fixture(name), request);
  }

  /// The unmodified program as a variant, timed in kRacePairs pairs
  /// against a race front holding `front` (race.h).
  Measurement measureRaced(std::vector<FrontPoint> front, bool dryRun = false,
                           double referenceMs = 0) {
    RunRequest request;
    request.interleavedPairs = kRacePairs;
    request.race.front = std::move(front);
    request.race.dryRun = dryRun;
    request.race.referenceMs = referenceMs;
    SandboxPool pool(1, SandboxLimits{30, int64_t(2) << 30});
    return session->evaluate(
        pool, mlir::OwningOpRef<mlir::ModuleOp>(session->baseline().clone()),
        request);
  }

  std::unique_ptr<EvaluationSession> session;
};

} // namespace gevo

#endif // GEVO_EVAL_VARIANT_SESSION_FIXTURE_H
