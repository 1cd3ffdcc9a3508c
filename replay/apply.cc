//===- apply.cc - Apply a patch to fresh MLIR -----------------------------===//

#include "replay/apply.h"

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/op_address.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "replay/repair_syntax.h"

namespace gevo {

std::string ApplyReport::summary(const std::string &patchName) const {
  std::string text;
  if (!modelMatches)
    absl::StrAppend(&text, patchName,
                    ": note: the model differs from the one the patch was "
                    "made for (fingerprint ",
                    modelActual,
                    "); edits are re-anchored by op fingerprints\n");
  int applied = 0, reanchored = 0, skipped = 0;
  for (const EditResult &result : edits) {
    for (const std::string &what : result.unproven)
      absl::StrAppend(&text, patchName, ":", result.line,
                      ": warning: unproven: ", what, "\n");
    switch (result.fate) {
    case EditResult::Fate::Applied:
      ++applied;
      break;
    case EditResult::Fate::Reanchored:
      ++reanchored;
      absl::StrAppend(&text, patchName, ":", result.line,
                      ": re-anchored with fuzz ", result.fuzz, "\n");
      break;
    case EditResult::Fate::Skipped:
      ++skipped;
      absl::StrAppend(&text, patchName, ":", result.line,
                      ": skipped: ", result.reason, "\n");
      break;
    }
  }
  absl::StrAppend(&text, edits.size(), " edits: ", applied, " applied, ",
                  reanchored, " re-anchored, ", skipped, " skipped");
  if (int unproven = unprovenEdits())
    absl::StrAppend(&text, ", ", unproven, " unproven");
  absl::StrAppend(&text, "\n");
  return text;
}

int ApplyReport::unprovenEdits() const {
  int count = 0;
  for (const EditResult &result : edits)
    count += !result.unproven.empty();
  return count;
}

absl::StatusOr<ApplyReport>
applyPatch(mlir::ModuleOp module, const Patch &patch,
           const std::string &patchName, OnMismatch onMismatch, int maxFuzz,
           const SafetyOptions &safety, const AfterEditCheck &afterEach) {
  ApplyReport report;
  report.modelActual = modelFingerprint(module);
  report.modelMatches = report.modelActual == patch.model;
  int number = 0;
  for (const Patch::Entry &entry : patch.entries) {
    if (entry.isComment)
      continue;
    ++number;
    EditResult result;
    result.line = entry.line;
    // Skipping needs the module as it was before a failing edit, so only
    // then is each edit tried on a clone; an error stops everything anyway.
    mlir::OwningOpRef<mlir::ModuleOp> trial;
    if (onMismatch == OnMismatch::Skip)
      trial = module.clone();
    mlir::ModuleOp target = trial ? *trial : module;
    EditOutcome outcome;
    absl::Status status =
        applyEdit(target, entry.edit, &outcome, maxFuzz, safety);
    if (!status.ok()) {
      std::string message(status.message());
      if (outcome.repairMismatch)
        message = absl::StrCat(outcome.repairMismatch->where,
                               ": the repair needed is '",
                               printRepair(outcome.repairMismatch->needed),
                               "' but the edit recorded '",
                               printRepair(outcome.repairMismatch->recorded),
                               "' (a type changed since the patch was made)");
      std::string where =
          absl::StrCat(patchName, ":", entry.line, ": error: edit ", number,
                       " (", toString(entry.edit.kind), " ",
                       toString(entry.edit.target), "): ", message);
      if (onMismatch == OnMismatch::Error)
        return absl::Status(status.code(), where);
      result.fate = EditResult::Fate::Skipped;
      result.reason = message;
      report.edits.push_back(result);
      continue;
    }
    // Move the edited body into the module (keeps the ModuleOp handle valid).
    if (trial)
      module.getBodyRegion().takeBody(trial->getBodyRegion());
    result.unproven = std::move(outcome.unproven);
    if (outcome.fuzz > 0) {
      result.fate = EditResult::Fate::Reanchored;
      result.fuzz = outcome.fuzz;
    }
    report.edits.push_back(result);
    if (absl::Status checked = afterEach ? afterEach(module) : absl::OkStatus();
        !checked.ok())
      return absl::Status(checked.code(),
                          absl::StrCat(patchName, ":", entry.line,
                                       ": error: ", checked.message()));
  }
  return report;
}

absl::Status checkPatchSource(const Patch &patch, const std::string &patchName,
                              SourceForm input) {
  if (input == SourceForm::Onnx && !onnxSource(patch))
    return absl::InvalidArgumentError(
        absl::StrCat(patchName,
                     ":2: error: the input is an ONNX model, but the patch was "
                     "made for a module written in ",
                     patch.source.empty() ? "linalg" : patch.source,
                     ": it has no 'source onnx batch=N' line"));
  if (input == SourceForm::Training &&
      !absl::StartsWith(patch.source, "training "))
    return absl::InvalidArgumentError(absl::StrCat(
        patchName,
        ":2: error: the input is a training program generated from a "
        "workload's training field, but the patch was made for a module "
        "written in ",
        patch.source.empty() ? "linalg" : patch.source,
        ": it has no 'source training' line"));
  if (input != SourceForm::Tosa || patch.source == "tosa")
    return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      patchName, ":2: error: the input is TOSA (legalised to linalg before "
                 "replay), but the patch was made for a module written in "
                 "linalg: it has no 'source tosa' line"));
}

} // namespace gevo
