//===- variant_session.h - Evaluate many variants of one workload, isolated
//===//
//
// How the search, analysis and benchmarks measure variants, prepared once:
// the workload's data and bound argument tensors, a context holding the
// unmodified module, and the options' Target (target.h). Each variant (a
// module of that context, already edited) is checked in the parent
// (verifies, entry signature still fits), then lowered, compiled and run by
// the Target in a sandbox child (session_child.cc). The child sends back raw
// logits and timings only; the harness scores them here, in the parent, where
// the variant cannot reach the labels (session_decode.cc).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_VARIANT_SESSION_H
#define GEVO_EVAL_VARIANT_SESSION_H

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "gevo/eval/evaluator.h"
#include "gevo/eval/fork_server.h"
#include "gevo/eval/measurement.h"
#include "gevo/eval/race.h"
#include "gevo/eval/sandbox.h"
#include "gevo/eval/target.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/frontend.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir {
class MLIRContext;
} // namespace mlir

namespace gevo {

struct EntrySignature;

struct RunRequest {
  /// Also run and score the test split (only for reported variants).
  bool scoreTest = false;
  /// > 0: noise control. Compile the unmodified program beside the variant
  /// and alternate their runs this many times; the measurement's run times
  /// and runtimeRatio come from these pairs.
  int interleavedPairs = 0;
  /// With pairs: stop timing a variant that cannot enter this front
  /// (race.h); the measurement says how much was measured.
  RacePlan race;
};

class EvaluationSession {
public:
  /// Loads the workload's data and module; errors are the user's (bad spec,
  /// data, module or pipeline).
  static absl::StatusOr<std::unique_ptr<EvaluationSession>>
  create(const WorkloadSpec &spec, const EvaluationOptions &options);
  ~EvaluationSession();

  const WorkloadSpec &spec() const { return workload; }
  mlir::MLIRContext &context() { return *mlirContext; }
  /// The unmodified module (do not edit it: clone it).
  mlir::ModuleOp baseline() { return *baselineModule; }
  /// The form the workload's module was written in; `baseline()` is always
  /// its linalg form.
  SourceForm sourceForm() const { return form; }
  /// What its patches record in their `source` line ("" for linalg,
  /// "onnx batch=N" for an imported model).
  std::string patchSource() const { return sourceLine(form, import); }
  const std::string &pipeline() const { return pipelineText; }
  /// Where variants run, and what it can check.
  const Target &target() const { return *runner; }

  /// Evaluates `variant` (a module of context() or of another context with
  /// the same dialects) in a child of `pool` and
  /// calls `done` with the measurement when the child has ended. A variant
  /// that fails the parent-side checks gets its measurement at once.
  void submit(SandboxPool &pool, mlir::OwningOpRef<mlir::ModuleOp> variant,
              const RunRequest &request, std::function<void(Measurement)> done);

  /// Racing's head-to-head pairs (race.h, judgeHeadToHead): compiles the
  /// front member `member` (a variant that was measured fully, so it
  /// verified, compiled and ran) here in the parent, where the children
  /// forked from now on run it beside a variant it may dominate, under
  /// `key` (FrontPoint::key). A no-op for a key already held and on a
  /// target that compiles nothing in the parent (Target::compiledBaseline()
  /// null: its children time against the unmodified program); an error
  /// when it does not lower or compile here (its children then do the
  /// same).
  absl::Status holdOpponent(const std::string &key, mlir::ModuleOp member);
  /// Frees the members held under keys not in `keys`.
  void keepOpponents(const std::set<std::string> &keys);
  bool holdsOpponent(const std::string &key) const;
  /// The fork server children start from (fork_server.h); null where they
  /// fork from this process, and not alive() once it died.
  const ForkServer *forkServer() const { return server.get(); }
  /// Whether holdOpponent() compiles anything on this target.
  bool holdsOpponents() const { return runner->compiledBaseline() != nullptr; }

  /// Submits and waits: one measurement.
  Measurement evaluate(SandboxPool &pool,
                       mlir::OwningOpRef<mlir::ModuleOp> variant,
                       const RunRequest &request);

private:
  EvaluationSession() = default;
  /// In the child: lowers, compiles and runs `variant`; the payload
  /// (child_payload.h) for the parent (session_child.cc). `readMs`: the
  /// time a fork server's child took to read the variant it was sent.
  std::string runInChild(mlir::ModuleOp variant, const RunRequest &request,
                         double readMs = 0);
  /// The fork server (session_server.cc): started at the end of create()
  /// where EvaluationOptions::forkServer asks for it; what a child is
  /// sent, what it does with it, and the server's control messages.
  void startForkServer();
  absl::StatusOr<std::string> serverRequest(mlir::ModuleOp variant,
                                            const RunRequest &request) const;
  /// Whether a live fork server starts the children and holds the members.
  bool serving() const { return server && server->alive(); }
  /// Hands `variant` to the server's pool; false where it must be forked
  /// here (no server, or one found dead now).
  bool submitViaServer(SandboxPool &pool, mlir::ModuleOp variant,
                       const RunRequest &request,
                       const std::function<void(ChildResult)> &decoded);
  std::string runServedChild(const std::string &bytes);
  absl::Status serveControl(const std::string &bytes);
  /// holdOpponent() and keepOpponents() in this process.
  absl::Status holdOpponentHere(const std::string &key, mlir::ModuleOp member);
  void keepOpponentsHere(const std::set<std::string> &keys);
  Measurement decode(const ChildResult &result) const;

  WorkloadSpec workload;
  EvaluationOptions options;
  std::string pipelineText;
  DatasetSplit data;
  std::vector<HostTensor> validationArguments, testArguments;
  std::unique_ptr<mlir::MLIRContext> mlirContext;
  mlir::OwningOpRef<mlir::ModuleOp> baselineModule;
  SourceForm form = SourceForm::Linalg;
  ImportSettings import;
  std::unique_ptr<Target> runner;
  std::unique_ptr<EntrySignature> signature;
  /// holdOpponent()'s: front members compiled here, by key.
  std::map<std::string, std::unique_ptr<CompiledVariant>> opponents;
  /// Where children start from, if anywhere but here (fork_server.h), and
  /// the members it holds compiled, by key.
  std::unique_ptr<ForkServer> server;
  std::set<std::string> served;
};

} // namespace gevo

#endif // GEVO_EVAL_VARIANT_SESSION_H
