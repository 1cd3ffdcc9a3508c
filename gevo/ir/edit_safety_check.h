//===- edit_safety_check.h - The static check of one edit -----------------===//
//
// What applyEdit asks of every edit: the findings of the static check
// (static_safety.h) after the edit that the module did not have before.
// No MLIR headers.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_EDIT_SAFETY_CHECK_H
#define GEVO_IR_EDIT_SAFETY_CHECK_H

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gevo/ir/static_safety.h"

namespace mlir {
class IRMapping;
} // namespace mlir

namespace gevo {

/// A module as it was before an edit, left unchanged, where the edit is made
/// on a clone of it: `toEdited` maps its ops to the clone's (the mapping the
/// clone was made with). A caller that clones before every edit anyway (to
/// keep the module if the edit fails) hands it to the check, which then
/// copies it only when a finding after the edit asks what was there before
/// (the analysis reorders the use lists of the module it reads, from which
/// the mutation operators draw: it never reads the caller's module).
struct ModuleBeforeEdit {
  mlir::Operation *module = nullptr;
  const mlir::IRMapping *toEdited = nullptr;
};

/// The check of one edit: made before the edit (it keeps a copy of the
/// module, or the caller's ModuleBeforeEdit), asked after it. A finding the
/// module did not have before word for word (a new op, or an op whose ranges or
/// types changed), or a worse one, is the edit's: the first Unsafe one is
/// returned as an error naming the op's address, the Unproven ones are appended
/// to `unproven`. The module before is only analysed when the module after has
/// a finding.
class EditSafetyCheck {
public:
  EditSafetyCheck(mlir::ModuleOp module, const SafetyOptions &options);
  /// The same check, reading the module before the edit in `before`.
  EditSafetyCheck(mlir::ModuleOp module, const ModuleBeforeEdit &before,
                  const SafetyOptions &options);
  ~EditSafetyCheck();
  absl::Status check(std::vector<std::string> *unproven);

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace gevo

#endif // GEVO_IR_EDIT_SAFETY_CHECK_H
