//===- apply.h - Apply a patch to fresh MLIR ------------------------------===//
//
// The interpreter behind //replay:apply and the gevo_patch build rule: applies
// a patch's edits in order, re-anchoring addresses by fingerprint where the
// module changed a little, and reports each edit's fate.
//
//===----------------------------------------------------------------------===//
#ifndef REPLAY_APPLY_H
#define REPLAY_APPLY_H

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/static_safety.h"
#include "replay/patch.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gevo {

enum class OnMismatch { Error, Skip };

struct EditResult {
  enum class Fate { Applied, Reanchored, Skipped } fate = Fate::Applied;
  int line = 0;       // in the patch file
  int fuzz = 0;       // for Reanchored
  std::string reason; // for Skipped
  /// What the static check could not decide about what this edit made (a
  /// dynamic shape, a caller's scalar): the edit applied, unproven.
  std::vector<std::string> unproven;
};

struct ApplyReport {
  bool modelMatches = true;
  std::string modelActual;
  std::vector<EditResult> edits;
  /// How many edits applied unproven (EditResult::unproven).
  int unprovenEdits() const;
  /// One line per edit and a total, for people.
  std::string summary(const std::string &patchName) const;
};

/// A check of the module after each applied edit (apply's --max-growth); an
/// error stops the replay at that edit's line.
using AfterEditCheck = std::function<absl::Status(mlir::ModuleOp)>;

/// Applies `patch` to `module` in place. With OnMismatch::Error the first edit
/// that cannot apply is an error naming `patchName:line` and the edit (the
/// module may then hold part of that edit: apply to a clone when the original
/// must survive); with Skip it is left out (the module stays as before that
/// edit) and reported. An address re-anchors at most `maxFuzz` ordinals away.
/// Every edit passes the static check (`safety`, static_safety.h): one it
/// refuses does not apply, like an edit whose anchor is gone.
absl::StatusOr<ApplyReport>
applyPatch(mlir::ModuleOp module, const Patch &patch,
           const std::string &patchName, OnMismatch onMismatch,
           int maxFuzz = kDefaultMaxFuzz,
           const SafetyOptions &safety = SafetyOptions(),
           const AfterEditCheck &afterEach = {});

/// Whether `patch` may replay onto an input written in `input` (and
/// legalised to linalg before the edits apply): a TOSA input needs a patch
/// that records `source tosa` and an ONNX input one that records
/// `source onnx batch=N`, so that a patch made for a hand-written linalg
/// module is never replayed onto a frontend's export by accident. Such a
/// patch may replay onto the linalg form itself.
absl::Status checkPatchSource(const Patch &patch, const std::string &patchName,
                              SourceForm input);

} // namespace gevo

#endif // REPLAY_APPLY_H
