//===- build_variant.cc - An edit list applied to the unmodified module ---===//

#include "gevo/workbench/build_variant.h"

#include "gevo/ir/apply_edit.h"
#include "gevo/ir/op_address.h"
#include "mlir/IR/IRMapping.h"

namespace gevo {

BuiltVariant buildVariant(mlir::ModuleOp baseline,
                          const std::vector<Edit> &edits) {
  BuiltVariant built;
  built.module = baseline.clone();
  return continueBuild(std::move(built), edits);
}

std::string keyOf(const BuiltVariant &built) {
  return built.key.empty() ? modelFingerprint(*built.module) : built.key;
}

BuiltVariant continueBuild(BuiltVariant built, const std::vector<Edit> &edits) {
  for (const Edit &edit : edits) {
    // applyEdit may leave a module half-edited on failure: try on a copy,
    // which the static check compares with the module it was made from.
    mlir::IRMapping mapping;
    mlir::OwningOpRef<mlir::ModuleOp> attempt(llvm::cast<mlir::ModuleOp>(
        built.module->getOperation()->clone(mapping)));
    ModuleBeforeEdit before{built.module->getOperation(), &mapping};
    if (applyEdit(*attempt, edit, nullptr, kDefaultMaxFuzz, SafetyOptions(),
                  nullptr, &before)
            .ok()) {
      built.module = std::move(attempt);
      built.edits.push_back(edit);
    } else {
      ++built.dropped;
    }
  }
  return built;
}

std::vector<int> droppedIndices(const std::vector<Edit> &sent,
                                const std::vector<Edit> &applied) {
  // buildVariant keeps the edits that applied in order: a subsequence.
  std::vector<int> dropped;
  size_t next = 0;
  for (size_t i = 0; i < sent.size(); ++i) {
    if (next < applied.size() && applied[next] == sent[i])
      ++next;
    else
      dropped.push_back(static_cast<int>(i));
  }
  return dropped;
}

} // namespace gevo
