//===- shrink_rules.cc - Effect labels for shrink edits -------------------===//
//
// A shrink keeps some indices of one dimension everywhere it flows. What
// that dimension is decides the label: the rows of a data argument are a
// batch (batch-size change), its other dimensions are input features, and a
// dimension computed inside the function is a layer's units (pruned units),
// or, when a convolution or pooling carries it as channels, pruned channels.
//
//===----------------------------------------------------------------------===//

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "analysis/label_rules.h"
#include "gevo/ir/shrink.h"

namespace gevo {
namespace {

/// "every 2nd from 0", "the first 128", "the last 64", "3 chosen".
std::string describeKept(const Selection &keep, int64_t size) {
  int64_t count = keep.count();
  if (!keep.indices.empty())
    return absl::StrFormat("%d chosen by weight norm", count);
  if (keep.step > 1)
    return absl::StrFormat("every %s from %d",
                           keep.step == 2   ? "2nd"
                           : keep.step == 3 ? "3rd"
                                            : absl::StrCat(keep.step, "th"),
                           keep.start);
  if (keep.start == 0)
    return absl::StrFormat("the first %d", count);
  if (keep.stop == size)
    return absl::StrFormat("the last %d", count);
  return absl::StrFormat("%d from %d", count, keep.start);
}

} // namespace

std::optional<EffectLabel> shrinkRule(const EditView &view) {
  const Edit &edit = view.edit;
  if (edit.kind != EditKind::Shrink || !view.target ||
      edit.result >= static_cast<int>(view.target->getNumResults()))
    return std::nullopt;
  absl::StatusOr<ShrinkWeb> web =
      analyzeShrink(view.target->getResult(edit.result), edit.dim);
  if (!web.ok())
    return std::nullopt;
  int64_t kept = edit.keep.count();
  std::string which = describeKept(edit.keep, web->size);
  std::string facts = absl::StrFormat(
      "keep %s of dimension %d of %s: %d tensors and %d linalg ops narrow, "
      "%d constants are sliced",
      toString(edit.keep), edit.dim, toString(edit.target), web->values,
      web->ops, web->constants);
  EffectLabel label;
  bool rows = false, features = false;
  for (const auto &[argument, dim] : web->arguments)
    (dim == 0 ? rows : features) = true;
  if (rows) {
    label =
        makeLabel("batch-size change",
                  absl::StrFormat("batch-size change: %d -> %d rows (%s)",
                                  web->size, kept, which),
                  absl::StrCat(facts, "; the rows of a data argument are cut"));
    label.factor = static_cast<double>(kept) / web->size;
    return label;
  }
  const char *kind = features        ? "pruned input features"
                     : web->channels ? "pruned channels"
                                     : "pruned units";
  label = makeLabel(
      kind,
      absl::StrFormat("%s: %d of %d kept (%s)", kind, kept, web->size, which),
      features ? absl::StrCat(facts, "; columns of a data argument are cut")
               : facts);
  label.pruned = web->size - kept;
  label.total = web->size;
  return label;
}

} // namespace gevo
