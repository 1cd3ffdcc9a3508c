//===- mutation_operator.h - One mutation operator, behind one interface --===//
//
// Everything gevo-ml knows about one kind of edit lives in one file,
// `gevo/ir/<word>_operator.cc`, as a MutationOperator: how it proposes an
// edit (its random choices, in a fixed order), how it changes a module when
// the edit is applied, how its part of a patch line is printed and parsed,
// and how a label describes it. operators.def registers each one on one line;
// mutation.cc, apply_edit.cc and replay/ reach them through operatorFor().
// Adding an operator: its file, and its line in operators.def.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_MUTATION_OPERATOR_H
#define GEVO_IR_MUTATION_OPERATOR_H

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/mutation_options.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace gevo {

class EditLineReader;
struct MutationScope;

class MutationOperator {
public:
  virtual ~MutationOperator() = default;

  virtual EditKind kind() const = 0;
  /// The word that names it in patches and --operators ("delete").
  const char *word() const { return toString(kind()); }

  /// Fills `edit` (its kind already set) with every choice the operator
  /// makes on the scope's module, drawing from `rng`; fails when the draws
  /// lead nowhere (the caller draws again). The caller verifies the edit.
  virtual absl::Status propose(const MutationScope &scope, Rng &rng,
                               Edit &edit) const = 0;

  /// Whether retune() can move an edit to a neighbour.
  virtual bool isTunable() const { return false; }
  /// Moves `edit`, made by this operator on the scope's module, to a
  /// neighbouring edit; the caller verifies it.
  virtual absl::Status retune(const MutationScope &scope, Rng &rng,
                              Edit &edit) const;

  /// Whether its edits create an op (that rewires name `new`).
  virtual bool createsOp() const { return false; }
  /// Whether applying erases the target once the rewires have moved its
  /// uses.
  virtual bool erasesTarget() const { return false; }
  /// Whether the anchor may lie inside the target (an op nested in it).
  virtual bool allowsAnchorInTarget() const { return false; }
  /// The structural change on the resolved target and anchor (null for an
  /// operator without one), before any rewire is set: the op it created
  /// (createsOp()), or null.
  virtual absl::StatusOr<mlir::Operation *>
  change(const Edit &edit, mlir::Operation *target,
         mlir::Operation *anchor) const = 0;

  /// Its part of the patch line, between the target and the rewires
  /// (" before <anchor>", " = 0.5"); empty for none.
  virtual std::string printPart(const Edit &edit) const { return ""; }
  /// Reads what printPart() wrote.
  virtual absl::Status parsePart(EditLineReader &reader, Edit &edit) const {
    return absl::OkStatus();
  }

  /// How a label names the edit: "delete of arith.mulf".
  virtual std::string describe(const Edit &edit) const;
};

/// The operator registered for `kind`; each operator's file defines its
/// specialisation.
template <EditKind kind> const MutationOperator &operatorOf();
#define GEVO_OPERATOR(Kind, word, anchored)                                    \
  template <> const MutationOperator &operatorOf<EditKind::Kind>();
#include "gevo/ir/operators.def"

/// The operator that makes and applies edits of `kind`.
const MutationOperator &operatorFor(EditKind kind);

} // namespace gevo

#endif // GEVO_IR_MUTATION_OPERATOR_H
