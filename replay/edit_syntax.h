//===- edit_syntax.h - The grammar of one patch line ----------------------===//
//
// A cursor over one line of a patch that reads op references, value
// references, rewires and whole edits, and reports errors at its column
// (`name:line:col: error: expected ...`). The part of an edit line that is
// its operator's own (` before <anchor>`, ` = <number>`) is read by the
// operator (gevo/ir/mutation_operator.h) through this cursor, as an
// EditLineReader. The file-level format (header, comments) is in patch.cc;
// replay/FORMAT.md documents both.
//
//===----------------------------------------------------------------------===//
#ifndef REPLAY_EDIT_SYNTAX_H
#define REPLAY_EDIT_SYNTAX_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/edit_line_reader.h"

namespace gevo {

class LineParser final : public EditLineReader {
public:
  LineParser(const std::string &line, std::string where, int lineNo)
      : line(line), where(std::move(where)), lineNo(lineNo) {}

  /// "where:line:col: error: expected <expected>, found '...'" at `pos`.
  absl::Status error(const std::string &expected) const;
  void skipSpaces();
  bool atEnd();
  /// Skips `token` if it comes next.
  bool consume(const std::string &token);
  absl::Status expect(const std::string &token) override;
  /// The run of [A-Za-z0-9_.$-] that comes next (may be empty).
  std::string word();
  absl::StatusOr<int> integer() override;
  /// A number as written ("0.5", "-2e-3"), checked to parse.
  absl::StatusOr<std::string> literal() override;
  /// A shrink's kept indices: `[start:stop]`, `[start:stop:step]` or
  /// `[i,j,...]` (ascending).
  absl::StatusOr<Selection> selection() override;
  absl::StatusOr<OpRef> opRef() override;
  absl::StatusOr<ValueRef> valueRef();
  /// Repair steps after `via` (repair_syntax.cc): `cast(f32),crop(4x6)`.
  absl::StatusOr<Repair> repair();
  absl::StatusOr<RepairStep> repairStep();
  /// A crop's `AxB[ at OxP][ step SxT]` after `crop(`.
  absl::Status cropBody(RepairStep &step);
  /// `AxBxC` or `scalar`.
  absl::StatusOr<std::vector<int64_t>> dims();
  absl::StatusOr<Rewire> rewire();
  /// A whole edit line.
  absl::StatusOr<Edit> edit();
  /// ", found '...'" or " at the end of the line", for messages.
  std::string atText() const;

  const std::string &line;
  std::string where;
  int lineNo;
  size_t pos = 0;
};

} // namespace gevo

#endif // REPLAY_EDIT_SYNTAX_H
