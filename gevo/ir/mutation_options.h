//===- mutation_options.h - Which operators and ops a mutation may use ----===//
//
// The user's choices that every mutation operator obeys: the operators to
// draw from (and how likely each is), the functions and op names it may
// touch, and an op it is pinned to. No MLIR headers.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_MUTATION_OPTIONS_H
#define GEVO_IR_MUTATION_OPTIONS_H

#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "gevo/ir/edit.h"
#include "gevo/ir/static_safety.h"

namespace mlir {
class Operation;
} // namespace mlir

namespace gevo {

/// The random numbers every mutation draws.
using Rng = std::mt19937_64;

struct MutationOptions {
  /// Operators to draw from.
  std::vector<EditKind> kinds = {std::begin(kAllEditKinds),
                                 std::end(kAllEditKinds)};
  /// How likely each of `kinds` is drawn (same order); empty: uniformly.
  std::vector<double> kindWeights;
  /// Only ops in these functions (empty: all).
  std::vector<std::string> functions;
  /// Only ops whose name starts with one of these ("arith.", "linalg.matmul";
  /// empty: all).
  std::vector<std::string> opPrefixes;
  /// When set, the only op an operator may take as its edit's target (GEVO's
  /// neighbourhood exploration tries each op in turn). An op of the module
  /// being mutated.
  mlir::Operation *target = nullptr;
  /// The static check every proposal passes (static_safety.h): an edit it
  /// refuses is never proposed, as one that does not verify. Off only for
  /// benchmarks that measure the check.
  SafetyOptions safety;
};

/// Whether the user's filters (functions, op-name prefixes) let an operator
/// take the op at `ref` as a target; `options.target` is not consulted.
bool passesFilters(const OpRef &ref, const MutationOptions &options);

/// Whether the user's operators (`options.kinds`) include `kind`.
bool allowsKind(const MutationOptions &options, EditKind kind);

} // namespace gevo

#endif // GEVO_IR_MUTATION_OPTIONS_H
