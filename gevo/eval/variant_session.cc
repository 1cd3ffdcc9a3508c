//===- variant_session.cc - Evaluate many variants of one workload --------===//

#include "gevo/eval/variant_session.h"

#include <cstdio>
#include <memory>

#include "absl/status/status.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/static_cost.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/eval/workload/workload_module.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/message_lines.h"
#include "gevo/support/status_macros.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

namespace gevo {

EvaluationSession::~EvaluationSession() = default;

absl::StatusOr<std::unique_ptr<EvaluationSession>>
EvaluationSession::create(const WorkloadSpec &spec,
                          const EvaluationOptions &options) {
  std::unique_ptr<EvaluationSession> session(new EvaluationSession());
  session->workload = spec;
  session->options = options;
  GEVO_ASSIGN_OR_RETURN(session->runner,
                        makeTarget(options, TargetUse::Sandboxed));
  Target &target = *session->runner;
  session->mlirContext = createContext();
  GEVO_RETURN_IF_ERROR(target.prepare(*session->mlirContext));
  session->pipelineText = target.pipelineText(LoweringNote());
  GEVO_ASSIGN_OR_RETURN(session->data, loadWorkloadData(spec));
  session->validationArguments =
      bindArguments(spec, session->data, SplitRole::Validation);
  session->testArguments = bindArguments(spec, session->data, SplitRole::Test);
  GEVO_ASSIGN_OR_RETURN(session->baselineModule,
                        loadWorkloadModule(*session->mlirContext, spec,
                                           session->data, &session->form,
                                           &session->import));
  GEVO_ASSIGN_OR_RETURN(
      EntrySignature signature,
      readEntrySignature(*session->baselineModule, spec.entry));
  session->signature = std::make_unique<EntrySignature>(std::move(signature));
  GEVO_RETURN_IF_ERROR(checkSignature(
      spec, *session->signature, session->validationArguments, session->data));
  target.warmUp(*session->baselineModule, *session->signature);
  target.placeAhead(session->validationArguments);
  target.placeAhead(session->testArguments);
  session->startForkServer();
  return session;
}

void EvaluationSession::submit(SandboxPool &pool,
                               mlir::OwningOpRef<mlir::ModuleOp> variant,
                               const RunRequest &request,
                               std::function<void(Measurement)> done) {
  {
    DiagnosticCollector diagnostics(*variant->getContext());
    if (mlir::failed(mlir::verify(*variant)))
      return done(
          failedMeasurement(Outcome::InvalidIr,
                            firstLine(diagnostics.message("does not verify"))));
  }
  absl::StatusOr<EntrySignature> signature =
      readEntrySignature(*variant, workload.entry);
  if (!signature.ok())
    return done(failedMeasurement(Outcome::WrongShape,
                                  firstLine(signature.status().message())));
  if (absl::Status status =
          checkSignature(workload, *signature, validationArguments, data);
      !status.ok())
    return done(
        failedMeasurement(Outcome::WrongShape, firstLine(status.message())));
  double staticCost = estimateStaticCost(*variant, workload.entry);
  auto decoded = [this, staticCost,
                  done = std::move(done)](ChildResult result) {
    Measurement m = decode(result);
    m.staticCost = staticCost;
    m.childMs = result.wallMs;
    m.childCpuMs = result.cpuMs;
    m.childSystemMs = result.systemMs;
    done(std::move(m));
  };
  mlir::ModuleOp module = *variant;
  if (submitViaServer(pool, module, request, decoded))
    return;
  pool.submit([this, module, request] { return runInChild(module, request); },
              std::move(decoded));
  // The child has its own copy now; `variant` is freed here.
}

bool EvaluationSession::submitViaServer(
    SandboxPool &pool, mlir::ModuleOp variant, const RunRequest &request,
    const std::function<void(ChildResult)> &decoded) {
  if (!serving())
    return false;
  absl::StatusOr<std::string> bytes = serverRequest(variant, request);
  if (!bytes.ok())
    return false;
  // A server that died takes no variant with it: the pool says so at once
  // (a failed start), and this process forks the child itself, as it does
  // from now on.
  auto lost = std::make_shared<std::string>();
  pool.submitVia(*server, *bytes, [this, lost, decoded](ChildResult result) {
    if (result.ending == ChildResult::Ending::ForkFailed && !server->alive()) {
      *lost = result.stderrTail.empty() ? "gone" : result.stderrTail;
      return;
    }
    decoded(std::move(result));
  });
  if (lost->empty())
    return true;
  std::fprintf(stderr,
               "gevo: %s; children are forked from this process from now "
               "on\n",
               lost->c_str());
  return false;
}

absl::Status EvaluationSession::holdOpponentHere(const std::string &key,
                                                 mlir::ModuleOp member) {
  if (!holdsOpponents() || key.empty() || opponents.count(key))
    return absl::OkStatus();
  // Lowered in the session's context, as a child lowers a variant; the
  // compiled code keeps nothing of the module.
  mlir::OwningOpRef<mlir::ModuleOp> copy =
      member->getContext() == mlirContext.get()
          ? member.clone()
          : copyIntoContext(member, *mlirContext);
  if (!copy)
    return absl::InternalError("the member could not be copied");
  GEVO_RETURN_IF_ERROR(runner->lower(*copy, workload.entry, nullptr));
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<CompiledVariant> compiled,
                        runner->compile(*copy, *signature));
  opponents[key] = std::move(compiled);
  return absl::OkStatus();
}

void EvaluationSession::keepOpponentsHere(const std::set<std::string> &keys) {
  for (auto it = opponents.begin(); it != opponents.end();)
    it = keys.count(it->first) ? std::next(it) : opponents.erase(it);
}

Measurement
EvaluationSession::evaluate(SandboxPool &pool,
                            mlir::OwningOpRef<mlir::ModuleOp> variant,
                            const RunRequest &request) {
  Measurement out;
  submit(pool, std::move(variant), request,
         [&](Measurement m) { out = std::move(m); });
  pool.wait();
  return out;
}

} // namespace gevo
