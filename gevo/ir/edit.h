//===- edit.h - The edit vocabulary: op and value references, edits -------===//
//
// Plain data, no MLIR: what one mutation did, with every choice it made
// resolved, so that replaying it needs no random numbers. Shared by the
// mutation operators (which create edits), replay/ (which prints, parses and
// applies them) and the search and analysis (which keep lists of them).
//
// An op is named by an OpRef: the function it is in, its op name, its ordinal
// among the ops of that name in the function (pre-order), and a fingerprint of
// its shape for re-anchoring: `@main/arith.mulf#3~1a2b3c4d`.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_EDIT_H
#define GEVO_IR_EDIT_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gevo/ir/repair_step.h"

namespace gevo {

/// How far (in ordinals) an address may re-anchor to an op with its
/// fingerprint unless the caller says otherwise (//replay:apply --max-fuzz).
constexpr int kDefaultMaxFuzz = 100;

struct OpRef {
  std::string function; // Symbol name without '@'.
  std::string opName;   // e.g. "arith.mulf".
  int ordinal = 0;      // 0-based among `opName` ops in `function`, pre-order.
  uint32_t fingerprint = 0;

  bool operator==(const OpRef &other) const {
    return function == other.function && opName == other.opName &&
           ordinal == other.ordinal && fingerprint == other.fingerprint;
  }
  bool operator!=(const OpRef &other) const { return !(*this == other); }
};

/// A value an edit wires into an operand.
struct ValueRef {
  enum class Kind {
    Result,      // result `index` of op `op`
    FunctionArg, // argument `index` of `function`
    RegionArg,   // argument `index` of the entry block of `op`'s first region
    NewResult,   // result `index` of the op this edit created
    Constant,    // a constant materialised where it is used
  };
  Kind kind = Kind::Result;
  OpRef op;
  std::string function;
  int index = 0;
  /// For Constant: a scalar literal ("0.5", "1", "-2.0e-3"); the type is the
  /// operand's (a tensor gets a splat).
  std::string literal;

  bool operator==(const ValueRef &other) const {
    return kind == other.kind && op == other.op && function == other.function &&
           index == other.index && literal == other.literal;
  }
};

/// One operand set to a value: `user[operand] <- value via repair`.
struct Rewire {
  /// The op whose operand changes; `userIsNew` for the op this edit created.
  OpRef user;
  bool userIsNew = false;
  int operand = 0;
  ValueRef value;
  /// Conversion steps from the value's type to the operand's (repair_step.h);
  /// empty when the types already match.
  Repair repair;

  bool operator==(const Rewire &other) const {
    return user == other.user && userIsNew == other.userIsNew &&
           operand == other.operand && value == other.value &&
           repair == other.repair;
  }
};

/// What an edit does: one value per mutation operator (operators.def lists
/// them; each operator's file says what its edits do).
enum class EditKind {
#define GEVO_OPERATOR(Kind, word, anchored) Kind,
#include "gevo/ir/operators.def"
};

/// The indices of one dimension that a Shrink keeps: `start`, `start+step`,
/// ... below `stop`, or, when `indices` is not empty, exactly those
/// (ascending).
struct Selection {
  int64_t start = 0;
  int64_t stop = 0;
  int64_t step = 1;
  std::vector<int64_t> indices;

  /// How many indices are kept.
  int64_t count() const {
    if (!indices.empty())
      return static_cast<int64_t>(indices.size());
    return stop > start && step > 0 ? (stop - start + step - 1) / step : 0;
  }
  /// The i-th kept index.
  int64_t at(int64_t i) const {
    return indices.empty() ? start + i * step : indices[i];
  }
  bool operator==(const Selection &other) const {
    return start == other.start && stop == other.stop && step == other.step &&
           indices == other.indices;
  }
};

struct Edit {
  EditKind kind = EditKind::Operand;
  OpRef target;
  /// Copy/Move: insert before; Swap: the other op; Replace: the source.
  OpRef anchor;
  std::string literal; // Constant: the new scalar value.
  std::vector<Rewire> rewires;
  /// Shrink: which result of `target`, which of its dimensions, which
  /// indices stay.
  int result = 0;
  int dim = 0;
  Selection keep;

  bool operator==(const Edit &other) const {
    return kind == other.kind && target == other.target &&
           anchor == other.anchor && literal == other.literal &&
           rewires == other.rewires && result == other.result &&
           dim == other.dim && keep == other.keep;
  }
};

/// Every kind, in the order the patch format documents them.
inline constexpr EditKind kAllEditKinds[] = {
#define GEVO_OPERATOR(Kind, word, anchored) EditKind::Kind,
#include "gevo/ir/operators.def"
};

const char *toString(EditKind kind);
/// The kind named `name` ("delete", ...), if any.
std::optional<EditKind> parseEditKind(std::string_view name);
/// "@main/arith.mulf#3~1a2b3c4d"
std::string toString(const OpRef &ref);
std::string toString(const ValueRef &ref);
/// "[0:256:2]", "[0:128]" or "[3,5,9]".
std::string toString(const Selection &selection);
/// Whether edits of `kind` name an anchor after the target (copy, move, swap,
/// replace).
bool hasAnchor(EditKind kind);
/// "delete, copy, ..., shrink": every kind's word, for messages.
std::string editKindList();
/// One edit as a string, equal for equal edits (the repair left out: the
/// types decide it).
std::string editKey(const Edit &edit);
/// A list of edits as a string, equal for equal lists (editKey()s in order).
std::string editListKey(const std::vector<Edit> &edits);

} // namespace gevo

#endif // GEVO_IR_EDIT_H
