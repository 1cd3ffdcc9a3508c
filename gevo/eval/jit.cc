//===- jit.cc - Compile an LLVM-dialect module and call its entry ---------===//

#include "gevo/eval/jit.h"

#include <cstdlib>
#include <cstring>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gevo/eval/kernel_cache.h"
#include "gevo/eval/sandbox.h"
#include "gevo/support/stopwatch.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

namespace gevo {

const char kDefaultLlvmPipeline[] =
    "function(sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg,"
    "loop-mssa(licm),gvn)";

namespace {

/// MLIR's C runtime (memrefCopy and friends), which lowered code may call,
/// e.g. for a copy between strided views. Debian installs it here.
constexpr llvm::StringLiteral kCRunnerUtils =
    "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so";

void initializeNativeTargetOnce() {
  static const bool initialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)initialized;
}

/// Runs a new-pass-manager pipeline over `module`.
llvm::Error runLlvmPipeline(llvm::Module &module, const std::string &pipeline,
                            llvm::TargetMachine *targetMachine) {
  llvm::LoopAnalysisManager loopAM;
  llvm::FunctionAnalysisManager functionAM;
  llvm::CGSCCAnalysisManager cgsccAM;
  llvm::ModuleAnalysisManager moduleAM;
  llvm::PassBuilder builder(targetMachine);
  builder.registerModuleAnalyses(moduleAM);
  builder.registerCGSCCAnalyses(cgsccAM);
  builder.registerFunctionAnalyses(functionAM);
  builder.registerLoopAnalyses(loopAM);
  builder.crossRegisterProxies(loopAM, functionAM, cgsccAM, moduleAM);
  llvm::ModulePassManager passes;
  if (llvm::Error error = builder.parsePassPipeline(passes, pipeline))
    return error;
  passes.run(module, moduleAM);
  return llvm::Error::success();
}

llvm::CodeGenOptLevel toCodeGenLevel(int level) {
  switch (level) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 3:
    return llvm::CodeGenOptLevel::Aggressive;
  default:
    return llvm::CodeGenOptLevel::Default;
  }
}

/// A memref descriptor as the C interface lays it out: allocated pointer,
/// aligned pointer, offset, sizes[rank], strides[rank]; all 8-byte words.
size_t descriptorWords(size_t rank) { return 3 + 2 * rank; }

void writeDescriptor(const HostTensor &tensor, int64_t *words) {
  size_t rank = tensor.shape.size();
  auto pointer = reinterpret_cast<int64_t>(tensor.data());
  words[0] = pointer;
  words[1] = pointer;
  words[2] = 0;
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    words[3 + i] = tensor.shape[i];
    words[3 + rank + i] = stride;
    stride *= tensor.shape[i];
  }
}

/// Copies a (possibly strided) result into a dense tensor.
absl::StatusOr<HostTensor>
readDescriptor(const int64_t *words, const TensorSpec &spec, size_t index) {
  size_t rank = spec.shape.size();
  std::vector<int64_t> shape(words + 3, words + 3 + rank);
  if (!spec.accepts(spec.type, shape))
    return absl::InternalError(
        absl::StrCat("result #", index, " came back as ",
                     TensorSpec{spec.type, shape}.toString(),
                     " but its type is ", spec.toString()));
  HostTensor tensor(spec.type, shape);
  const char *base = reinterpret_cast<const char *>(words[1]);
  if (tensor.numElements() > 0 && !base)
    return absl::InternalError(
        absl::StrCat("result #", index, " came back as a null buffer"));
  size_t width = byteWidth(spec.type);
  char *out = reinterpret_cast<char *>(tensor.data());
  std::vector<int64_t> position(rank, 0);
  for (int64_t n = 0; n < tensor.numElements(); ++n) {
    int64_t offset = words[2];
    for (size_t i = 0; i < rank; ++i)
      offset += position[i] * words[3 + rank + i];
    std::memcpy(out + n * width, base + offset * width, width);
    for (size_t i = rank; i-- > 0;) {
      if (++position[i] < shape[i])
        break;
      position[i] = 0;
    }
  }
  return tensor;
}

// What fresh allocations are filled with: a variant that reads memory it
// never wrote (a deleted fill, say) sees the same bytes in every process,
// and a second run with another fill shows that it reads them.
unsigned char allocationFill = 0;

void *guardedMalloc(size_t size) {
  void *pointer =
      allocationFill == 0 ? std::calloc(1, size) : std::malloc(size);
  if (!pointer && size != 0)
    exitOnAllocationFailure();
  if (pointer && allocationFill != 0)
    std::memset(pointer, allocationFill, size);
  return pointer;
}

void *guardedCalloc(size_t count, size_t size) {
  void *pointer = std::calloc(count, size);
  if (!pointer && count != 0 && size != 0)
    exitOnAllocationFailure();
  return pointer;
}

