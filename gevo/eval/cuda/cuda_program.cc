//===- cuda_program.cc - A module lowered for the GPU, compiled, callable -===//

#include "gevo/eval/cuda/cuda_program.h"

#include <chrono>
#include <cstring>
#include <functional>

#include "absl/strings/str_cat.h"
#include "gevo/eval/cpu/memref_descriptor.h"
#include "gevo/eval/cuda/cuda_runtime.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/TargetSelect.h"

namespace gevo {
namespace {

constexpr llvm::StringLiteral kCRunnerUtils =
    "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so";

/// Calls `entry` (the _mlir_ciface_ wrapper) on memref descriptors of
/// `arguments` and copies each result out of managed memory, freeing it.
absl::StatusOr<std::vector<HostTensor>>
callEntry(void (*entry)(void **), const EntrySignature &signature,
          const std::vector<const HostTensor *> &arguments) {
  std::vector<std::vector<int64_t>> descriptors;
  for (const HostTensor *argument : arguments) {
    descriptors.emplace_back(descriptorWords(argument->shape.size()));
    writeDescriptor(*argument, descriptors.back().data());
  }
  size_t resultWords = 0;
  for (const TensorSpec &spec : signature.results)
    resultWords += descriptorWords(spec.shape.size());
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
    for (const HostTensor *argument : arguments)
      ownsBuffer &= words[0] != reinterpret_cast<int64_t>(argument->data());
    if (ownsBuffer && words[0] != 0 && words[0] != 0xdeadbeef)
      freeShared(reinterpret_cast<void *>(words[0]));
    out.push_back(std::move(tensor));
    words += descriptorWords(rank);
  }
  return out;
}

} // namespace

absl::Status lowerForCuda(mlir::ModuleOp module, const std::string &entry,
                          const CudaChip &target) {
  requestCInterface(module, entry);
  registerCudaPipelinePasses();
  mlir::MLIRContext *context = module->getContext();
  mlir::PassManager pm(context, mlir::ModuleOp::getOperationName());
  if (mlir::failed(mlir::parsePassPipeline(cudaPipeline(target), pm)))
    return absl::InternalError("the CUDA pipeline does not parse");
  DiagnosticCollector diagnostics(*context);
  if (mlir::failed(pm.run(module)))
    return absl::InvalidArgumentError(
        diagnostics.message("the CUDA pipeline failed"));
  return absl::OkStatus();
}

SharedArguments::~SharedArguments() {
  for (void *buffer : buffers)
    freeShared(buffer);
}

absl::Status SharedArguments::copy(const std::vector<HostTensor> &arguments) {
  for (const HostTensor &argument : arguments) {
    size_t bytes = argument.numElements() * byteWidth(argument.type);
    void *buffer = allocateShared(bytes);
    if (!buffer)
      return takeCudaRuntimeError();
    buffers.push_back(buffer);
    std::memcpy(buffer, argument.data(), bytes);
    views.push_back(HostTensor::view(argument.type, argument.shape, buffer));
  }
  return absl::OkStatus();
}

CudaProgram::~CudaProgram() = default;

absl::StatusOr<std::unique_ptr<CudaProgram>>
CudaProgram::compile(mlir::ModuleOp lowered, const EntrySignature &signature) {
  std::unique_ptr<CudaProgram> program(new CudaProgram());
  program->signature = signature;
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // The engine's options hold a reference (function_ref) to the transformer,
  // which must outlive create().
  std::function<llvm::Error(llvm::Module *)> optimize =
      mlir::makeOptimizingTransformer(2, 0, nullptr);
  mlir::ExecutionEngineOptions engineOptions;
  engineOptions.transformer = optimize;
  llvm::StringRef sharedLibs[] = {kCRunnerUtils};
  engineOptions.sharedLibPaths = sharedLibs;
  auto engine = mlir::ExecutionEngine::create(lowered, engineOptions);
  if (!engine)
    return absl::InvalidArgumentError(
        absl::StrCat("cannot compile the lowered host code: ",
                     llvm::toString(engine.takeError())));
  program->engine = std::move(*engine);
  program->engine->registerSymbols([](llvm::orc::MangleAndInterner interner) {
    llvm::orc::SymbolMap symbols;
    for (const auto &[name, address] : cudaRuntimeSymbols())
      symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                                 llvm::JITSymbolFlags::Exported};
    return symbols;
  });
  program->engine->initialize(); // loads the kernel modules (constructors)
  if (absl::Status status = takeCudaRuntimeError(); !status.ok())
    return status;
  // Constants (weights baked into the module) live in the JIT's data
  // sections; kernels read them through host registration.
  mlir::DataLayout layout(lowered);
  for (auto global : lowered.getOps<mlir::LLVM::GlobalOp>()) {
    llvm::Expected<void *> address =
        program->engine->lookup(global.getSymName());
    if (!address) {
      llvm::consumeError(address.takeError());
      continue;
    }
    if (absl::Status status = registerHostMemory(
            *address, layout.getTypeSize(global.getGlobalType()));
        !status.ok())
      return status;
  }
  auto entry = program->engine->lookupPacked("_mlir_ciface_" + signature.name);
  if (!entry)
    return absl::InvalidArgumentError(
        absl::StrCat("cannot find the entry's C interface: ",
                     llvm::toString(entry.takeError())));
  program->entry = *entry;
  return program;
}

absl::StatusOr<std::vector<HostTensor>>
CudaProgram::call(const std::vector<const HostTensor *> &arguments) const {
  return callEntry(entry, signature, arguments);
}

absl::StatusOr<CudaTimedCall>
CudaProgram::timedCall(const std::vector<const HostTensor *> &arguments) const {
  if (absl::Status status = beginCudaTiming(); !status.ok())
    return status;
  CudaTimedCall out;
  auto start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<HostTensor>> results = call(arguments);
  if (!results.ok())
    return results.status();
  absl::StatusOr<CudaRunTiming> timing = endCudaTiming();
  if (!timing.ok())
    return timing.status();
  out.hostMs = millisecondsSince(start);
  out.results = std::move(*results);
  out.kernelMs = timing->kernelMs;
  out.launches = timing->launches;
  return out;
}

} // namespace gevo
