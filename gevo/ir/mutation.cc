//===- mutation.cc - Mutation operators that propose resolved edits -------===//

#include "gevo/ir/mutation.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mutation_support.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/TypeUtilities.h"

namespace gevo {
namespace {

absl::StatusOr<Edit> propose(mlir::ModuleOp module, EditKind kind,
                             const MutationOptions &options, Rng &rng) {
  AddressIndex index(module);
  MutationScope scope{module, index, options};
  Edit edit;
  edit.kind = kind;
  switch (kind) {
  case EditKind::Operand:
    GEVO_RETURN_IF_ERROR(proposeOperand(scope, rng, edit));
    break;
  case EditKind::Delete:
    GEVO_RETURN_IF_ERROR(proposeDelete(scope, rng, edit));
    break;
  case EditKind::Constant:
    GEVO_RETURN_IF_ERROR(proposeConstant(scope, rng, edit));
    break;
  case EditKind::Copy:
  case EditKind::Replace:
    GEVO_RETURN_IF_ERROR(proposeClone(scope, rng, edit));
    break;
  case EditKind::Move:
  case EditKind::Swap:
    GEVO_RETURN_IF_ERROR(proposeReorder(scope, rng, edit));
    break;
  case EditKind::Shrink:
    GEVO_RETURN_IF_ERROR(proposeShrink(scope, rng, edit));
    break;
  }
  // Every proposal must replay: apply it to a clone and verify.
  mlir::OwningOpRef<mlir::ModuleOp> check(module.clone());
  GEVO_RETURN_IF_ERROR(applyEdit(*check, edit));
  return edit;
}

/// A Constant edit's value moved a little: a float by a factor of 1.25 up or
/// down, an integer by one.
absl::Status retuneConstant(const MutationScope &scope, Rng &rng, Edit &edit) {
  absl::StatusOr<AddressIndex::Resolved> target =
      scope.index.resolve(edit.target);
  if (!target.ok())
    return target.status();
  auto constant = llvm::dyn_cast<mlir::arith::ConstantOp>(target->op);
  double value = 0;
  if (!constant || !absl::SimpleAtod(edit.literal, &value))
    return noCandidate("constant to retune");
  bool up = chance(0.5, rng);
  if (llvm::isa<mlir::FloatType>(
          mlir::getElementTypeOrSelf(constant.getType()))) {
    if (value == 0)
      return noCandidate("non-zero value to retune");
    edit.literal = absl::StrFormat("%.9g", up ? value * 1.25 : value / 1.25);
  } else {
    edit.literal =
        absl::StrFormat("%d", static_cast<int64_t>(value) + (up ? 1 : -1));
  }
  return absl::OkStatus();
}

} // namespace

bool isTunable(const Edit &edit) {
  return edit.kind == EditKind::Shrink || edit.kind == EditKind::Constant;
}

absl::StatusOr<Edit> retuneEdit(mlir::ModuleOp module, const Edit &edit,
                                const MutationOptions &options, Rng &rng) {
  if (!isTunable(edit))
    return absl::InvalidArgumentError(
        absl::StrCat("a ", toString(edit.kind), " edit has nothing to retune"));
  AddressIndex index(module);
  MutationScope scope{module, index, options};
  Edit moved = edit;
  if (edit.kind == EditKind::Shrink) {
    GEVO_RETURN_IF_ERROR(retuneShrink(scope, rng, moved));
  } else {
    GEVO_RETURN_IF_ERROR(retuneConstant(scope, rng, moved));
  }
  mlir::OwningOpRef<mlir::ModuleOp> check(module.clone());
  GEVO_RETURN_IF_ERROR(applyEdit(*check, moved));
  return moved;
}

bool allowsKind(const MutationOptions &options, EditKind kind) {
  return std::find(options.kinds.begin(), options.kinds.end(), kind) !=
         options.kinds.end();
}

std::vector<Edit> applicableSeeds(mlir::ModuleOp module,
                                  std::vector<Edit> proposed) {
  std::vector<Edit> seeds;
  for (Edit &edit : proposed) {
    mlir::OwningOpRef<mlir::ModuleOp> check(module.clone());
    if (applyEdit(*check, edit).ok())
      seeds.push_back(std::move(edit));
  }
  return seeds;
}

std::vector<Edit> pruningSeeds(mlir::ModuleOp module,
                               const MutationOptions &options) {
  if (!allowsKind(options, EditKind::Shrink))
    return {};
  AddressIndex index(module);
  MutationScope scope{module, index, options};
  return applicableSeeds(module, heaviestShrinks(scope));
}

bool passesFilters(const OpRef &ref, const MutationOptions &options) {
  if (!options.functions.empty() &&
      std::find(options.functions.begin(), options.functions.end(),
                ref.function) == options.functions.end())
    return false;
  return options.opPrefixes.empty() ||
         std::any_of(options.opPrefixes.begin(), options.opPrefixes.end(),
                     [&](const std::string &prefix) {
                       return ref.opName.rfind(prefix, 0) == 0;
                     });
}

absl::StatusOr<std::vector<EditKind>> parseEditKinds(const std::string &list) {
  std::vector<EditKind> kinds;
  for (absl::string_view word : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    std::optional<EditKind> kind =
        parseEditKind(std::string_view(word.data(), word.size()));
    if (!kind)
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown operator '", word,
          "' (expected delete, copy, move, swap, replace, operand, constant, "
          "shrink)"));
    kinds.push_back(*kind);
  }
  if (kinds.empty())
    return absl::InvalidArgumentError("no operator named");
  return kinds;
}

absl::StatusOr<Edit> proposeEdit(mlir::ModuleOp module, EditKind kind,
                                 const MutationOptions &options, Rng &rng) {
  return propose(module, kind, options, rng);
}

absl::StatusOr<Edit> proposeAnyEdit(mlir::ModuleOp module,
                                    const MutationOptions &options, Rng &rng,
                                    int attempts) {
  absl::Status last = absl::NotFoundError("no operator enabled");
  bool weighted = !options.kinds.empty() &&
                  options.kindWeights.size() == options.kinds.size();
  std::discrete_distribution<size_t> byWeight;
  if (weighted)
    byWeight = std::discrete_distribution<size_t>(options.kindWeights.begin(),
                                                  options.kindWeights.end());
  for (int i = 0; i < attempts && !options.kinds.empty(); ++i) {
    EditKind kind =
        weighted ? options.kinds[byWeight(rng)] : pick(options.kinds, rng);
    absl::StatusOr<Edit> edit = propose(module, kind, options, rng);
    if (edit.ok())
      return edit;
    last = edit.status();
  }
  return absl::Status(last.code(),
                      absl::StrCat("no valid edit in ", attempts,
                                   " attempts; last: ", last.message()));
}

} // namespace gevo
