//===- edit_line_reader.h - What an operator reads its patch text with ----===//
//
// A patch line is `<word> <target>`, then the operator's own part (` before
// <anchor>`, ` = <number>`, ...), then the rewires. replay/ reads and writes
// the shared parts (replay/FORMAT.md); each mutation operator
// (mutation_operator.h) prints and parses its own part through this cursor,
// which replay's LineParser implements: the grammar's words stay in replay,
// and gevo/ir never depends on it. No MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_EDIT_LINE_READER_H
#define GEVO_IR_EDIT_LINE_READER_H

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "gevo/ir/edit.h"

namespace gevo {

class EditLineReader {
public:
  virtual ~EditLineReader() = default;
  /// Skips `token`, or fails at its column naming it.
  virtual absl::Status expect(const std::string &token) = 0;
  virtual absl::StatusOr<int> integer() = 0;
  /// A number as written ("0.5", "-2e-3"), checked to parse.
  virtual absl::StatusOr<std::string> literal() = 0;
  /// `[start:stop]`, `[start:stop:step]` or `[i,j,...]`.
  virtual absl::StatusOr<Selection> selection() = 0;
  /// `@function/op.name#ordinal~fingerprint`.
  virtual absl::StatusOr<OpRef> opRef() = 0;
};

/// An anchored operator's part: ` <word> <anchor>` (" before @main/...").
inline std::string printAnchor(const char *word, const Edit &edit) {
  return absl::StrCat(" ", word, " ", toString(edit.anchor));
}

/// Reads what printAnchor() wrote into `edit.anchor`.
inline absl::Status readAnchor(EditLineReader &reader, const char *word,
                               Edit &edit) {
  if (absl::Status status = reader.expect(word); !status.ok())
    return status;
  absl::StatusOr<OpRef> anchor = reader.opRef();
  if (!anchor.ok())
    return anchor.status();
  edit.anchor = *anchor;
  return absl::OkStatus();
}

} // namespace gevo

#endif // GEVO_IR_EDIT_LINE_READER_H
