//===- jit.cc - Compile an LLVM-dialect module and call its entry ---------===//

#include "gevo/eval/cpu/jit.h"

#include <cstdlib>
#include <cstring>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gevo/eval/cpu/allocation_guards.h"
#include "gevo/eval/cpu/kernel_cache.h"
#include "gevo/eval/cpu/memref_descriptor.h"
#include "gevo/support/status_macros.h"
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

namespace {

/// A target machine for the host at `optLevel`.
absl::StatusOr<std::unique_ptr<llvm::TargetMachine>>
hostTargetMachine(int optLevel) {
  initializeNativeTargetOnce();
  llvm::Expected<llvm::orc::JITTargetMachineBuilder> machineBuilder =
      llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!machineBuilder)
    return absl::InternalError(
        absl::StrCat("cannot detect the host target: ",
                     llvm::toString(machineBuilder.takeError())));
  machineBuilder->setCodeGenOptLevel(toCodeGenLevel(optLevel));
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> targetMachine =
      machineBuilder->createTargetMachine();
  if (!targetMachine)
    return absl::InternalError(
        absl::StrCat("cannot create a target machine: ",
                     llvm::toString(targetMachine.takeError())));
  return std::move(*targetMachine);
}

/// How the ExecutionEngine gets its LLVM module: translated, its loop nests
/// moved to the process's kernel cache; on any failure of that, compiled
/// whole (kernels the lowering left out still linked from the cache). Also
/// the LLVM IR pipeline, timed.
class ModuleBuilder {
public:
  ModuleBuilder(const ModuleBuilder &) = delete;
  ModuleBuilder(const CodegenOptions &options, llvm::TargetMachine &machine)
      : options(options), machine(machine),
        settings(kernelSettingsFor(options)) {
    settings.optimize = [this](llvm::Module &module) {
      return optimize(module);
    };
  }
  std::unique_ptr<llvm::Module> build(mlir::Operation *op,
                                      llvm::LLVMContext &context);
  /// The transformer: the LLVM IR pipeline over the module, timed.
  llvm::Error transform(llvm::Module *module) {
    if (options.llvmPipeline.empty())
      return llvm::Error::success();
    double start = processCpuMs();
    llvm::Error error = optimize(*module);
    optimizeMs += processCpuMs() - start;
    return error;
  }
  /// Every symbol the module's code is linked to besides the runtime's.
  void registerSymbols(mlir::ExecutionEngine &engine) const;

  KernelLinks kernels;
  std::string kernelFailure;
  double optimizeMs = 0;

private:
  llvm::Error optimize(llvm::Module &module) {
    return options.llvmPipeline.empty()
               ? llvm::Error::success()
               : runLlvmPipeline(module, options.llvmPipeline, &machine);
  }

  const CodegenOptions &options;
  llvm::TargetMachine &machine;
  KernelSettings settings;
  std::vector<std::pair<std::string, void *>> declared;
};

std::unique_ptr<llvm::Module> ModuleBuilder::build(mlir::Operation *op,
                                                   llvm::LLVMContext &context) {
  std::unique_ptr<llvm::Module> module =
      mlir::translateModuleToLLVMIR(op, context);
  if (!module || !options.cacheKernels)
    return module;
  module->setDataLayout(machine.createDataLayout());
  module->setTargetTriple(machine.getTargetTriple());
  llvm::Expected<KernelLinks> linked = linkKernels(*module, machine, settings);
  if (linked) {
    kernels = std::move(*linked);
    // What is left runs once per call of the code around the kernels
    // (allocations, descriptors, the calls); the fast instruction selector
    // compiles it in half the time, at no measurable cost to the run
    // (BENCHMARKS.md §9).
    if (!kernels.symbols.empty())
      machine.setOptLevel(llvm::CodeGenOptLevel::None);
    return module;
  }
  kernelFailure = llvm::toString(linked.takeError());
  module = mlir::translateModuleToLLVMIR(op, context);
  if (!module)
    return module;
  auto found = declaredKernels(*module, settings);
  if (!found) {
    kernelFailure += "; " + llvm::toString(found.takeError());
    return nullptr;
  }
  declared = std::move(*found);
  return module;
}

void ModuleBuilder::registerSymbols(mlir::ExecutionEngine &engine) const {
  if (options.guardAllocations)
    engine.registerSymbols(allocationGuards);
  if (!kernels.symbols.empty())
    engine.registerSymbols([&](llvm::orc::MangleAndInterner interner) {
      return toSymbolMap(interner, kernels.symbols);
    });
  if (!declared.empty())
    engine.registerSymbols([&](llvm::orc::MangleAndInterner interner) {
      return toSymbolMap(interner, declared);
    });
}

} // namespace

absl::StatusOr<std::unique_ptr<JitEntry>>
JitEntry::compile(mlir::ModuleOp llvmModule, const EntrySignature &signature,
                  const CodegenOptions &options) {
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> machine,
                        hostTargetMachine(options.optLevel));
  ModuleBuilder builder(options, *machine);
  // The engine's options hold references to these (function_ref).
  auto buildModule = [&](mlir::Operation *op, llvm::LLVMContext &context) {
    return builder.build(op, context);
  };
  auto transform = [&](llvm::Module *module) {
    return builder.transform(module);
  };
  mlir::ExecutionEngineOptions engineOptions;
  engineOptions.llvmModuleBuilder = buildModule;
  engineOptions.transformer = transform;
  engineOptions.jitCodeGenOptLevel = toCodeGenLevel(options.optLevel);
  engineOptions.enableGDBNotificationListener = false;
  engineOptions.enablePerfNotificationListener = false;
  llvm::StringRef sharedLibs[] = {kCRunnerUtils};
  engineOptions.sharedLibPaths = sharedLibs;
  llvm::Expected<std::unique_ptr<mlir::ExecutionEngine>> engine =
      mlir::ExecutionEngine::create(llvmModule, engineOptions,
                                    std::move(machine));
  if (!engine)
    return absl::InvalidArgumentError(
        absl::StrCat("cannot compile the lowered module: ",
                     llvm::toString(engine.takeError()),
                     builder.kernelFailure.empty()
                         ? ""
                         : " (kernels: " + builder.kernelFailure + ")"));
  builder.registerSymbols(**engine);
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
  entry->llvmOptimizeMs = builder.optimizeMs;
  entry->kernelsCompiled = builder.kernels.compiled;
  entry->kernelsReused = builder.kernels.reused;
  entry->kernelsLoaded = builder.kernels.loaded;
  entry->kernelFailure = builder.kernelFailure;
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
