//===- flow_labels.h - Labels from where a constant's value ends up -------===//
//
// Internal to the flow rule (flow_rules.cc): the labels for sinks other than
// schedules, initial values and updates (flow_labels.cc) and the helpers
// both files use.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_FLOW_LABELS_H
#define ANALYSIS_FLOW_LABELS_H

#include <optional>
#include <string>
#include <vector>

#include "analysis/label_rules.h"
#include "analysis/value_flow.h"

namespace gevo {

using Sinks = std::vector<FlowSink>;

/// 3 significant digits, integers whole: 0.176776692 -> "0.177", 1681.0 ->
/// "1681".
std::string shortNumber(double v);
/// "layer 1", "layers 1, 2" or "every layer" for the parameters reached.
std::string layersOf(const ValueFlow &flow, const Sinks &sinks);
/// The label with the path of `sink` as its data-flow path.
EffectLabel withPath(EffectLabel label, const FlowSink &sink);
/// The first op after the constant on a sink's path, calls skipped.
mlir::Operation *firstOp(const FlowSink &sink);

/// A max-reduction's initial value: a guard when the result cannot change.
std::optional<EffectLabel> guardLabel(const Sinks &sinks, double old,
                                      double next);
/// The constant scales or shifts the model's inputs as given.
std::optional<EffectLabel> preprocessingLabel(const EditView &view,
                                              const Sinks &sinks, double old,
                                              double next);
/// The constant changes which training rows each batch reads.
std::optional<EffectLabel> dataLabel(const Sinks &sinks, double old,
                                     double next);

} // namespace gevo

#endif // ANALYSIS_FLOW_LABELS_H
