//===- training_loop.h - Pieces of the generated training program ---------===//
//
// The parts of train_eval written around the gradient rules: constants,
// initial weights, the loss, the loops and the optimiser step. Internal to
// the training generator.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_TRAINING_LOOP_H
#define GEVO_FRONTEND_TRAINING_LOOP_H

#include <string>
#include <vector>

#include "gevo/frontend/training_graph.h"
#include "gevo/frontend/training_rules.h"
#include "gevo/frontend/training_spec.h"

namespace gevo::training {

struct LoopState {
  LoopState(const Graph &g, const TrainingSpec &spec)
      : g(g), spec(spec), w(g.elem) {
    w.indent = 4;
  }
  const Graph &g;
  const TrainingSpec &spec;
  Writer w;
  /// Per parameter (g.params' order): its layer's learning-rate constant.
  std::vector<std::string> lr;
};

/// The layer a parameter belongs to (W2 and b2: 2).
int layerOf(const Node &param);
/// "%name = arith.constant value : type  // comment".
std::string constant(Writer &w, const std::string &name,
                     const std::string &value, const std::string &type,
                     const std::string &comment);
/// Learning rates, momentum, weight decay, batch, epochs, batches, scalars.
void emitHyperParameters(LoopState &s);
/// Every Param's initial value and every Const's value, by node.
std::vector<std::string> emitInitialValues(LoopState &s);
/// Softmax cross-entropy's gradient into pass.grad[g.output].
void emitLoss(LoopState &s, Pass &pass, const std::string &logits,
              const std::string &labels);
/// The whole module.
std::string emitTrainingModule(const Graph &g, const TrainingSpec &spec,
                               const std::string &source);

} // namespace gevo::training

#endif // GEVO_FRONTEND_TRAINING_LOOP_H
