//===- guarded_memory.h - Inputs that fault when misused ------------------===//
//
// A forked worker shares the parent's heap image, so a variant that reads
// past an input (an epoch or batch bound edited upward) reads whatever lies
// there and answers differently from run to run. In the worker, the inputs
// are copied to read-only mappings that end at a page nothing may touch (and
// start after one), and a SIGSEGV inside such a page, or a write into an
// input, ends the worker with kOutOfBoundsExitCode and a message: the variant
// is out_of_bounds, at no cost to the code's speed.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_GUARDED_MEMORY_H
#define GEVO_EVAL_GUARDED_MEMORY_H

#include <utility>
#include <vector>

#include "gevo/eval/host_tensor.h"

namespace gevo {

/// The exit status of a worker that touched a guard page.
constexpr int kOutOfBoundsExitCode = 87;

/// Guarded copies of tensors; they live as long as this object.
class GuardedTensors {
public:
  explicit GuardedTensors(const std::vector<const HostTensor *> &originals);
  ~GuardedTensors();
  GuardedTensors(const GuardedTensors &) = delete;
  GuardedTensors &operator=(const GuardedTensors &) = delete;

  /// The copies, in the order given (an original is used as it is when no
  /// mapping could be made).
  std::vector<const HostTensor *> pointers() const;

private:
  std::vector<HostTensor> copies;
  std::vector<const HostTensor *> used;
  std::vector<std::pair<void *, size_t>> mappings;
};

/// Installs the SIGSEGV handler that reports a touched guard page; for the
/// worker process only. Other faults keep their usual ending (a crash).
void reportGuardPageFaults();

} // namespace gevo

#endif // GEVO_EVAL_GUARDED_MEMORY_H
