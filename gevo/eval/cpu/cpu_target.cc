//===- cpu_target.cc - Variants run on the host CPU through the JIT -------===//

#include "gevo/eval/cpu/cpu_target.h"

#include <filesystem>
#include <map>
#include <unistd.h>

#include "gevo/eval/cpu/jit.h"
#include "gevo/eval/cpu/kernel_cache.h"
#include "gevo/eval/cpu/kernel_directory.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/guarded_memory.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

namespace gevo {
namespace {

class CpuVariant : public CompiledVariant {
public:
  explicit CpuVariant(std::unique_ptr<JitEntry> entry)
      : entry(std::move(entry)) {}
  absl::StatusOr<TimedRun> run(const PlacedInputs &inputs) const override {
    TimedRun out;
    auto start = SteadyClock::now();
    GEVO_ASSIGN_OR_RETURN(out.results, entry->run(inputs.tensors()));
    out.ms = out.hostMs = millisecondsSince(start);
    return out;
  }

private:
  std::unique_ptr<JitEntry> entry;
};

/// The caller's tensors as they are.
class PlainInputs : public PlacedInputs {
public:
  explicit PlainInputs(const std::vector<HostTensor> &tensors) {
    views = pointersTo(tensors);
  }
};

/// Read-only copies that end at guard pages: reading past one is
/// out_of_bounds, not a read of whatever the parent's heap holds there.
class GuardedInputs : public PlacedInputs {
public:
  explicit GuardedInputs(const std::vector<HostTensor> &tensors)
      : guarded(pointersTo(tensors)) {
    views = guarded.pointers();
  }

private:
  GuardedTensors guarded;
};

/// Guarded copies made once in the session's parent (placeAhead): a child
/// inherits the mappings, their protection and the guard table with them.
class InheritedInputs : public PlacedInputs {
public:
  explicit InheritedInputs(const GuardedTensors &guarded) {
    views = guarded.pointers();
  }
};

class CpuTarget : public Target {
public:
  CpuTarget(const EvaluationOptions &options, TargetUse use)
      : use(use), pipeline(options.pipeline), codegen(options.codegen) {
    caps.checksCorruption = true;
    caps.checksUninitializedReads = true;
    caps.lowersInSessionContext = true;
    if (use == TargetUse::Sandboxed)
      codegen.guardAllocations = true;
  }
  ~CpuTarget() override;

  absl::Status prepare(mlir::MLIRContext &context) override;
  void warmUp(mlir::ModuleOp baseline,
              const EntrySignature &signature) override;
  const CompiledVariant *compiledBaseline() const override {
    return warmBaseline.get();
  }
  absl::Status start() override { return absl::OkStatus(); }
  absl::Status lower(mlir::ModuleOp module, const std::string &entry,
                     LoweringNote *note) override;
  std::string pipelineText(const LoweringNote &note) const override {
    PipelineChoice choice = resolvePipeline(pipeline);
    return note.fellBack() ? choice.fallbackPasses : choice.passes;
  }
  absl::StatusOr<std::unique_ptr<CompiledVariant>>
  compile(mlir::ModuleOp lowered, const EntrySignature &signature) override {
    GEVO_ASSIGN_OR_RETURN(std::unique_ptr<JitEntry> entry,
                          JitEntry::compile(lowered, signature, codegen));
    return std::make_unique<CpuVariant>(std::move(entry));
  }
  absl::StatusOr<std::unique_ptr<PlacedInputs>>
  place(const std::vector<HostTensor> &tensors) override {
    if (use == TargetUse::InProcess)
      return std::make_unique<PlainInputs>(tensors);
    reportGuardPageFaults();
    auto ahead = placedAhead.find(&tensors);
    if (ahead != placedAhead.end())
      return std::make_unique<InheritedInputs>(*ahead->second);
    return std::make_unique<GuardedInputs>(tensors);
  }
  void placeAhead(const std::vector<HostTensor> &tensors) override {
    // Only where children guard their inputs; the copy costs the parent
    // the inputs' size once instead of every child a copy of them.
    if (use == TargetUse::Sandboxed)
      placedAhead[&tensors] =
          std::make_unique<GuardedTensors>(pointersTo(tensors));
  }
  void setFreshMemoryFill(unsigned char byte) override {
    setAllocationFill(byte);
  }
  const char *failureStage(TargetStep step,
                           const absl::Status &) const override {
    switch (step) {
    case TargetStep::Lower:
      return "lowering";
    case TargetStep::Compile:
      return "codegen";
    default:
      return "run";
    }
  }
  std::string useOther(const std::string &pipeline,
                       EvaluationOptions &options) const override {
    return useOtherCpuPipeline(pipeline, options);
  }

private:
  /// The lowering for modules of `context`: the session's, or one made for
  /// the context (a variant that could not be copied into the session's).
  absl::StatusOr<Lowering *> loweringFor(mlir::MLIRContext &context);
  /// Kernels compiled for `codegen` already need not be lowered again (in a
  /// session, whose children share them).
  Lowering::CompiledKernels compiledKernels() const;

