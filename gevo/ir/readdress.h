//===- readdress.h - Edits re-recorded with the addresses they resolve to -===//
//
// An edit recorded in one context (after other edits) re-anchors by
// fingerprint when replayed in another, e.g. once a minimiser has dropped
// the edits before it: it applies, but its addresses still name the old
// ordinals. Re-recording gives each address as it resolves where the edit
// now applies, so the patch reads as it replays (no fuzz).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_READDRESS_H
#define GEVO_IR_READDRESS_H

#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gevo {

/// `edits`, applied in order to a clone of `baseline`, each with its
/// addresses re-recorded against the module as the edits before it left it.
/// Fails when an edit does not apply (the error names which), or when the
/// re-recorded edits do not rebuild exactly the same module.
absl::StatusOr<std::vector<Edit>>
readdressEdits(mlir::ModuleOp baseline, const std::vector<Edit> &edits);

} // namespace gevo

#endif // GEVO_IR_READDRESS_H
