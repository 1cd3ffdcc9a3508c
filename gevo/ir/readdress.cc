//===- readdress.cc - Edits re-recorded with the addresses they resolve to ===//

#include "gevo/ir/readdress.h"

#include "absl/strings/str_cat.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

absl::Status readdressOp(const AddressIndex &index, OpRef &ref) {
  GEVO_ASSIGN_OR_RETURN(AddressIndex::Resolved found, index.resolve(ref));
  std::optional<OpRef> now = index.refOf(found.op);
  if (!now)
    return absl::InternalError(
        absl::StrCat(toString(ref), " resolves to an op with no address"));
  ref = *now;
  return absl::OkStatus();
}

absl::Status readdressValue(const AddressIndex &index, ValueRef &ref) {
  if (ref.kind != ValueRef::Kind::Result &&
      ref.kind != ValueRef::Kind::RegionArg)
    return absl::OkStatus(); // named by function, by the edit, or a literal
  return readdressOp(index, ref.op);
}

/// `edit` with its addresses as they resolve in `module`.
absl::StatusOr<Edit> readdress(mlir::ModuleOp module, Edit edit) {
  AddressIndex index(module);
  GEVO_RETURN_IF_ERROR(readdressOp(index, edit.target));
  if (hasAnchor(edit.kind))
    GEVO_RETURN_IF_ERROR(readdressOp(index, edit.anchor));
  for (Rewire &rewire : edit.rewires) {
    if (!rewire.userIsNew)
      GEVO_RETURN_IF_ERROR(readdressOp(index, rewire.user));
    GEVO_RETURN_IF_ERROR(readdressValue(index, rewire.value));
  }
  return edit;
}

} // namespace

absl::StatusOr<std::vector<Edit>>
readdressEdits(mlir::ModuleOp baseline, const std::vector<Edit> &edits) {
  mlir::OwningOpRef<mlir::ModuleOp> asRecorded(baseline.clone());
  mlir::OwningOpRef<mlir::ModuleOp> asReaddressed(baseline.clone());
  std::vector<Edit> out;
  for (size_t i = 0; i < edits.size(); ++i) {
    auto failed = [&](const absl::Status &status) {
      return absl::InvalidArgumentError(
          absl::StrCat("edit ", i + 1, ": ", status.message()));
    };
    absl::StatusOr<Edit> edit = readdress(*asRecorded, edits[i]);
    if (!edit.ok())
      return failed(edit.status());
    if (absl::Status status = applyEdit(*asRecorded, edits[i]); !status.ok())
      return failed(status);
    if (absl::Status status = applyEdit(*asReaddressed, *edit); !status.ok())
      return failed(status);
    out.push_back(*std::move(edit));
  }
  if (modelFingerprint(*asRecorded) != modelFingerprint(*asReaddressed))
    return absl::InternalError(
        "the re-recorded edits build a different module");
  return out;
}

} // namespace gevo
