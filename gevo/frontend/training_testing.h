//===- training_testing.h - Run a generated module in the training tests --===//
//
// Compiles an MLIR module's entry through the evaluator's CPU Target (the
// path workloads take) once, then runs it on host tensors as often as asked.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_TESTING_H
#define GEVO_FRONTEND_TRAINING_TESTING_H

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/host_tensor.h"

namespace gevo {

class CompiledModule {
public:
  static absl::StatusOr<std::unique_ptr<CompiledModule>>
  compile(const std::string &text, const std::string &entry);
  virtual ~CompiledModule() = default;
  virtual absl::StatusOr<std::vector<HostTensor>>
  run(const std::vector<HostTensor> &inputs) = 0;
};

} // namespace gevo

#endif // GEVO_FRONTEND_TRAINING_TESTING_H
