//===- cuda_evaluator.cc - Evaluate a workload on the GPU target ----------===//

#include "gevo/eval/cuda_evaluator.h"

#include <chrono>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/eval/bindings.h"
#include "gevo/eval/cuda_pipeline.h"
#include "gevo/eval/cuda_runtime.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/TargetSelect.h"

namespace gevo {
namespace {

constexpr llvm::StringLiteral kCRunnerUtils =
    "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so";

/// Managed copies of the inputs, made once per variant.
class SharedArguments {
public:
  ~SharedArguments() {
    for (void *buffer : buffers)
      freeShared(buffer);
  }
  absl::Status copy(const std::vector<HostTensor> &arguments) {
    for (const HostTensor &argument : arguments) {
      size_t bytes = argument.numElements() * byteWidth(argument.type);
      void *buffer = allocateShared(bytes);
      if (!buffer)
        return takeCudaRuntimeError();
      buffers.push_back(buffer);
      std::memcpy(buffer, argument.data(), bytes);
      tensors.push_back(
          HostTensor::view(argument.type, argument.shape, buffer));
    }
    return absl::OkStatus();
  }
  std::vector<HostTensor> tensors;

private:
  std::vector<void *> buffers;
};

/// Calls `entry` (the _mlir_ciface_ wrapper) on memref descriptors of
/// `arguments` and copies each result out of managed memory, freeing it.
absl::StatusOr<std::vector<HostTensor>>
callEntry(void (*entry)(void **), const EntrySignature &signature,
          const std::vector<HostTensor> &arguments) {
  std::vector<std::vector<int64_t>> descriptors;
  for (const HostTensor &argument : arguments) {
    size_t rank = argument.shape.size();
    std::vector<int64_t> words(3 + 2 * rank);
    words[0] = words[1] = reinterpret_cast<int64_t>(argument.data());
    int64_t stride = 1;
    for (size_t i = rank; i-- > 0;) {
      words[3 + i] = argument.shape[i];
      words[3 + rank + i] = stride;
      stride *= argument.shape[i];
    }
    descriptors.push_back(std::move(words));
  }
  size_t resultWords = 0;
  for (const TensorSpec &spec : signature.results)
    resultWords += 3 + 2 * spec.shape.size();
  std::vector<int64_t> results(std::max<size_t>(resultWords, 1), 0);
  void *resultPointer = results.data();
  std::vector<void *> pointers, packed;
  for (std::vector<int64_t> &words : descriptors)
    pointers.push_back(words.data());
  if (!signature.results.empty())
    packed.push_back(&resultPointer);
  for (void *&pointer : pointers)
    packed.push_back(&pointer);
  entry(packed.data());
  GEVO_RETURN_IF_ERROR(takeCudaRuntimeError());

  std::vector<HostTensor> out;
  const int64_t *words = results.data();
  for (const TensorSpec &spec : signature.results) {
    size_t rank = spec.shape.size();
    HostTensor tensor(spec.type,
                      std::vector<int64_t>(words + 3, words + 3 + rank));
    size_t width = byteWidth(spec.type);
    const char *base = reinterpret_cast<const char *>(words[1]);
    std::vector<int64_t> position(rank, 0);
    for (int64_t n = 0; n < tensor.numElements(); ++n) {
      int64_t offset = words[2];
      for (size_t i = 0; i < rank; ++i)
        offset += position[i] * words[3 + rank + i];
      std::memcpy(static_cast<char *>(tensor.data()) + n * width,
                  base + offset * width, width);
      for (size_t i = rank; i-- > 0;) {
        if (++position[i] < tensor.shape[i])
          break;
        position[i] = 0;
      }
    }
    bool ownsBuffer = true;
    for (const HostTensor &argument : arguments)
      ownsBuffer &= words[0] != reinterpret_cast<int64_t>(argument.data());
    if (ownsBuffer && words[0] != 0 && words[0] != 0xdeadbeef)
      freeShared(reinterpret_cast<void *>(words[0]));
    out.push_back(std::move(tensor));
    words += 3 + 2 * rank;
  }
  return out;
}

} // namespace

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
  requestCInterface(*module, spec.entry);

  start = std::chrono::steady_clock::now();
  registerCudaPipelinePasses();
  mlir::PassManager pm(context.get(), mlir::ModuleOp::getOperationName());
  if (mlir::failed(mlir::parsePassPipeline(report.pipeline, pm)))
    return absl::InternalError("the CUDA pipeline does not parse");
  {
    DiagnosticCollector diagnostics(*context);
    if (mlir::failed(pm.run(*module)))
      return absl::InvalidArgumentError(
          diagnostics.message("the CUDA pipeline failed"));
  }
  report.lowerMs = millisecondsSince(start);

  start = std::chrono::steady_clock::now();
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  mlir::ExecutionEngineOptions engineOptions;
  engineOptions.transformer = mlir::makeOptimizingTransformer(2, 0, nullptr);
  llvm::StringRef sharedLibs[] = {kCRunnerUtils};
  engineOptions.sharedLibPaths = sharedLibs;
  auto engine = mlir::ExecutionEngine::create(*module, engineOptions);
  if (!engine)
    return absl::InvalidArgumentError(
        absl::StrCat("cannot compile the lowered host code: ",
                     llvm::toString(engine.takeError())));
  (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (const auto &[name, address] : cudaRuntimeSymbols())
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  (*engine)->initialize(); // loads the kernel modules (global constructors)
  GEVO_RETURN_IF_ERROR(takeCudaRuntimeError());
  // Constants (weights baked into the module) live in the JIT's data
  // sections; kernels read them through host registration.
  mlir::DataLayout layout(*module);
  for (auto global : module->getOps<mlir::LLVM::GlobalOp>()) {
    llvm::Expected<void *> address = (*engine)->lookup(global.getSymName());
    if (!address) {
      llvm::consumeError(address.takeError());
      continue;
    }
    GEVO_RETURN_IF_ERROR(registerHostMemory(
        *address, layout.getTypeSize(global.getGlobalType())));
  }
  auto entry = (*engine)->lookupPacked("_mlir_ciface_" + signature.name);
  if (!entry)
    return absl::InvalidArgumentError(
        absl::StrCat("cannot find the entry's C interface: ",
                     llvm::toString(entry.takeError())));
  report.codegenMs = millisecondsSince(start);

  SharedArguments shared;
  GEVO_RETURN_IF_ERROR(shared.copy(arguments));
  int warmup = options.warmup >= 0 ? options.warmup : spec.warmup;
  int repeats = options.repeats > 0 ? options.repeats : spec.repeats;
  std::vector<HostTensor> results;
  for (int i = 0; i < warmup + repeats; ++i) {
    GEVO_RETURN_IF_ERROR(beginCudaTiming());
    auto runStart = std::chrono::steady_clock::now();
    GEVO_ASSIGN_OR_RETURN(results,
                          callEntry(*entry, signature, shared.tensors));
    GEVO_ASSIGN_OR_RETURN(CudaRunTiming timing, endCudaTiming());
    if (i < warmup)
      continue;
    cuda.hostRunMs.push_back(millisecondsSince(runStart));
    report.runMs.push_back(timing.kernelMs);
    cuda.launchesPerRun = timing.launches;
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
    GEVO_ASSIGN_OR_RETURN(results,
                          callEntry(*entry, signature, testShared.tensors));
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
