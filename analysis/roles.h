//===- roles.h - What each op of a workload does for the model ------------===//
//
// A data-flow classification of the unmodified module's ops by role, from
// where the workload's data enters (training features, training labels,
// evaluated features) and how loops carry state:
//   - a training loop is an scf.for whose body computes something from the
//     labels; its tensor iter_args are the parameters;
//   - update: the ops that produce the next value of a parameter (and the
//     constants only they use, such as the learning rate);
//   - loss: where label-derived values first meet the model's outputs;
//   - gradient: the rest of what depends on the labels, and the transposes
//     and other label-free ops that exist only to feed it;
//   - forward: what the training loop computes from the inputs on the way
//     to the loss;
//   - prediction: what is computed from the evaluated features outside any
//     training loop (the returned logits);
//   - parameter: initial values and weights held as constants;
//   - schedule: loops and the constants that bound them;
//   - plumbing: everything else (empty tensors, fills, index arithmetic).
// Ops inside a linalg.generic body take the role of the generic.
// This classification is the shipped programs' shape; value_flow.h follows
// values through calls and any loop form, and the constant labels built on
// it (flow_rules.cc) give the role they found instead; op edits take their
// roles from it (FlowRoles, label_rules.h), falling back to this one.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_ROLES_H
#define ANALYSIS_ROLES_H

#include <map>
#include <string>

#include "gevo/eval/workload/workload.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

namespace gevo {

enum class Role {
  Plumbing,
  Schedule,
  Parameter,
  Forward,
  Loss,
  Gradient,
  Update,
  Prediction,
};

const char *toString(Role role);

class RoleMap {
public:
  /// Classifies every op of `spec.entry` in `module`.
  RoleMap(mlir::ModuleOp module, const WorkloadSpec &spec);
  Role roleOf(mlir::Operation *op) const;
  /// Whether `op` is an scf.for that trains (its body uses the labels).
  bool isTrainingLoop(mlir::Operation *op) const {
    return trainingLoops.count(op) > 0;
  }
  /// How many ops have each role (for reports).
  std::map<Role, int> histogram() const;

private:
  llvm::DenseMap<mlir::Operation *, Role> roles;
  llvm::DenseMap<mlir::Operation *, bool> trainingLoops;
};

} // namespace gevo

#endif // ANALYSIS_ROLES_H
