//===- training_testing.h - Run a generated module in the training tests --===//
//
// Compiles an MLIR module's entry through the evaluator's CPU Target (the
// path workloads take) once, then runs it on host tensors as often as asked;
// the finite-difference check the gradient tests share.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_TESTING_H
#define GEVO_FRONTEND_TRAINING_TESTING_H

#include <cstdint>
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

/// A tiny f64 forward module: x [4, 3], "%mm = x @ W" ([4, n]), then `body`,
/// returning `out` of `outType`.
std::string forwardModule(int64_t n, const std::string &body,
                          const std::string &out, const std::string &outType);

/// Checks (gtest expectations) every parameter's generated gradient of
/// L = sum(y * dy) against central finite differences of the forward
/// function, on seeded random inputs, parameters and dy.
void checkGradients(const std::string &forwardText);

} // namespace gevo

#endif // GEVO_FRONTEND_TRAINING_TESTING_H
