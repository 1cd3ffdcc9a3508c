//===- effect_label.h - An edit's effect label and the evidence behind it -===//
//
// Plain data (no MLIR) shared by the labeller (labels.h) and the reports.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_EFFECT_LABEL_H
#define ANALYSIS_EFFECT_LABEL_H

#include <cstdint>
#include <optional>
#include <string>

#include "gevo/eval/measurement.h"

namespace gevo {

/// Measurements that back a label (each may be missing).
struct EditEvidence {
  /// The unmodified program, measured like the others.
  std::optional<Measurement> baseline;
  /// The edit alone on the unmodified program (nullopt: it does not apply
  /// without the edits before it).
  std::optional<Measurement> alone;
  /// The minimal patch without this edit.
  std::optional<Measurement> without;
  /// The whole minimal patch.
  std::optional<Measurement> full;
  /// Run-time ratios within 1 +- this count as unchanged.
  double noise = 0.02;
};

struct EffectLabel {
  /// One of: "learning-rate change", "parameter reset",
  /// "initialisation change",
  /// "training schedule change",
  /// "precision change", "parameter pruning", "numerical-stability change",
  /// "layer or activation skipped", "gradient dropped",
  /// "dead computation removed", "pruned units", "pruned channels", "pruned
  /// input features", "batch-size change", "loss change", "other".
  std::string kind;
  /// The label as a person reads it: "learning-rate change x0.5 (0.01 ->
  /// 0.005)".
  std::string summary;
  /// What the label rests on: the ops and values touched, then the
  /// measurements.
  std::string evidence;
  /// Learning-rate and schedule changes: new / old.
  double factor = 0;
  /// Pruning: how many of how many values no longer contribute.
  int64_t pruned = 0, total = 0;
  /// The roles of the ops the edit touches, e.g. "update, forward".
  std::string roles;
  /// The data-flow path that justifies the label: the ops from the edit
  /// to where its value ends up ("arith.constant -> func.call @init ->
  /// arith.mulf -> ... -> scf.while"); empty when none was followed.
  std::string path;
};

/// "alone: accuracy 0.9306 -> 0.9556 (+0.0250), run x0.99; ..." from the
/// measurements there are.
std::string describeEvidence(const EditEvidence &evidence);

} // namespace gevo

#endif // ANALYSIS_EFFECT_LABEL_H
