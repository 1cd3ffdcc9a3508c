//===- shrink_operator.cc - The shrink operator: structured pruning -------===//
//
// Picks a tensor a linalg op computes and one of its dimensions, checks that
// the dimension can narrow through everything that shares it (shrink.h), and
// keeps a quarter, half or three quarters of its indices: a prefix, a suffix,
// every 2nd or 4th from an offset, or, where constants carry the dimension,
// the indices with the largest weight norm (half of those draws). Retuning
// moves a shrink already in a list to a neighbouring selection (a quarter more
// or fewer, or another rule). The patch line is `shrink <op>:<result> dim <d>
// keep <selection>`. The pruning seeds a search can start from (pruningSeeds(),
// mutation.h) are this operator's heaviest-three-quarters shrinks.
//
//===----------------------------------------------------------------------===//

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/str_cat.h"
#include "gevo/ir/edit_line_reader.h"
#include "gevo/ir/mutation.h"
#include "gevo/ir/mutation_operator.h"
#include "gevo/ir/mutation_support.h"
#include "gevo/ir/shrink.h"
#include "gevo/support/status_macros.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"

namespace gevo {
namespace {

bool computesTensor(mlir::Operation *op) {
  if (!llvm::isa<mlir::linalg::LinalgOp>(op) ||
      llvm::isa<mlir::linalg::FillOp>(op))
    return false;
  return llvm::any_of(op->getResultTypes(), [](mlir::Type type) {
    auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
    return tensor && tensor.hasStaticShape() && tensor.getRank() > 0;
  });
}

/// The `count` indices of `size` with the largest weight, ascending.
std::vector<int64_t> heaviest(const std::vector<double> &weight,
                              int64_t count) {
  std::vector<int64_t> order(weight.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return weight[a] > weight[b]; });
  order.resize(count);
  std::sort(order.begin(), order.end());
  return order;
}

/// The rules a selection follows: a prefix, a suffix, every 2nd or 4th from
/// an offset, the heaviest indices.
enum class Rule { Prefix, Suffix, Stride, Heaviest };

/// How many indices a quarter (1..3) of `size` keeps.
int64_t quarterCount(int64_t size, int quarter) {
  return (size * quarter + 2) / 4;
}

/// The selection `rule` makes keeping `quarter` quarters of the dimension
/// (`offset`: a stride's first index); a rule the web cannot take (a stride
/// of three quarters, a list where indices cannot be listed or no weight is
/// known) falls back to a prefix.
Selection selectionFor(const ShrinkWeb &web, Rule rule, int quarter,
                       int64_t offset) {
  int64_t size = web.size, count = quarterCount(size, quarter);
  bool canList = web.allowsIndexList && !web.weight.empty();
  if ((rule == Rule::Heaviest && !canList) ||
      (rule == Rule::Stride && quarter == 3))
    rule = Rule::Prefix;
  Selection keep;
  switch (rule) {
  case Rule::Prefix:
    keep.start = 0;
    keep.stop = count;
    break;
  case Rule::Suffix:
    keep.start = size - count;
    keep.stop = size;
    break;
  case Rule::Stride:
    keep.step = quarter == 1 ? 4 : 2;
    keep.start = offset % keep.step;
    keep.stop = size;
    if (keep.count() < 1 || keep.count() >= size)
      keep = Selection{0, count, 1, {}};
    break;
  case Rule::Heaviest:
    keep.indices = heaviest(web.weight, count);
    break;
  }
  return keep;
}

/// One of the selections the operator offers for a dimension of `size`.
Selection chooseSelection(const ShrinkWeb &web, Rng &rng) {
  int64_t size = web.size;
  static const int quarters[] = {1, 2, 3};
  int64_t count = 0;
  int quarter = 2;
  for (int attempt = 0; attempt < 4 && (count < 1 || count >= size);
       ++attempt) {
    quarter = quarters[rng() % 3];
    count = quarterCount(size, quarter);
  }
  bool canList = web.allowsIndexList && !web.weight.empty();
  bool canStride = quarter != 3;
  // Where weights tell the units apart, half the draws keep the heaviest:
  // dropping the units that carry the least weight loses the least
  // accuracy, by far, when the units are a convolution's channels.
  int choice = canList && chance(0.5, rng) ? 3 : static_cast<int>(rng() % 3);
  if (choice == 2 && !canStride)
    choice = 0;
  int64_t offset =
      choice == 2 ? static_cast<int64_t>(rng() % (quarter == 1 ? 4 : 2)) : 0;
  return selectionFor(web, static_cast<Rule>(choice), quarter, offset);
}

/// Moves `edit`, a Shrink on the scope's module, to a neighbouring selection
/// of the same dimension.
absl::Status retuneShrink(const MutationScope &scope, Rng &rng, Edit &edit) {
  if (edit.kind != EditKind::Shrink)
    return absl::InvalidArgumentError("only a shrink can be retuned here");
  absl::StatusOr<AddressIndex::Resolved> target =
      scope.index.resolve(edit.target);
  if (!target.ok())
    return target.status();
  mlir::Operation *op = target->op;
  if (edit.result < 0 || edit.result >= static_cast<int>(op->getNumResults()))
    return noCandidate("result to shrink");
  absl::StatusOr<ShrinkWeb> web =
      analyzeShrink(op->getResult(edit.result), edit.dim);
  if (!web.ok())
    return web.status();
  const Selection &now = edit.keep;
  Rule rule = !now.indices.empty() ? Rule::Heaviest
              : now.step > 1       ? Rule::Stride
              : now.start == 0     ? Rule::Prefix
                                   : Rule::Suffix;
  int quarter = static_cast<int>(
      std::lround(4.0 * static_cast<double>(now.count()) / web->size));
  quarter = std::clamp(quarter, 1, 3);
  auto usable = [&](const Selection &keep) {
    return keep.count() >= 1 && keep.count() < web->size && !(keep == now);
  };
  // A quarter more or fewer kept, by the same rule.
  int step = quarter == 1 ? 1 : quarter == 3 ? -1 : chance(0.5, rng) ? 1 : -1;
  Selection keep = selectionFor(*web, rule, quarter + step, now.start);
  if (chance(0.5, rng)) {
    // As many kept by another rule, where that rule gives another selection
    // (a stride cannot keep three quarters, nor a list unknown weights).
    Rule other = static_cast<Rule>(rng() % 3);
    if (other >= rule)
      other = static_cast<Rule>(static_cast<int>(other) + 1);
    Selection byOther = selectionFor(*web, other, quarter, now.start);
    if (usable(byOther))
      keep = byOther;
  }
  if (!usable(keep))
    return noCandidate("other selection for the shrink");
  edit.keep = keep;
  return absl::OkStatus();
}

/// A tensor dimension an op computes that shrinking could narrow.
struct ShrinkSite {
  mlir::Operation *op;
  unsigned result;
  int dim;
};

/// Every (op, result, dimension) of more than one index that the filters
/// allow, in the module's op order.
std::vector<ShrinkSite> shrinkSites(const MutationScope &scope) {
  std::vector<ShrinkSite> sites;
  for (mlir::Operation *op :
       candidates(scope.index, scope.options, computesTensor))
    for (unsigned r = 0; r < op->getNumResults(); ++r) {
      auto type =
          llvm::dyn_cast<mlir::RankedTensorType>(op->getResult(r).getType());
      if (!type || !type.hasStaticShape())
        continue;
      for (int d = 0; d < type.getRank(); ++d)
        if (type.getDimSize(d) > 1)
          sites.push_back({op, r, d});
    }
  return sites;
}

Edit shrinkAt(const MutationScope &scope, const ShrinkSite &site,
              Selection keep) {
  Edit edit;
  edit.kind = EditKind::Shrink;
  edit.target = *scope.index.refOf(site.op);
  edit.result = static_cast<int>(site.result);
  edit.dim = site.dim;
  edit.keep = std::move(keep);
  return edit;
}

/// One heaviest-three-quarters shrink per (op, result, dimension) that can
/// narrow and has weights, before verification.
std::vector<Edit> heaviestShrinks(const MutationScope &scope) {
  std::vector<Edit> out;
  for (const ShrinkSite &site : shrinkSites(scope)) {
    absl::StatusOr<ShrinkWeb> web =
        analyzeShrink(site.op->getResult(site.result), site.dim);
    if (!web.ok() || !web->allowsIndexList || web->weight.empty() ||
        web->size < 4)
      continue;
    Selection keep = selectionFor(*web, Rule::Heaviest, 3, 0);
    if (!keep.indices.empty() && keep.count() < web->size)
      out.push_back(shrinkAt(scope, site, std::move(keep)));
  }
  return out;
}

/// A shrink of a random dimension that can narrow, by a random selection.
absl::Status proposeShrink(const MutationScope &scope, Rng &rng, Edit &edit) {
  // Every site in random order; the first whose dimension narrows through
  // everything that shares it is taken, so most draws give an edit (a
  // dimension that reaches the function's results never does).
  std::vector<ShrinkSite> sites = shrinkSites(scope);
  std::shuffle(sites.begin(), sites.end(), rng);
  constexpr size_t kMaxTries = 32;
  for (size_t i = 0; i < sites.size() && i < kMaxTries; ++i) {
    const ShrinkSite &site = sites[i];
    absl::StatusOr<ShrinkWeb> web =
        analyzeShrink(site.op->getResult(site.result), site.dim);
    if (!web.ok())
      continue;
    edit = shrinkAt(scope, site, chooseSelection(*web, rng));
    return absl::OkStatus();
  }
  return noCandidate("dimension that can shrink");
}

class ShrinkOperator final : public MutationOperator {
public:
  EditKind kind() const override { return EditKind::Shrink; }

