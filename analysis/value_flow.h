//===- value_flow.h - Where a value ends up, through calls and loops -----===//
//
// Forward data flow over a whole module, whatever its style: through
// func.call and func.return (matching each return to its call site), into
// scf.for and scf.while bodies (one iteration: a loop's yield reaches its
// results, not its next iteration), and into linalg bodies. Training loops
// are the loops (any form) whose carried state the labels change; those
// positions are the parameters. A traced value stops at its sinks: a
// loop's bounds or condition, a parameter's initial value, a parameter's
// update, a max-reduction's initial value, or the entry's results.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_VALUE_FLOW_H
#define ANALYSIS_VALUE_FLOW_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gevo/eval/workload/workload.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace gevo {

/// A linalg.generic reduction whose body takes a maximum (a softmax's
/// running max; max-pooling ops are not generics).
bool isGenericMaxReduction(mlir::Operation *op);

/// Where a traced value arrives.
struct FlowSink {
  enum class Kind {
    LoopControl,   // a bound, step or condition of `loop`
    ParameterInit, // the initial value of parameter `position` of `loop`
    Update,        // the next value of parameter `position` of `loop`
    MaxInit,       // the initial value of the max-reduction `op`
    Result,        // a result of the entry function
    DataSelection, // which rows of the training data a slice reads
  };
  Kind kind;
  mlir::Operation *loop = nullptr;
  mlir::Operation *op = nullptr; // the op where the value arrives
  unsigned position = 0;
  /// The ops from the traced value's producer to `op`.
  std::vector<mlir::Operation *> path;
};

class ValueFlow {
public:
  ValueFlow(mlir::ModuleOp module, const WorkloadSpec &spec);

  /// Every sink `value` reaches (the nearest first; flow stops at sinks);
  /// `reached`, when given, receives every op the value flows through.
  std::vector<FlowSink>
  trace(mlir::Value value,
        std::vector<mlir::Operation *> *reached = nullptr) const;

  bool isTrainingLoop(mlir::Operation *loop) const {
    return parameters.count(loop) > 0;
  }
  /// Whether the loop carries a parameter or optimiser state at `position`.
  bool isCarried(mlir::Operation *loop, unsigned position) const;
  /// Carried state the labels change that the forward pass never reads (a
  /// momentum's velocity).
  bool isOptimizerState(mlir::Operation *loop, unsigned position) const;
  /// Whether the labels reach `value` (in any call context).
  bool isLabelDerived(mlir::Value value) const {
    return labelDerived.contains(value);
  }
  /// Whether `value` is the model's input as given (train or evaluated
  /// features, through slices, reshapes, pads and linalg bodies only).
  bool isRawInput(mlir::Value value) const { return inputOf(value, false); }
  /// The same for the training data (features or labels) only.
  bool trainingInput(mlir::Value value) const { return inputOf(value, true); }
  /// The carried value `value` stands for, through linalg bodies, loop
  /// bodies and (the first call site of) function arguments.
  std::optional<std::pair<mlir::Operation *, unsigned>>
  carriedOrigin(mlir::Value value) const;
  /// The carried positions of a training loop the labels change.
  const std::vector<unsigned> &parametersOf(mlir::Operation *loop) const;
  /// "epochs", "batches per epoch", "steps per batch" or "loop iterations":
  /// by how many training loops enclose it, through call sites too.
  std::string loopName(mlir::Operation *loop) const;
  /// "layer 2 weights", "layer 1 bias": weights are the rank >= 2
  /// parameters in order, a bias belongs to the weights before it.
  std::string parameterName(mlir::Operation *loop, unsigned position) const;
  /// The layer number of a parameter (1-based).
  int layerOf(mlir::Operation *loop, unsigned position) const;

private:
  std::vector<mlir::Value> successors(mlir::OpOperand &use) const;
  std::optional<FlowSink> sinkAt(mlir::OpOperand &use) const;
  void findTrainingLoops(mlir::ModuleOp module, const WorkloadSpec &spec);
  bool inputOf(mlir::Value value, bool trainingOnly) const;
  /// Every value `from` reaches in one iteration, in any call context.
  llvm::DenseSet<mlir::Value> reachAll(llvm::ArrayRef<mlir::Value> from) const;

  mlir::Operation *entry = nullptr;
  llvm::DenseMap<mlir::Operation *, std::vector<mlir::Operation *>> callSites;
  llvm::DenseMap<mlir::Operation *, std::vector<unsigned>> parameters;
  llvm::DenseMap<mlir::Operation *, std::vector<unsigned>> optimizerState;
  llvm::DenseSet<mlir::Value> labelDerived;
  /// The entry's arguments: features (train or eval) and training data.
  llvm::DenseSet<mlir::Value> inputArguments, trainingArguments;
};

/// A scf.for's or scf.while's trip count when its bounds fold (a while
/// loop: a counter compared with a bound and stepped by a constant).
std::optional<int64_t> tripCountOf(mlir::Operation *loop);

/// "ops a -> b -> c" for a sink's path (call ops name their callee).
std::string describePath(const std::vector<mlir::Operation *> &path);

} // namespace gevo

#endif // ANALYSIS_VALUE_FLOW_H
