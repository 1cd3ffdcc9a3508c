//===- evaluator.cc - Evaluate a workload: parse, lower, JIT, run, score --===//

#include "gevo/eval/evaluator.h"

#include <chrono>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/eval/bindings.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/lowering.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"

namespace gevo {
namespace {

/// A module parsed, checked, lowered and compiled, with the timings taken.
struct CompiledModule {
  std::unique_ptr<JitEntry> entry;
  double parseMs = 0, lowerMs = 0, codegenMs = 0;
  LoweringNote lowering;
  SourceForm source = SourceForm::Linalg;
};

absl::StatusOr<CompiledModule>
compileModule(const WorkloadSpec &spec, const DatasetSplit &data,
              const std::vector<HostTensor> &arguments,
              const std::string &moduleText, const std::string &bufferName,
              const EvaluationOptions &options) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  const std::string &pipeline = options.pipeline;
  GEVO_RETURN_IF_ERROR(checkPipeline(*context, pipeline));
  GEVO_RETURN_IF_ERROR(checkLlvmPipeline(options.codegen.llvmPipeline));
  CompiledModule compiled;
  auto start = std::chrono::steady_clock::now();
  GEVO_ASSIGN_OR_RETURN(
      mlir::OwningOpRef<mlir::ModuleOp> module,
      parseLinalgModule(*context, moduleText, bufferName, &compiled.source));
  compiled.parseMs = millisecondsSince(start);
  GEVO_ASSIGN_OR_RETURN(EntrySignature signature,
                        readEntrySignature(*module, spec.entry));
  GEVO_RETURN_IF_ERROR(checkSignature(spec, signature, arguments, data));
  requestCInterface(*module, spec.entry);
  start = std::chrono::steady_clock::now();
  GEVO_RETURN_IF_ERROR(
      lowerToLLVMDialect(*module, pipeline, &compiled.lowering));
  compiled.lowerMs = millisecondsSince(start);
  start = std::chrono::steady_clock::now();
  GEVO_ASSIGN_OR_RETURN(compiled.entry,
                        JitEntry::compile(*module, signature, options.codegen));
  compiled.codegenMs = millisecondsSince(start);
  return compiled;
}

} // namespace

absl::Status checkTarget(const std::string &target) {
  if (target == "cpu" || target == "cuda")
    return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("--target must be cpu or cuda, not '", target, "'"));
}

std::string useOtherPipeline(const std::string &pipeline,
                             EvaluationOptions &options) {
  if (options.target == "cuda") {
    options.target = "cpu";
    options.pipeline = kVectorPipelineName;
    return "the CPU target (vectorising pipeline)";
  }
  if (!pipeline.empty() && pipeline != kVectorPipelineName) {
    options.pipeline = kVectorPipelineName;
    return "the vectorising pipeline";
  }
  options.pipeline = std::string("canonicalize, cse, ") + kPlainCpuPipeline;
  options.codegen.llvmPipeline = "default<O3>";
  options.codegen.optLevel = 3;
  return "the plain pipeline (linalg to loops) after canonicalize and cse, "
         "LLVM -O3";
}

absl::StatusOr<EvaluationReport>
evaluateModuleText(const WorkloadSpec &spec, const DatasetSplit &data,
                   const std::string &moduleText, const std::string &bufferName,
                   const EvaluationOptions &options) {
  std::vector<HostTensor> arguments =
      bindArguments(spec, data, SplitRole::Validation);
  GEVO_ASSIGN_OR_RETURN(
      CompiledModule compiled,
      compileModule(spec, data, arguments, moduleText, bufferName, options));
  EvaluationReport report;
  report.workload = spec.name;
  report.modulePath = bufferName;
  PipelineChoice choice = resolvePipeline(options.pipeline);
  report.pipeline =
      compiled.lowering.fellBack() ? choice.fallbackPasses : choice.passes;
  report.loweredWith = compiled.lowering.loweredWith;
  report.source = toString(compiled.source);
  report.fallbackReason = compiled.lowering.fallbackReason;
  report.parseMs = compiled.parseMs;
  report.lowerMs = compiled.lowerMs;
  report.codegenMs = compiled.codegenMs;

  auto [warmup, repeats] = runCounts(options, spec);
  std::vector<HostTensor> results;
  for (int i = 0; i < warmup + repeats; ++i) {
    auto start = std::chrono::steady_clock::now();
    GEVO_ASSIGN_OR_RETURN(results, compiled.entry->run(pointersTo(arguments)));
    if (i >= warmup)
      report.runMs.push_back(millisecondsSince(start));
  }
  report.medianRunMs = median(report.runMs);
  const Dataset &validation = evalData(data, SplitRole::Validation);
  GEVO_ASSIGN_OR_RETURN(report.validation,
                        scoreLogits(results[spec.logitsResult()],
                                    validation.labels, validation.numClasses));
  if (options.scoreTest) {
    std::vector<HostTensor> testArguments =
        bindArguments(spec, data, SplitRole::Test);
    GEVO_ASSIGN_OR_RETURN(results,
                          compiled.entry->run(pointersTo(testArguments)));
    const Dataset &test = evalData(data, SplitRole::Test);
    GEVO_ASSIGN_OR_RETURN(report.test,
                          scoreLogits(results[spec.logitsResult()], test.labels,
                                      test.numClasses));
  }
  return report;
}

absl::StatusOr<EvaluationReport>
evaluateWorkload(const WorkloadSpec &spec, const EvaluationOptions &options) {
  GEVO_ASSIGN_OR_RETURN(DatasetSplit data, loadWorkloadData(spec));
  GEVO_ASSIGN_OR_RETURN(std::string text,
                        readFile(spec.modulePath, "MLIR file"));
  return evaluateModuleText(spec, data, text, spec.modulePath, options);
}

absl::StatusOr<std::vector<HostTensor>>
runWorkloadResults(const WorkloadSpec &spec, const DatasetSplit &data,
                   SplitRole evalSplit, const EvaluationOptions &options) {
  GEVO_ASSIGN_OR_RETURN(std::string text,
                        readFile(spec.modulePath, "MLIR file"));
  std::vector<HostTensor> arguments = bindArguments(spec, data, evalSplit);
  GEVO_ASSIGN_OR_RETURN(
      CompiledModule compiled,
      compileModule(spec, data, arguments, text, spec.modulePath, options));
  return compiled.entry->run(pointersTo(arguments));
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
  if (!report.fallbackReason.empty())
    object["fallback"] = report.fallbackReason;
  if (report.test.total > 0)
    object["test"] = score(report.test);
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::json::Value(std::move(object));
  return text;
}

std::string toText(const EvaluationReport &report) {
  std::string text = absl::StrFormat(
      "%s (%s)\n  validation accuracy  %.4f  (%d/%d)\n", report.workload,
      report.modulePath, report.validation.accuracy(),
      report.validation.correct, report.validation.total);
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
    absl::StrAppend(&text, "  source               ", report.source,
                    " (legalised to linalg on tensors)\n");
  absl::StrAppend(&text, "  lowered with         ", report.loweredWith,
                  report.fallbackReason.empty()
                      ? ""
                      : " (fallback: " + report.fallbackReason + ")",
                  "\n");
  return text;
}

} // namespace gevo
