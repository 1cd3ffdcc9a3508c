//===- training_subject.h - The training workload, for JIT tests ----------===//
//
// What the kernel tests share: the embedded digits training workload loaded
// with its validation inputs bound, and a bit-for-bit comparison of results.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_TRAINING_SUBJECT_H
#define GEVO_EVAL_TRAINING_SUBJECT_H

#include <memory>
#include <vector>

#include "gevo/eval/entry_signature.h"
#include "gevo/eval/host_tensor.h"
#include "gevo/eval/workload/workload.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

namespace gevo {

/// The training workload with its validation inputs bound.
struct TrainingSubject {
  WorkloadSpec spec;
  std::vector<HostTensor> arguments;
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  EntrySignature signature;
};

/// Loads it (gtest assertions on failure).
void loadTrainingSubject(TrainingSubject &s);

/// Asserts `got` equals `want` bit for bit.
void expectSameResults(const std::vector<HostTensor> &got,
                       const std::vector<HostTensor> &want);

} // namespace gevo

#endif // GEVO_EVAL_TRAINING_SUBJECT_H
