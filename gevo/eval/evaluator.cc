//===- evaluator.cc - Evaluate a workload's module once, in this process --===//

#include "gevo/eval/evaluator.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/target.h"
#include "gevo/eval/timed_runs.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/eval/workload/workload_module.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace {

/// A module parsed, checked, lowered and compiled by the options' target,
/// with the timings taken.
struct CompiledModule {
  /// Outlives the target, whose lowering holds passes of it.
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<Target> target;
  std::unique_ptr<CompiledVariant> variant;
  double parseMs = 0, lowerMs = 0, codegenMs = 0;
  LoweringNote lowering;
  SourceForm source = SourceForm::Linalg;
};

absl::StatusOr<CompiledModule>
compileModule(const WorkloadSpec &spec, const DatasetSplit &data,
              const std::vector<HostTensor> &arguments,
              const std::string &moduleText, const std::string &bufferName,
              const EvaluationOptions &options) {
  CompiledModule compiled;
  GEVO_ASSIGN_OR_RETURN(compiled.target, makeTarget(options));
  Target &target = *compiled.target;
  GEVO_RETURN_IF_ERROR(target.start());
  compiled.context = createContext();
  GEVO_RETURN_IF_ERROR(target.prepare(*compiled.context));
  auto start = SteadyClock::now();
  GEVO_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                        parseLinalgModule(*compiled.context, moduleText,
                                          bufferName, &compiled.source));
  compiled.parseMs = millisecondsSince(start);
  GEVO_ASSIGN_OR_RETURN(EntrySignature signature,
                        readEntrySignature(*module, spec.entry));
  GEVO_RETURN_IF_ERROR(checkSignature(spec, signature, arguments, data));
  start = SteadyClock::now();
  GEVO_RETURN_IF_ERROR(target.lower(*module, spec.entry, &compiled.lowering));
  compiled.lowerMs = millisecondsSince(start);
  start = SteadyClock::now();
  GEVO_ASSIGN_OR_RETURN(compiled.variant, target.compile(*module, signature));
  compiled.codegenMs = millisecondsSince(start);
  return compiled;
}

/// The report's fields that compiling the module gave.
EvaluationReport startReport(const WorkloadSpec &spec,
                             const std::string &bufferName,
                             const EvaluationOptions &options,
                             const CompiledModule &compiled) {
  EvaluationReport report;
  report.workload = spec.name;
  report.modulePath = bufferName;
  report.pipeline = compiled.target->pipelineText(compiled.lowering);
  report.loweredWith = compiled.lowering.loweredWith;
  report.source = toString(compiled.source);
  report.fallbackReason = compiled.lowering.fallbackReason;
  report.parseMs = compiled.parseMs;
  report.lowerMs = compiled.lowerMs;
  report.codegenMs = compiled.codegenMs;
  report.target = options.target;
  report.deviceTime = compiled.target->capabilities().deviceTime;
  return report;
}

/// The variant's logits, run once on the split scored as `evalSplit`.
absl::StatusOr<ClassificationScore> runAndScore(const WorkloadSpec &spec,
                                                const DatasetSplit &data,
                                                SplitRole evalSplit,
                                                CompiledModule &compiled) {
  std::vector<HostTensor> arguments = bindArguments(spec, data, evalSplit);
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<PlacedInputs> inputs,
                        compiled.target->place(arguments));
  GEVO_ASSIGN_OR_RETURN(TimedRun run, compiled.variant->run(*inputs));
  return scoreSplit(data, evalSplit, run.results[spec.logitsResult()]);
}

} // namespace

absl::StatusOr<EvaluationReport>
evaluateModuleText(const WorkloadSpec &spec, const DatasetSplit &data,
                   const std::string &moduleText, const std::string &bufferName,
                   const EvaluationOptions &options) {
  std::vector<HostTensor> arguments =
      bindArguments(spec, data, SplitRole::Validation);
  GEVO_ASSIGN_OR_RETURN(
      CompiledModule compiled,
      compileModule(spec, data, arguments, moduleText, bufferName, options));
  EvaluationReport report = startReport(spec, bufferName, options, compiled);

  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<PlacedInputs> inputs,
                        compiled.target->place(arguments));
  auto [warmup, repeats] = runCounts(options, spec);
  TimedRuns runs;
  if (std::optional<ScheduleFailure> failure = makeTimedRuns(
          {warmup, repeats, 0}, *compiled.variant, nullptr, *inputs, runs))
    return failure->status;
  report.runMs = runs.ms;
  report.medianRunMs = median(report.runMs);
  if (report.deviceTime) {
    report.hostRunMs = runs.hostMs;
    report.launchesPerRun = runs.launches;
  }
  GEVO_ASSIGN_OR_RETURN(report.validation,
                        scoreSplit(data, SplitRole::Validation,
                                   runs.results[spec.logitsResult()]));
  if (options.scoreTest) {
    GEVO_ASSIGN_OR_RETURN(report.test,
                          runAndScore(spec, data, SplitRole::Test, compiled));
  }
  return report;
}

