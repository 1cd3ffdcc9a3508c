//===- edit_safety_check.cc - The static check of one edit ----------------===//

#include "gevo/ir/edit_safety_check.h"

#include <map>
#include <optional>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "gevo/ir/op_address.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"

namespace gevo {

using Kind = SafetyFinding::Kind;
using Level = SafetyFinding::Level;

struct EditSafetyCheck::State {
  mlir::ModuleOp module;
  SafetyOptions options;
  /// The module before the edit: the check's own copy (`copied` maps the
  /// module's ops to it), or a copy of the caller's (`given`), made only
  /// when a finding after the edit needs it: the analysis reorders the use
  /// lists of what it reads, and the caller's module stays as it is.
  mlir::IRMapping copied;
  mlir::OwningOpRef<mlir::ModuleOp> copy;
  ModuleBeforeEdit given;
};

EditSafetyCheck::EditSafetyCheck(mlir::ModuleOp module,
                                 const SafetyOptions &options)
    : state(std::make_unique<State>()) {
  state->module = module;
  state->options = options;
  state->copy =
      llvm::cast<mlir::ModuleOp>(module.getOperation()->clone(state->copied));
}

EditSafetyCheck::EditSafetyCheck(mlir::ModuleOp module,
                                 const ModuleBeforeEdit &before,
                                 const SafetyOptions &options)
    : state(std::make_unique<State>()) {
  state->module = module;
  state->options = options;
  state->given = before;
}

EditSafetyCheck::~EditSafetyCheck() = default;

absl::Status EditSafetyCheck::check(std::vector<std::string> *unproven) {
  std::vector<SafetyFinding> after =
      findSafetyProblems(state->module, state->options);
  if (after.empty())
    return absl::OkStatus();
  // A finding the module had before the edit, word for word, is not the
  // edit's; one whose ranges or types the edit changed is.
  llvm::DenseMap<mlir::Operation *, mlir::Operation *> original;
  if (state->given.module) {
    mlir::IRMapping toCopy;
    state->copy =
        llvm::cast<mlir::ModuleOp>(state->given.module->clone(toCopy));
    for (auto [from, to] : toCopy.getOperationMap())
      original[to] = state->given.toEdited->lookupOrNull(from);
  } else {
    for (auto [from, to] : state->copied.getOperationMap())
      original[to] = from;
  }
  std::map<std::tuple<mlir::Operation *, Kind, std::string>, Level> known;
  for (const SafetyFinding &finding :
       findSafetyProblems(*state->copy, state->options)) {
    Level &level = known
                       .try_emplace({original.lookup(finding.op), finding.kind,
                                     finding.message},
                                    finding.level)
                       .first->second;
    level = std::max(level, finding.level);
  }
  std::optional<AddressIndex> index;
  auto where = [&](mlir::Operation *op) {
    if (!index)
      index.emplace(state->module);
    std::optional<OpRef> ref = index->refOf(op);
    return ref ? toString(*ref) : op->getName().getStringRef().str();
  };
  for (const SafetyFinding &finding : after) {
    auto old = known.find({finding.op, finding.kind, finding.message});
    if (old != known.end() && old->second >= finding.level)
      continue;
    std::string message =
        absl::StrCat(where(finding.op), ": ", finding.message);
    if (finding.level == Level::Unsafe)
      return absl::FailedPreconditionError(
          absl::StrCat("not proven safe: ", message));
    if (unproven)
      unproven->push_back(std::move(message));
  }
  return absl::OkStatus();
}

} // namespace gevo
