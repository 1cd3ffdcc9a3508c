//===- sandboxed_evaluation.cc - One module evaluated as the search would -===//

#include "gevo/workbench/sandboxed_evaluation.h"

#include "absl/strings/str_cat.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/measurement.h"
#include "gevo/ir/frontend.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "gevo/workbench/workbench.h"

namespace gevo {
namespace {

/// The pipeline whose code ran: the first choice, or `plain` after a
/// fallback (the child reports only that).
std::string loweredWith(const EvaluationOptions &options,
                        const Measurement &m) {
  if (!m.loweringFallback.empty())
    return kPlainPipelineName;
  if (options.target != kCpuTargetName)
    return options.target;
  if (options.pipeline.empty() || options.pipeline == kVectorPipelineName)
    return kVectorPipelineName;
  return options.pipeline == kPlainPipelineName ? kPlainPipelineName : "custom";
}

EvaluationReport toReport(const WorkloadSpec &spec, const std::string &path,
                          const EvaluationOptions &options, Workbench &bench,
                          const Measurement &m) {
  EvaluationReport report;
  report.workload = spec.name;
  report.modulePath = path;
  report.outcome = toString(m.outcome);
  report.detail = m.detail;
  report.validation = m.validation;
  report.test = m.test;
  report.lowerMs = m.lowerMs;
  report.codegenMs = m.codegenMs;
  report.runMs = m.runMs;
  report.medianRunMs = m.medianRunMs;
  report.target = options.target;
  report.deviceTime = bench.evaluation().target().capabilities().deviceTime;
  report.pipeline = bench.evaluation().pipeline();
  report.loweredWith = loweredWith(options, m);
  report.fallbackReason = m.loweringFallback;
  return report;
}

} // namespace

absl::StatusOr<EvaluationReport>
evaluateSandboxed(const WorkloadSpec &spec, const std::string &variantPath,
                  const EvaluationOptions &options) {
  WorkbenchOptions benchOptions;
  benchOptions.evaluation = options;
  benchOptions.workers = 1;
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<Workbench> bench,
                        Workbench::create(spec, benchOptions));
  RunRequest run;
  run.scoreTest = options.scoreTest;
  absl::Status baseline = bench->measureBaseline();
  if (variantPath.empty() && !baseline.ok()) // the module is the workload's
    return toReport(spec, spec.modulePath, options, *bench, bench->baseline());
  if (!baseline.ok())
    return absl::InvalidArgumentError(absl::StrCat(
        baseline.message(), " (its run sets the variant's time limit)"));
  if (variantPath.empty()) {
    // The workload's own module as the session loaded it (an ONNX model
    // imported, a training program generated).
    EvaluationReport report = toReport(
        spec, spec.modulePath, options, *bench,
        bench->measureModule(bench->evaluation().baseline().clone(), run));
    report.source = toString(bench->evaluation().sourceForm());
    return report;
  }
  const std::string &path = variantPath;
  GEVO_ASSIGN_OR_RETURN(std::string text, readFile(path, "MLIR file"));
  auto start = SteadyClock::now();
  SourceForm form = SourceForm::Linalg;
  GEVO_ASSIGN_OR_RETURN(
      mlir::OwningOpRef<mlir::ModuleOp> module,
      parseLinalgModule(bench->evaluation().context(), text, path, &form));
  double parseMs = millisecondsSince(start);
  EvaluationReport report =
      toReport(spec, path, options, *bench,
               bench->measureModule(std::move(module), run));
  report.parseMs = parseMs;
  report.source = toString(form);
  return report;
}

} // namespace gevo