absl::StatusOr<EvaluationReport>
evaluateWorkload(const WorkloadSpec &spec, const EvaluationOptions &options) {
  GEVO_ASSIGN_OR_RETURN(DatasetSplit data, loadWorkloadData(spec));
  SourceForm form = SourceForm::Linalg;
  GEVO_ASSIGN_OR_RETURN(std::string text,
                        readWorkloadModuleText(spec, data, &form));
  GEVO_ASSIGN_OR_RETURN(
      EvaluationReport report,
      evaluateModuleText(spec, data, text, spec.modulePath, options));
  if (form == SourceForm::Onnx || form == SourceForm::Training)
    report.source = toString(form);
  return report;
}

absl::StatusOr<std::vector<HostTensor>>
runWorkloadResults(const WorkloadSpec &spec, const DatasetSplit &data,
                   SplitRole evalSplit, const EvaluationOptions &options) {
  GEVO_ASSIGN_OR_RETURN(std::string text, readWorkloadModuleText(spec, data));
  std::vector<HostTensor> arguments = bindArguments(spec, data, evalSplit);
  GEVO_ASSIGN_OR_RETURN(
      CompiledModule compiled,
      compileModule(spec, data, arguments, text, spec.modulePath, options));
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<PlacedInputs> inputs,
                        compiled.target->place(arguments));
  GEVO_ASSIGN_OR_RETURN(TimedRun run, compiled.variant->run(*inputs));
  return std::move(run.results);
}

std::string toJson(const EvaluationReport &report) {
  auto score = [](const ClassificationScore &s) {
    return llvm::json::Object{{"accuracy", s.accuracy()},
                              {"correct", s.correct},
                              {"total", s.total},
                              {"non_finite_rows", s.nonFiniteRows}};
  };
  llvm::json::Object object{
      {"workload", report.workload},
      {"module", report.modulePath},
      {"outcome", report.outcome},
      {"validation", score(report.validation)},
      {"parse_ms", report.parseMs},
      {"lower_ms", report.lowerMs},
      {"codegen_ms", report.codegenMs},
      {"run_ms_median", report.medianRunMs},
      {"run_ms", llvm::json::Array(report.runMs)},
      {"pipeline", report.pipeline},
      {"lowered_with", report.loweredWith},
      {"source", report.source},
  };
  if (!report.detail.empty())
    object["detail"] = report.detail;
  if (!report.fallbackReason.empty())
    object["fallback"] = report.fallbackReason;
  if (report.test.total > 0)
    object["test"] = score(report.test);
  if (report.deviceTime) {
    object["target"] = report.target;
    object["kernel_ms"] = report.medianRunMs;
    object["host_run_ms"] = median(report.hostRunMs);
    object["launches_per_run"] = report.launchesPerRun;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(object));
  return text;
}

std::string toText(const EvaluationReport &report) {
  std::string text =
      absl::StrFormat("%s (%s)\n  outcome              %s%s\n", report.workload,
                      report.modulePath, report.outcome,
                      report.detail.empty() ? "" : ": " + report.detail);
  if (report.outcome != "ok")
    return text; // nothing it measured means anything
  absl::StrAppend(&text,
                  absl::StrFormat("  validation accuracy  %.4f  (%d/%d)\n",
                                  report.validation.accuracy(),
                                  report.validation.correct,
                                  report.validation.total));
  if (report.test.total > 0)
    absl::StrAppend(&text,
                    absl::StrFormat("  test accuracy        %.4f  (%d/%d)\n",
                                    report.test.accuracy(), report.test.correct,
                                    report.test.total));
  if (report.validation.nonFiniteRows > 0)
    absl::StrAppend(&text, absl::StrFormat("  non-finite logits    %d rows\n",
                                           report.validation.nonFiniteRows));
  absl::StrAppend(
      &text,
      absl::StrFormat("  run time (median)    %.2f ms over %d runs\n"
                      "  parse / lower / codegen  %.1f / %.1f / %.1f ms\n",
                      report.medianRunMs, report.runMs.size(), report.parseMs,
                      report.lowerMs, report.codegenMs));
  if (report.source != "linalg")
    absl::StrAppend(
        &text, "  source               ", report.source,
        report.source == "onnx"       ? " (imported to linalg on tensors)\n"
        : report.source == "training" ? " (generated from the forward module)\n"
                                      : " (legalised to linalg on tensors)\n");
  absl::StrAppend(&text, "  lowered with         ", report.loweredWith,
                  report.fallbackReason.empty()
                      ? ""
                      : " (fallback: " + report.fallbackReason + ")",
                  "\n");
  if (report.deviceTime)
    absl::StrAppend(
        &text,
        absl::StrFormat("  target %s: kernel time %.3f ms (CUDA events), "
                        "host %.3f ms, %d launches per run\n",
                        report.target, report.medianRunMs,
                        median(report.hostRunMs), report.launchesPerRun));
  return text;
}

} // namespace gevo