  absl::Status propose(const MutationScope &scope, Rng &rng,
                       Edit &edit) const override {
    return proposeShrink(scope, rng, edit);
  }

  bool isTunable() const override { return true; }

  absl::Status retune(const MutationScope &scope, Rng &rng,
                      Edit &edit) const override {
    return retuneShrink(scope, rng, edit);
  }

  absl::StatusOr<mlir::Operation *> change(const Edit &edit,
                                           mlir::Operation *target,
                                           mlir::Operation *) const override {
    if (edit.result < 0 ||
        edit.result >= static_cast<int>(target->getNumResults()))
      return absl::InvalidArgumentError(
          absl::StrCat(toString(edit.target), " has no result ", edit.result));
    if (absl::Status status =
            applyShrink(target->getResult(edit.result), edit.dim, edit.keep);
        !status.ok())
      return absl::Status(status.code(),
                          absl::StrCat("cannot shrink ", toString(edit.target),
                                       ":", edit.result, " dim ", edit.dim,
                                       ": ", status.message()));
    return nullptr;
  }

  std::string printPart(const Edit &edit) const override {
    return absl::StrCat(":", edit.result, " dim ", edit.dim, " keep ",
                        toString(edit.keep));
  }

  absl::Status parsePart(EditLineReader &reader, Edit &edit) const override {
    GEVO_RETURN_IF_ERROR(reader.expect(":"));
    GEVO_ASSIGN_OR_RETURN(edit.result, reader.integer());
    GEVO_RETURN_IF_ERROR(reader.expect("dim"));
    GEVO_ASSIGN_OR_RETURN(edit.dim, reader.integer());
    GEVO_RETURN_IF_ERROR(reader.expect("keep"));
    GEVO_ASSIGN_OR_RETURN(edit.keep, reader.selection());
    return absl::OkStatus();
  }
};

} // namespace

template <> const MutationOperator &operatorOf<EditKind::Shrink>() {
  static const ShrinkOperator op;
  return op;
}

std::vector<Edit> pruningSeeds(mlir::ModuleOp module,
                               const MutationOptions &options) {
  if (!allowsKind(options, EditKind::Shrink))
    return {};
  AddressIndex index(module);
  MutationScope scope{module, index, options};
  return applicableSeeds(module, heaviestShrinks(scope));
}

} // namespace gevo
