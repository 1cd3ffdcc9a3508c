//===- mutation.cc - Mutation operators that propose resolved edits -------===//

#include "gevo/ir/mutation.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/mutation_support.h"
#include "gevo/support/status_macros.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"

namespace gevo {
namespace {

/// `edit` applied to a clone of `module` (whose addresses `index` holds),
/// which must verify and pass the static check; the clone goes to `applied`
/// when given.
absl::StatusOr<Edit>
verified(mlir::ModuleOp module, const AddressIndex &index, Edit edit,
         const SafetyOptions &safety,
         mlir::OwningOpRef<mlir::ModuleOp> *applied = nullptr) {
  mlir::IRMapping mapping;
  mlir::OwningOpRef<mlir::ModuleOp> check(
      llvm::cast<mlir::ModuleOp>(module->clone(mapping)));
  AddressIndex copied(*check, index, mapping);
  ModuleBeforeEdit before{module.getOperation(), &mapping};
  GEVO_RETURN_IF_ERROR(applyEdit(*check, edit, nullptr, kDefaultMaxFuzz, safety,
                                 &copied, &before));
  if (applied)
    *applied = std::move(check);
  return edit;
}

absl::StatusOr<Edit>
propose(mlir::ModuleOp module, EditKind kind, const MutationOptions &options,
        Rng &rng, mlir::OwningOpRef<mlir::ModuleOp> *applied = nullptr) {
  AddressIndex index(module);
  MutationScope scope{module, index, options};
  Edit edit;
  edit.kind = kind;
  GEVO_RETURN_IF_ERROR(operatorFor(kind).propose(scope, rng, edit));
  // Every proposal must replay: apply it to a clone and verify.
  return verified(module, index, std::move(edit), options.safety, applied);
}

} // namespace

bool isTunable(const Edit &edit) { return operatorFor(edit.kind).isTunable(); }

absl::StatusOr<Edit> retuneEdit(mlir::ModuleOp module, const Edit &edit,
                                const MutationOptions &options, Rng &rng) {
  const MutationOperator &op = operatorFor(edit.kind);
  if (!op.isTunable())
    return absl::InvalidArgumentError(
        absl::StrCat("a ", toString(edit.kind), " edit has nothing to retune"));
  AddressIndex index(module);
  MutationScope scope{module, index, options};
  Edit moved = edit;
  GEVO_RETURN_IF_ERROR(op.retune(scope, rng, moved));
  return verified(module, index, std::move(moved), options.safety);
}

absl::StatusOr<std::vector<EditKind>> parseEditKinds(const std::string &list) {
  std::vector<EditKind> kinds;
  for (absl::string_view word : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    std::optional<EditKind> kind =
        parseEditKind(std::string_view(word.data(), word.size()));
    if (!kind)
      return absl::InvalidArgumentError(absl::StrCat(
          "unknown operator '", word, "' (expected ", editKindList(), ")"));
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

absl::StatusOr<Edit>
proposeAnyEdit(mlir::ModuleOp module, const MutationOptions &options, Rng &rng,
               int attempts, const std::vector<Edit> *taken,
               mlir::OwningOpRef<mlir::ModuleOp> *applied) {
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
    absl::StatusOr<Edit> edit = propose(module, kind, options, rng, applied);
    if (edit.ok() && taken &&
        std::find(taken->begin(), taken->end(), *edit) != taken->end())
      edit = absl::AlreadyExistsError("it repeats an edit of the list");
    if (edit.ok())
      return edit;
    if (applied)
      *applied = nullptr;
    last = edit.status();
  }
  return absl::Status(last.code(),
                      absl::StrCat("no valid edit in ", attempts,
                                   " attempts; last: ", last.message()));
}

} // namespace gevo
