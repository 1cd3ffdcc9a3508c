//===- apply_edit.h - Apply one recorded edit to a module -----------------===//
//
// Replays an Edit deterministically: resolve its addresses against the
// module as it is now (before the edit), perform the structural change (the
// edit's operator, mutation_operator.h), set each recorded operand (building
// the recorded repair), and verify.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_APPLY_EDIT_H
#define GEVO_IR_APPLY_EDIT_H

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/edit_safety_check.h"
#include "gevo/ir/static_safety.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gevo {

class AddressIndex;

struct EditOutcome {
  /// Largest ordinal distance needed to re-anchor any address of the edit.
  int fuzz = 0;
  /// Set when applyEdit failed because a recorded repair no longer fits the
  /// types (replay/ prints both repairs in its message).
  struct RepairMismatch {
    std::string where; // "<user address>[<operand>]" or "new[<operand>]"
    Repair needed;
    Repair recorded;
  };
  std::optional<RepairMismatch> repairMismatch;
  /// What the edit made that the static check could not decide (it depends
  /// on a dynamic shape or a caller's scalar), one line each.
  std::vector<std::string> unproven;
};

/// Applies `edit` to `module` in place. On error the module may be partly
/// changed: apply to a clone when the original must survive. Errors say what
/// failed: an address (gone, ambiguous), a repair that differs from the
/// recorded one, or IR that no longer verifies. An address re-anchors at most
/// `maxFuzz` ordinals away (kDefaultMaxFuzz in edit.h). An edit after which
/// the module has an access, loop, call or write the static check
/// (static_safety.h) refuses and did not have before is an error too.
/// `index`, when given, is an AddressIndex of `module` as it is now (its own
/// fuzz limit applies): the addresses are resolved in it. `before`, when
/// given, is the module `module` was cloned from, unchanged: the static check
/// copies it only when it needs the module before the edit, instead of
/// copying `module` before every edit.
absl::Status applyEdit(mlir::ModuleOp module, const Edit &edit,
                       EditOutcome *outcome = nullptr,
                       int maxFuzz = kDefaultMaxFuzz,
                       const SafetyOptions &safety = SafetyOptions(),
                       const AddressIndex *index = nullptr,
                       const ModuleBeforeEdit *before = nullptr);

} // namespace gevo

#endif // GEVO_IR_APPLY_EDIT_H
