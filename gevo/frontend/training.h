//===- training.h - Generate a model's training program -------------------===//
//
// From a forward module (linalg on tensors, as the ONNX importer writes it or
// by hand) and a training spec, one MLIR module whose entry trains the model
// by minibatch SGD in the IR and returns the logits of the eval rows:
//   train_eval(train features, train labels_onehot, eval features) -> logits
// (docs/frontends.md). No MLIR types in this header.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_H
#define GEVO_FRONTEND_TRAINING_H

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/frontend/training_spec.h"

namespace gevo {

/// The training module's text. `name` names the forward module in messages
/// and the header comment. A bad spec or model (a loss the output cannot
/// feed, an op without a gradient rule, a batch larger than the data) is
/// one line naming the field or op.
absl::StatusOr<std::string>
generateTrainingModule(const std::string &forwardText, const TrainingSpec &spec,
                       const std::string &name = "forward");

/// For checking the gradient rules: the forward function with the trained
/// constants as arguments, @forward(x, params...) -> y, and its reverse
/// pass, @gradient(x, params..., dy) -> (dparams...) (one per parameter
/// whose gradient is defined, in the module's order).
struct GradientCheckModules {
  std::string forward;
  std::string gradient;
  std::vector<std::vector<int64_t>> paramShapes;
  std::vector<std::string> paramNames;
  std::vector<int64_t> inputShape;
  std::vector<int64_t> outputShape;
};
absl::StatusOr<GradientCheckModules>
generateGradientCheck(const std::string &forwardText);

} // namespace gevo

#endif // GEVO_FRONTEND_TRAINING_H
