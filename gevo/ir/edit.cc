//===- edit.cc - The edit vocabulary --------------------------------------===//

#include "gevo/ir/edit.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace gevo {

const char *toString(EditKind kind) {
  switch (kind) {
#define GEVO_OPERATOR(Kind, word, anchored)                                    \
  case EditKind::Kind:                                                         \
    return word;
#include "gevo/ir/operators.def"
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
  switch (kind) {
#define GEVO_OPERATOR(Kind, word, anchored)                                    \
  case EditKind::Kind:                                                         \
    return anchored;
#include "gevo/ir/operators.def"
  }
  return false;
}

std::string editKindList() {
  std::vector<std::string> words;
  for (EditKind kind : kAllEditKinds)
    words.push_back(toString(kind));
  return absl::StrJoin(words, ", ");
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

std::string editKey(const Edit &edit) {
  std::string key =
      absl::StrCat(toString(edit.kind), " ", toString(edit.target), " ");
  if (hasAnchor(edit.kind))
    absl::StrAppend(&key, toString(edit.anchor), " ");
  if (edit.kind == EditKind::Constant)
    absl::StrAppend(&key, "=", edit.literal, " ");
  if (edit.kind == EditKind::Shrink)
    absl::StrAppend(&key, edit.result, " ", edit.dim, " ", toString(edit.keep),
                    " ");
  for (const Rewire &rewire : edit.rewires)
    absl::StrAppend(&key, rewire.userIsNew ? "new" : toString(rewire.user), "[",
                    rewire.operand, "]<-", toString(rewire.value), ";");
  return key;
}

std::string editListKey(const std::vector<Edit> &edits) {
  std::string key;
  for (const Edit &edit : edits)
    absl::StrAppend(&key, editKey(edit), "\n");
  return key;
}

} // namespace gevo