void *guardedAlignedAlloc(size_t alignment, size_t size) {
  void *pointer = std::aligned_alloc(alignment, size);
  if (!pointer && size != 0)
    exitOnAllocationFailure();
  if (pointer)
    std::memset(pointer, allocationFill, size);
  return pointer;
}

std::vector<std::pair<std::string, void *>> allocationGuardAddresses() {
  return {{"malloc", reinterpret_cast<void *>(&guardedMalloc)},
          {"calloc", reinterpret_cast<void *>(&guardedCalloc)},
          {"aligned_alloc", reinterpret_cast<void *>(&guardedAlignedAlloc)}};
}

/// `addresses` as exported absolute symbols for a JIT.
llvm::orc::SymbolMap
toSymbolMap(llvm::orc::MangleAndInterner &interner,
            const std::vector<std::pair<std::string, void *>> &addresses) {
  llvm::orc::SymbolMap symbols;
  for (const auto &[name, address] : addresses)
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
  return symbols;
}

llvm::orc::SymbolMap allocationGuards(llvm::orc::MangleAndInterner interner) {
  return toSymbolMap(interner, allocationGuardAddresses());
}

} // namespace

void setAllocationFill(unsigned char byte) { allocationFill = byte; }

JitEntry::~JitEntry() = default;

absl::Status checkLlvmPipeline(const std::string &pipeline) {
  if (pipeline.empty())
    return absl::OkStatus();
  llvm::PassBuilder builder;
  llvm::ModulePassManager passes;
  if (llvm::Error error = builder.parsePassPipeline(passes, pipeline))
    return absl::InvalidArgumentError(
        absl::StrCat("--llvm-pipeline: cannot parse '", pipeline,
                     "': ", llvm::toString(std::move(error))));
  return absl::OkStatus();
}

namespace {

/// The kernel cache's settings for `options` (without the IR passes, which
/// need the module's target machine).
KernelSettings kernelSettingsFor(const CodegenOptions &options) {
  KernelSettings settings;
  settings.codegenKey =
      absl::StrCat(options.llvmPipeline, "|O", options.optLevel);
  settings.guarded = options.guardAllocations;
  settings.guards = allocationGuardAddresses;
  settings.runtimeLibrary = kCRunnerUtils.str();
  settings.objectDirectory = options.kernelDirectory;
  return settings;
}

} // namespace

bool outlinedKernelCompiled(const std::string &name,
                            const CodegenOptions &options) {
  if (!options.cacheKernels)
    return false;
  initializeNativeTargetOnce();
  KernelSettings settings = kernelSettingsFor(options);
  return kernelAvailable(outlinedKernelSymbol(name, settings), settings);
}

