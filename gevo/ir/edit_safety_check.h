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

namespace gevo {

/// The check of one edit: made before the edit (it keeps a copy of the
/// module), asked after it. A finding the module did not have before word
/// for word (a new op, or an op whose ranges or types changed), or a worse
/// one, is the edit's: the first Unsafe one is returned as an error naming
/// the op's address, the Unproven ones are appended to `unproven`. The
/// module before is only analysed when the module after has a finding.
class EditSafetyCheck {
public:
  EditSafetyCheck(mlir::ModuleOp module, const SafetyOptions &options);
  ~EditSafetyCheck();
  absl::Status check(std::vector<std::string> *unproven);

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace gevo

#endif // GEVO_IR_EDIT_SAFETY_CHECK_H
