//===- cuda_evaluator.cc - Evaluate a workload on the GPU target ----------===//

#include "gevo/eval/cuda_evaluator.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/eval/bindings.h"
#include "gevo/eval/cuda_pipeline.h"
#include "gevo/eval/cuda_program.h"
#include "gevo/eval/cuda_runtime.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/JSON.h"

namespace gevo {

absl::StatusOr<CudaEvaluationReport>
evaluateWorkloadOnCuda(const WorkloadSpec &spec,
                       const EvaluationOptions &options) {
  GEVO_RETURN_IF_ERROR(initializeCudaRuntime());
  CudaTarget target;
  GEVO_RETURN_IF_ERROR(prepareCudaToolkit(target));
  GEVO_ASSIGN_OR_RETURN(DatasetSplit data, loadWorkloadData(spec));
  GEVO_ASSIGN_OR_RETURN(std::string text,
                        readFile(spec.modulePath, "MLIR file"));
  CudaEvaluationReport cuda;
  EvaluationReport &report = cuda.report;
  report.workload = spec.name;
  report.modulePath = spec.modulePath;
  report.pipeline = cudaPipeline(target);
  report.loweredWith = kCudaPipelineName;

  std::unique_ptr<mlir::MLIRContext> context = createContext();
  auto start = std::chrono::steady_clock::now();
  GEVO_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                        parseModule(*context, text, spec.modulePath));
  report.parseMs = millisecondsSince(start);
  GEVO_ASSIGN_OR_RETURN(EntrySignature signature,
                        readEntrySignature(*module, spec.entry));
  std::vector<HostTensor> arguments =
      bindArguments(spec, data, SplitRole::Validation);
  GEVO_RETURN_IF_ERROR(checkSignature(spec, signature, arguments, data));

  start = std::chrono::steady_clock::now();
  GEVO_RETURN_IF_ERROR(lowerForCuda(*module, spec.entry, target));
  report.lowerMs = millisecondsSince(start);
  start = std::chrono::steady_clock::now();
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<CudaProgram> program,
                        CudaProgram::compile(*module, signature));
  report.codegenMs = millisecondsSince(start);

  SharedArguments shared;
  GEVO_RETURN_IF_ERROR(shared.copy(arguments));
  auto [warmup, repeats] = runCounts(options, spec);
  std::vector<HostTensor> results;
  for (int i = 0; i < warmup + repeats; ++i) {
    GEVO_ASSIGN_OR_RETURN(CudaTimedCall run,
                          program->timedCall(shared.tensors()));
    results = std::move(run.results);
    if (i < warmup)
      continue;
    cuda.hostRunMs.push_back(run.hostMs);
    report.runMs.push_back(run.kernelMs);
    cuda.launchesPerRun = run.launches;
  }
  report.medianRunMs = median(report.runMs);
  const Dataset &validation = evalData(data, SplitRole::Validation);
  GEVO_ASSIGN_OR_RETURN(report.validation,
                        scoreLogits(results[spec.logitsResult()],
                                    validation.labels, validation.numClasses));
  if (options.scoreTest) {
    SharedArguments testShared;
    GEVO_RETURN_IF_ERROR(
        testShared.copy(bindArguments(spec, data, SplitRole::Test)));
    GEVO_ASSIGN_OR_RETURN(results, program->call(testShared.tensors()));
    const Dataset &test = evalData(data, SplitRole::Test);
    GEVO_ASSIGN_OR_RETURN(report.test,
                          scoreLogits(results[spec.logitsResult()], test.labels,
                                      test.numClasses));
  }
  return cuda;
}

std::string toJson(const CudaEvaluationReport &cuda) {
  llvm::Expected<llvm::json::Value> parsed =
      llvm::json::parse(toJson(cuda.report));
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return "{}";
  }
  llvm::json::Object &object = *parsed->getAsObject();
  object["target"] = "cuda";
  object["kernel_ms"] = cuda.report.medianRunMs;
  object["host_run_ms"] = median(cuda.hostRunMs);
  object["launches_per_run"] = cuda.launchesPerRun;
  std::string out;
  llvm::raw_string_ostream stream(out);
  stream << llvm::json::Value(std::move(object));
  return out;
}

std::string toText(const CudaEvaluationReport &cuda) {
  return absl::StrCat(
      toText(cuda.report),
      absl::StrFormat("  target cuda: kernel time %.3f ms (CUDA events), "
                      "host %.3f ms, %d launches per run\n",
                      cuda.report.medianRunMs, median(cuda.hostRunMs),
                      cuda.launchesPerRun));
}

} // namespace gevo
