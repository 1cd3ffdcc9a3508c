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

#include "analysis/effect_label.h"
#include "analysis/roles.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/edit.h"
#include "mlir/IR/BuiltinOps.h"

namespace gevo {

/// Labels edit `index` of `edits` (a patch, applied in order to `baseline`,
/// which is left unchanged).
EffectLabel labelEdit(mlir::ModuleOp baseline, const WorkloadSpec &spec,
                      const std::vector<Edit> &edits, size_t index,
                      const EditEvidence &evidence);

} // namespace gevo

#endif // ANALYSIS_LABELS_H
