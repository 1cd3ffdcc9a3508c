//===- target.h - Where variants run: compile, place inputs, run, time ----===//
//
// One interface for every place a workload's module can run (the host CPU
// through the JIT, a GPU through the CUDA driver): lower a module for the
// entry, compile it into a runnable variant, place input tensors where the
// variant reads them, and run it, timed (device time where there is a
// device). makeTarget is the one factory, chosen by
// EvaluationOptions::target; an evaluation by hand (evaluator.h) and a
// session's sandboxed children (variant_session.h) both go through it, and
// what differs between targets is in the implementations (cpu_target.h,
// cuda_target.h) or in the capabilities a Target reports.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_TARGET_H
#define GEVO_EVAL_TARGET_H

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gevo/eval/evaluation_options.h"
#include "gevo/eval/host_tensor.h"

namespace mlir {
class MLIRContext;
class ModuleOp;
} // namespace mlir

namespace gevo {

struct EntrySignature;
struct LoweringNote;

/// What differs between targets beyond how a step is done.
struct TargetCapabilities {
  /// Run times are device time (CUDA events), reported beside the host's
  /// wall time, with the kernel launches of a run.
  bool deviceTime = false;
  /// Variants share one device: a pool runs one at a time unless told
  /// otherwise, and sets no address-space limit (a driver reserves far more
  /// than it maps).
  bool sharedDevice = false;
  /// Variants run in the same memory as the unmodified program: a paired run
  /// checks that its logits did not change once the variant had run.
  bool checksCorruption = false;
  /// Fresh allocations can be filled with any byte (setFreshMemoryFill): a
  /// second run shows a variant that reads memory it never wrote.
  bool checksUninitializedReads = false;
  /// A session lowers in its own context, warmed up in the parent: a variant
  /// from another context is copied there first.
  bool lowersInSessionContext = false;
};

/// How a Target is used: in this process (an evaluation by hand), or in a
/// session's forked children, where allocations and inputs are guarded.
enum class TargetUse { InProcess, Sandboxed };

/// The steps a child reports a failure of, for failureStage().
enum class TargetStep { Start, Lower, Compile, PlaceInputs, Run };

/// Inputs placed where a target's variants read them (guarded or plain host
/// memory, managed memory); the views live as long as this object.
class PlacedInputs {
public:
  virtual ~PlacedInputs();
  const std::vector<const HostTensor *> &tensors() const { return views; }

protected:
  std::vector<const HostTensor *> views;
};

/// One run of a compiled variant.
struct TimedRun {
  std::vector<HostTensor> results;
  /// The time that scores: wall time on the CPU, kernel time on a device.
  double ms = 0;
  double hostMs = 0; // wall time of the same call
  int64_t launches = 0;
};

/// A module compiled for a target, ready to run on placed inputs.
class CompiledVariant {
public:
  virtual ~CompiledVariant();
  virtual absl::StatusOr<TimedRun> run(const PlacedInputs &inputs) const = 0;
};

class Target {
public:
  virtual ~Target();
  const TargetCapabilities &capabilities() const { return caps; }

  /// Checks the target's settings and that what it needs is there, and gets
  /// ready to lower modules of `context`. For a session, in the parent before
  /// any fork (a driver is then looked for, never initialised).
  virtual absl::Status prepare(mlir::MLIRContext &context) = 0;
  /// In a session's parent once the unmodified module is known: whatever
  /// makes the forked children start warm. A failure is left to the
  /// unmodified program's own measurement.
  virtual void warmUp(mlir::ModuleOp baseline,
                      const EntrySignature &signature) = 0;
  /// The unmodified program as warmUp() compiled it, which a child forked
  /// after it runs as its own instead of compiling it again; null: the
  /// child compiles it.
  virtual const CompiledVariant *compiledBaseline() const { return nullptr; }
  /// In the process that runs variants, before the first (a driver is
  /// initialised here).
  virtual absl::Status start() = 0;

  /// Lowers `module` in place for the entry; `note` (may be null) says which
  /// pipeline's output it holds.
  virtual absl::Status lower(mlir::ModuleOp module, const std::string &entry,
                             LoweringNote *note) = 0;
  /// The passes that ran, as a report names them.
  virtual std::string pipelineText(const LoweringNote &note) const = 0;
  /// Compiles a module lower() left.
  virtual absl::StatusOr<std::unique_ptr<CompiledVariant>>
  compile(mlir::ModuleOp lowered, const EntrySignature &signature) = 0;
  /// Places `tensors` where variants read them; `tensors` must outlive the
  /// result (a target may use them as they are).
  virtual absl::StatusOr<std::unique_ptr<PlacedInputs>>
  place(const std::vector<HostTensor> &tensors) = 0;
  /// In a session's parent before any fork: a target may place `tensors`
  /// (which then must outlive it) once here, so that each child's place() of
  /// the same vector takes what it inherits instead of placing them again.
  virtual void placeAhead(const std::vector<HostTensor> &tensors);
  /// The byte fresh allocations are filled with from now on (0 by default);
  /// only with capabilities().checksUninitializedReads.
  virtual void setFreshMemoryFill(unsigned char byte);

  /// The stage a child reports when `step` failed with `status` ("device",
  /// "lowering", "codegen", "run"; child_payload.h).
  virtual const char *failureStage(TargetStep step,
                                   const absl::Status &status) const = 0;
  /// Sets `options` to the other pipeline for a comparison and says which
  /// (useOtherPipeline, evaluation_options.h).
  virtual std::string useOther(const std::string &pipeline,
                               EvaluationOptions &options) const = 0;

protected:
  TargetCapabilities caps;
};

/// The Target `options.target` names, for `use`; InvalidArgument naming
/// the flag for a name it does not know. Nothing is checked or started yet
/// (prepare(), start()).
absl::StatusOr<std::unique_ptr<Target>>
makeTarget(const EvaluationOptions &options,
           TargetUse use = TargetUse::InProcess);

} // namespace gevo

#endif // GEVO_EVAL_TARGET_H
