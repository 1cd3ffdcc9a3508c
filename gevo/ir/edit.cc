//===- edit.cc - The edit vocabulary --------------------------------------===//

#include "gevo/ir/edit.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace gevo {

const char *toString(EditKind kind) {
  switch (kind) {
  case EditKind::Delete:
    return "delete";
  case EditKind::Copy:
    return "copy";
  case EditKind::Move:
    return "move";
  case EditKind::Swap:
    return "swap";
  case EditKind::Replace:
    return "replace";
  case EditKind::Operand:
    return "operand";
  case EditKind::Constant:
    return "constant";
  case EditKind::Shrink:
    return "shrink";
  }
  return "?";
}

std::optional<EditKind> parseEditKind(std::string_view name) {
  for (EditKind kind : kAllEditKinds)
    if (name == toString(kind))
      return kind;
  return std::nullopt;
}

bool hasAnchor(EditKind kind) {
  return kind == EditKind::Copy || kind == EditKind::Move ||
         kind == EditKind::Swap || kind == EditKind::Replace;
}

std::string toString(const OpRef &ref) {
  return absl::StrFormat("@%s/%s#%d~%08x", ref.function, ref.opName,
                         ref.ordinal, ref.fingerprint);
}

std::string toString(const ValueRef &ref) {
  switch (ref.kind) {
  case ValueRef::Kind::Result:
    return absl::StrCat(toString(ref.op), ":", ref.index);
  case ValueRef::Kind::FunctionArg:
    return absl::StrCat("@", ref.function, "^", ref.index);
  case ValueRef::Kind::RegionArg:
    return absl::StrCat(toString(ref.op), "^", ref.index);
  case ValueRef::Kind::NewResult:
    return absl::StrCat("new:", ref.index);
  case ValueRef::Kind::Constant:
    return absl::StrCat("const(", ref.literal, ")");
  }
  return "?";
}

std::string toString(const Selection &selection) {
  if (!selection.indices.empty())
    return absl::StrCat("[", absl::StrJoin(selection.indices, ","), "]");
  if (selection.step == 1)
    return absl::StrCat("[", selection.start, ":", selection.stop, "]");
  return absl::StrCat("[", selection.start, ":", selection.stop, ":",
                      selection.step, "]");
}

} // namespace gevo