absl::StatusOr<std::unique_ptr<JitEntry>>
JitEntry::compile(mlir::ModuleOp llvmModule, const EntrySignature &signature,
                  const CodegenOptions &options) {
  initializeNativeTargetOnce();
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> machineBuilder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return absl::InternalError(
        absl::StrCat("cannot detect the host target: ",
                     llvm::toString(machineBuilder.takeError())));
  machineBuilder->setCodeGenOptLevel(toCodeGenLevel(options.optLevel));
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> targetMachine =
      machineBuilder->createTargetMachine();
  if (!targetMachine)
    return absl::InternalError(
        absl::StrCat("cannot create a target machine: ",
                     llvm::toString(targetMachine.takeError())));
  llvm::TargetMachine *machine = targetMachine->get();
  std::string llvmPipeline = options.llvmPipeline;
  double optimizeMs = 0;
  auto transformer = [&](llvm::Module *module) -> llvm::Error {
    if (llvmPipeline.empty())
      return llvm::Error::success();
    double start = processCpuMs();
    llvm::Error error = runLlvmPipeline(*module, llvmPipeline, machine);
    optimizeMs += processCpuMs() - start;
    return error;
  };
  // Kernels go to the process's cache; on any failure the module is compiled
  // whole (kernels the lowering left out still linked from the cache).
  KernelLinks kernels;
  std::string kernelFailure;
  KernelSettings kernelSettings = kernelSettingsFor(options);
  kernelSettings.optimize = [&](llvm::Module &module) {
    return llvmPipeline.empty()
               ? llvm::Error::success()
               : runLlvmPipeline(module, llvmPipeline, machine);
  };
  std::vector<std::pair<std::string, void *>> declared;
  auto buildModule =
      [&](mlir::Operation *op,
          llvm::LLVMContext &context) -> std::unique_ptr<llvm::Module> {
    std::unique_ptr<llvm::Module> module =
        mlir::translateModuleToLLVMIR(op, context);
    if (!module || !options.cacheKernels)
      return module;
    module->setDataLayout(machine->createDataLayout());
    module->setTargetTriple(machine->getTargetTriple());
    llvm::Expected<KernelLinks> linked =
        linkKernels(*module, *machine, kernelSettings);
    if (linked) {
      kernels = std::move(*linked);
      // What is left runs once per call of the code around the kernels
      // (allocations, descriptors, the calls); the fast instruction
      // selector compiles it in half the time, at no measurable cost to
      // the run (BENCHMARKS.md §9).
      if (!kernels.symbols.empty())
        machine->setOptLevel(llvm::CodeGenOptLevel::None);
      return module;
    }
    kernelFailure = llvm::toString(linked.takeError());
    module = mlir::translateModuleToLLVMIR(op, context);
    if (!module)
      return module;
    auto found = declaredKernels(*module, kernelSettings);
    if (!found) {
      kernelFailure += "; " + llvm::toString(found.takeError());
      return nullptr;
    }
    declared = std::move(*found);
    return module;
  };
  mlir::ExecutionEngineOptions engineOptions;
  engineOptions.llvmModuleBuilder = buildModule;
  engineOptions.transformer = transformer;
  engineOptions.jitCodeGenOptLevel = toCodeGenLevel(options.optLevel);
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  llvm::StringRef sharedLibs[] = {kCRunnerUtils};
  engineOptions.sharedLibPaths = sharedLibs;
  llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>> engine =
      mlir::ExecutionEngine::create(llvmModule, engineOptions,
                                    std::move(*targetMachine));
  if (!engine)
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot compile the lowered module: ",
        llvm::toString(engine.takeError()),
        kernelFailure.empty() ? "" : " (kernels: " + kernelFailure + ")"));
  if (options.guardAllocations)
    (*engine)->registerSymbols(allocationGuards);
  if (!kernels.symbols.empty())
    (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
      return toSymbolMap(interner, kernels.symbols);
    });
  if (!declared.empty())
    (*engine)->registerSymbols([&](llvm::orc::MangleAndInterner interner) {
      return toSymbolMap(interner, declared);
    });
  std::string wrapper = "_mlir_ciface_" + signature.name;
  llvm::Expected<void (*)(void **)> packed = (*engine)->lookupPacked(wrapper);
  if (!packed)
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot find ", wrapper, " in the compiled module (was @",
        signature.name, " marked llvm.emit_c_interface before lowering?): ",
        llvm::toString(packed.takeError())));
  std::unique_ptr<JitEntry> entry(new JitEntry());
  entry->engine = std::move(*engine);
  entry->packedEntry = *packed;
  entry->signature = signature;
  entry->llvmOptimizeMs = optimizeMs;
  entry->kernelsCompiled = kernels.compiled;
  entry->kernelsReused = kernels.reused;
  entry->kernelsLoaded = kernels.loaded;
  entry->kernelFailure = kernelFailure;
  return entry;
}

absl::StatusOr<std::vector<HostTensor>>
JitEntry::run(const std::vector<const HostTensor *> &arguments) const {
  if (arguments.size() != signature.arguments.size())
    return absl::InvalidArgumentError(
        absl::StrCat("@", signature.name, " takes ", signature.arguments.size(),
                     " arguments, got ", arguments.size()));
  // One block of words for the result descriptors (a struct of them when
  // there are several), then one per argument.
  size_t resultWords = 0;
  for (const TensorSpec &spec : signature.results)
    resultWords += descriptorWords(spec.shape.size());
  std::vector<int64_t> results(std::max<size_t>(resultWords, 1), 0);
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> descriptorPointers;
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (!arguments[i]->matches(signature.arguments[i]))
      return absl::InvalidArgumentError(
          absl::StrCat("argument #", i, " of @", signature.name, " is ",
                       signature.arguments[i].toString(), ", got ",
                       arguments[i]->typeString()));
    descriptors.emplace_back(descriptorWords(arguments[i]->shape.size()));
    writeDescriptor(*arguments[i], descriptors.back().data());
  }
  void *resultPointer = results.data();
  for (std::vector<int64_t> &words : descriptors)
    descriptorPointers.push_back(words.data());
  std::vector<void *> packedArguments;
  if (!signature.results.empty())
    packedArguments.push_back(&resultPointer);
  for (void *&pointer : descriptorPointers)
    packedArguments.push_back(&pointer);
  packedEntry(packedArguments.data());

  std::vector<HostTensor> out;
  // Result buffers are owned by the caller after buffer deallocation, except
  // views of our own arguments and globals (allocated pointer 0xdeadbeef).
  std::set<int64_t> notOwned = {0, 0xdeadbeef};
  for (const HostTensor *argument : arguments)
    notOwned.insert(reinterpret_cast<int64_t>(argument->data()));
  absl::Status status;
  const int64_t *words = results.data();
  for (size_t i = 0; i < signature.results.size(); ++i) {
    const TensorSpec &spec = signature.results[i];
    if (status.ok()) {
      absl::StatusOr<HostTensor> tensor = readDescriptor(words, spec, i);
      if (tensor.ok())
        out.push_back(std::move(*tensor));
      else
        status = tensor.status();
    }
    if (notOwned.insert(words[0]).second)
      std::free(reinterpret_cast<void *>(words[0]));
    words += descriptorWords(spec.shape.size());
  }
  if (!status.ok())
    return status;
  return out;
}

} // namespace gevo
