//===- mutation.h - Mutation operators that propose resolved edits --------===//
//
// Each operator (mutation_operator.h) looks at a module, makes its random
// choices, and returns an Edit with every choice recorded (targets, anchors,
// rewired operands with their repairs), so that applying the edit needs no
// random numbers. Every proposed edit has been applied to a clone and
// verified. The seeds a search can start from are here too.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_MUTATION_H
#define GEVO_IR_MUTATION_H

#include <random>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"
#include "gevo/ir/mutation_options.h"
#include "mlir/IR/OwningOpRef.h"

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace gevo {

/// Parses "delete,copy,constant" into kinds; errors name the bad word.
absl::StatusOr<std::vector<EditKind>> parseEditKinds(const std::string &list);

/// Proposes one edit of `kind` on `module` (left unchanged). Fails when the
/// random choices lead nowhere (no candidate, or the edit does not verify):
/// callers draw again.
absl::StatusOr<Edit> proposeEdit(mlir::ModuleOp module, EditKind kind,
                                 const MutationOptions &options,
                                 std::mt19937_64 &rng);

/// Draws a kind from `options.kinds` and proposes an edit, trying up to
/// `attempts` times. A proposal equal to an edit of `taken` (the list it is
/// for) counts as a failed attempt: a patch holds each edit once (replay
/// refuses the same edit twice). `applied`, when given, receives the clone of
/// `module` the edit was verified on, with the edit applied.
absl::StatusOr<Edit>
proposeAnyEdit(mlir::ModuleOp module, const MutationOptions &options,
               std::mt19937_64 &rng, int attempts = 50,
               const std::vector<Edit> *taken = nullptr,
               mlir::OwningOpRef<mlir::ModuleOp> *applied = nullptr);

/// Whether retuneEdit() can move `edit`: a Shrink, or a Constant edit.
bool isTunable(const Edit &edit);

/// A neighbour of `edit` on `module`, the variant the edits before it in its
/// list build: a Shrink keeps a quarter more or fewer of the same dimension
/// (same rule), or as many by another rule; a Constant edit's value moves by
/// a small factor (an integer by one). Where the search found a useful
/// structural edit, its neighbours are likelier to be useful than a fresh
/// draw. Verified on a clone like every proposal; fails when there is none.
absl::StatusOr<Edit> retuneEdit(mlir::ModuleOp module, const Edit &edit,
                                const MutationOptions &options,
                                std::mt19937_64 &rng);

/// Where a search can start besides random lists: for every dimension the
/// shrink operator can narrow (and the filters allow) whose units carry
/// weights, one shrink keeping the three quarters of its units with the
/// largest weight norm, i.e. magnitude pruning of a quarter, the first
/// thing an ML engineer tries on a model that is too slow. In the module's
/// op order, each verified on a clone; none when Shrink is not among
/// `options.kinds`. One dimension reached through several ops gives equal
/// variants: callers keep one per variant.
std::vector<Edit> pruningSeeds(mlir::ModuleOp module,
                               const MutationOptions &options);

/// Where a training search can start: for every step size of a gradient
/// descent written out in the IR (a non-zero float constant used only as
/// the factor of steps subtracted from what they update, `w - lr * g`), that
/// the filters allow, one edit doubling it and one halving it: the learning
/// rate sweep an ML engineer tries first. Each verified on a clone; none when
/// Constant is not among `options.kinds`.
std::vector<Edit> learningRateSeeds(mlir::ModuleOp module,
                                    const MutationOptions &options);

} // namespace gevo

#endif // GEVO_IR_MUTATION_H