  TargetUse use;
  /// Guarded copies placed in the parent, by the vector they copy.
  std::map<const std::vector<HostTensor> *, std::unique_ptr<GuardedTensors>>
      placedAhead;
  std::string pipeline;
  CodegenOptions codegen;
  std::unique_ptr<Lowering> sessionLowering, ownLowering;
  mlir::MLIRContext *sessionContext = nullptr, *ownContext = nullptr;
  /// The kernel directory this target made (a session's children share
  /// compiled loop nests through it), and the process that removes it.
  std::string kernelDirectory;
  pid_t owner = 0;
  /// The unmodified program warmUp() compiled (compiledBaseline()).
  std::unique_ptr<CpuVariant> warmBaseline;
};

CpuTarget::~CpuTarget() {
  if (!kernelDirectory.empty() && owner == getpid()) {
    std::error_code ignored;
    std::filesystem::remove_all(kernelDirectory, ignored);
  }
}

absl::Status CpuTarget::prepare(mlir::MLIRContext &context) {
  if (use == TargetUse::InProcess) {
    GEVO_RETURN_IF_ERROR(checkPipeline(context, pipeline));
    return checkLlvmPipeline(codegen.llvmPipeline);
  }
  GEVO_RETURN_IF_ERROR(checkLlvmPipeline(codegen.llvmPipeline));
  GEVO_ASSIGN_OR_RETURN(sessionLowering, Lowering::create(context, pipeline));
  sessionContext = &context;
  return absl::OkStatus();
}

void CpuTarget::warmUp(mlir::ModuleOp baseline,
                       const EntrySignature &signature) {
  if (use == TargetUse::InProcess)
    return;
  if (codegen.cacheKernels && codegen.kernelDirectory.empty()) {
    kernelDirectory = makeKernelDirectory();
    owner = getpid();
    codegen.kernelDirectory = kernelDirectory;
  }
  // Every child is a fork of this process: what the first lowering and
  // compile in a process sets up (the pass manager's pattern sets, the parsed
  // vector schedules, LLVM's target, the runtime library) is done here once
  // instead of in every child; so are the unmodified program's kernels
  // (gevo/eval/cpu/kernel_cache.h), compiled as the children compile theirs, so
  // that a child compiles only the loop nests its variant changed. A failure
  // here is the unmodified program's, and its own measurement reports it.
  // The compiled program is kept: a child runs it beside its variant (its
  // code and constants are the child's copy-on-write pages) instead of
  // compiling it again.
  mlir::OwningOpRef<mlir::ModuleOp> copy = baseline.clone();
  if (!lower(*copy, signature.name, nullptr).ok())
    return;
  absl::StatusOr<std::unique_ptr<JitEntry>> entry =
      JitEntry::compile(*copy, signature, codegen);
  if (entry.ok())
    warmBaseline = std::make_unique<CpuVariant>(std::move(*entry));
}

absl::StatusOr<Lowering *> CpuTarget::loweringFor(mlir::MLIRContext &context) {
  if (sessionLowering && sessionContext == &context)
    return sessionLowering.get();
  if (!ownLowering || ownContext != &context) {
    PipelineChoice choice =
        sessionLowering ? sessionLowering->choice() : resolvePipeline(pipeline);
    GEVO_ASSIGN_OR_RETURN(ownLowering, Lowering::create(context, choice));
    ownContext = &context;
  }
  return ownLowering.get();
}

Lowering::CompiledKernels CpuTarget::compiledKernels() const {
  if (use == TargetUse::InProcess)
    return {};
  return [codegen = codegen](const std::string &name) {
    return outlinedKernelCompiled(name, codegen);
  };
}

absl::Status CpuTarget::lower(mlir::ModuleOp module, const std::string &entry,
                              LoweringNote *note) {
  GEVO_ASSIGN_OR_RETURN(Lowering * lowering,
                        loweringFor(*module->getContext()));
  requestCInterface(module, entry);
  return lowering->run(module, note, compiledKernels());
}

} // namespace

std::unique_ptr<Target> makeCpuTarget(const EvaluationOptions &options,
                                      TargetUse use) {
  return std::make_unique<CpuTarget>(options, use);
}

std::string useOtherCpuPipeline(const std::string &pipeline,
                                EvaluationOptions &options) {
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

} // namespace gevo
