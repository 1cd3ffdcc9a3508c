//===- labels.h - What one edit of a minimal patch does to the model ------===//
//
// An effect label names what an edit does in the model's terms (a
// learning-rate change x0.5, 160 of 320 weights pruned, the epochs cut from
// 5 to 2, an activation skipped...), from the roles of the ops it touches
// (roles.h) and the values it changes, and backs the claim with dynamic
// evidence: what the edit does alone to the unmodified program, and what
// the minimal patch loses without it (ablation.h). The framework here knows
// no label; the rules live in label_rules.cc, tried in order, the first that
// matches wins, and "other" says what is known when none does.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_LABELS_H
#define ANALYSIS_LABELS_H

#include <optional>
#include <string>
#include <vector>

#include "analysis/roles.h"
#include "gevo/eval/measurement.h"
#include "gevo/eval/workload.h"
#include "gevo/ir/edit.h"
#include "mlir/IR/BuiltinOps.h"

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
  /// One of: "learning-rate change", "initialisation change",
  /// "training schedule change",
  /// "precision change", "parameter pruning", "numerical-stability change",
  /// "layer or activation skipped", "dead computation removed", "other".
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
};

/// Labels edit `index` of `edits` (a patch, applied in order to `baseline`,
/// which is left unchanged).
EffectLabel labelEdit(mlir::ModuleOp baseline, const WorkloadSpec &spec,
                      const std::vector<Edit> &edits, size_t index,
                      const EditEvidence &evidence);

/// "alone: accuracy 0.9306 -> 0.9556 (+0.0250), run x0.99; ..." from the
/// measurements there are.
std::string describeEvidence(const EditEvidence &evidence);

} // namespace gevo

#endif // ANALYSIS_LABELS_H
