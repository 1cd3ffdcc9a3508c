//===- static_cost.h - A deterministic estimate of the work a module does -===//
//
// The number of scalar operations the entry would execute, estimated from the
// tensor-level IR alone: each op counts once per iteration of the scf.for
// loops around it (constant bounds; other loops count once), a linalg op
// counts its body's ops times its iteration space, other ops with a static
// tensor result count its elements (a copy), scf.if takes its costlier
// branch, and a call adds its callee's cost. Run time is noisy; this is not,
// so a search on it is reproducible whatever the machine or worker count.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_STATIC_COST_H
#define GEVO_EVAL_STATIC_COST_H

#include <string>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gevo {

/// The estimated cost of calling `entry` (0 when it is missing).
double estimateStaticCost(mlir::ModuleOp module, const std::string &entry);

} // namespace gevo

#endif // GEVO_EVAL_STATIC_COST_H
