//===- variant_context.h - Where variants are built: a recycled context ---===//
//
// Editing a module uniques new attributes in its MLIRContext for as long as
// the context lives (a shrink edit's sliced constants: tens of KiB each), so
// a search that built every variant beside the unmodified module would grow
// by every distinct edit it ever tried. A VariantContext keeps an exact copy
// of the unmodified module (bytecode: use-list orders and locations kept) in
// a context of its own and replaces both with a fresh copy once enough
// variants were built there: the parent's memory stays flat.
//
// It also remembers the last variants it built: a search builds one list
// several times (to mutate it, to key and cost a candidate, to run it) and
// a child is mostly its parent's list and one more edit, so a build starts
// from the longest list built before that begins its own and applies only
// the edits after it (the same module: each edit is applied to a clone
// anyway).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_WORKBENCH_VARIANT_CONTEXT_H
#define GEVO_WORKBENCH_VARIANT_CONTEXT_H

#include <cstdint>
#include <list>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/ir/edit.h"
#include "gevo/workbench/build_variant.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace gevo {

class VariantContext {
public:
  /// Copies `unmodified` (left unchanged) into a context of its own, to be
  /// replaced after `recycleEvery` variants (<= 0: never).
  static absl::StatusOr<std::unique_ptr<VariantContext>>
  create(mlir::ModuleOp unmodified, int64_t recycleEvery);
  ~VariantContext();

  /// The copy of the unmodified module in the current context (do not edit
  /// it: clone it). Valid until the next recycleIfDue() that recycles.
  mlir::ModuleOp baseline();
  /// buildVariant() on baseline(); the variant keeps its context alive for
  /// as long as it lives, whatever is recycled meanwhile. Starts from the
  /// longest remembered list that `edits` begins with.
  BuiltVariant build(const std::vector<Edit> &edits);
  /// What build(edits) would hand out, without the clone: `look`
  /// sees the remembered build itself (read its module, never edit it). For
  /// what the search asks of a variant (is it new, its static cost, an edit
  /// proposed on it), which a copy would only slow down.
  void inspect(const std::vector<Edit> &edits,
               llvm::function_ref<void(const BuiltVariant &built)> look);
  /// Remembers `module`, made in the current context from `list` exactly as
  /// build(list) makes it (an edit proposed and verified on a build of the
  /// list before it), as the build of `list`; a module of another context
  /// (recycled since) is dropped.
  void remember(const std::vector<Edit> &list,
                mlir::OwningOpRef<mlir::ModuleOp> module);
  /// Builds that started from a remembered list, and the edits they did not
  /// apply again.
  int64_t reusedBuilds() const { return reused; }
  int64_t reusedEdits() const { return reusedEditCount; }
  /// Counts `variants` more made in the current context.
  void count(int64_t variants) { madeHere += variants; }
  /// Once `recycleEvery` variants were counted, replaces the context with a
  /// fresh copy (true when it did). Call it only where no handle from
  /// baseline() is held; BuiltVariants may be.
  absl::StatusOr<bool> recycleIfDue();
  /// Contexts replaced so far.
  int64_t recycled() const { return recycledCount; }

private:
  struct Copy;
  /// A list built in the current context and what it made (its module is
  /// never handed out: build() returns clones).
  struct Remembered {
    std::vector<Edit> list;
    BuiltVariant built;
  };
  VariantContext() = default;
  Remembered *longestPrefixOf(const std::vector<Edit> &edits);
  void remember(const std::vector<Edit> &list, BuiltVariant built);
  absl::StatusOr<std::shared_ptr<Copy>> freshCopy() const;

  std::string bytecode; // the unmodified module, written once
  int64_t recycleEvery = 0;
  int64_t madeHere = 0;
  int64_t recycledCount = 0;
  std::shared_ptr<Copy> current;
  std::list<Remembered> remembered; // the most recent first
  int64_t reused = 0, reusedEditCount = 0;
};

} // namespace gevo

#endif // GEVO_WORKBENCH_VARIANT_CONTEXT_H
