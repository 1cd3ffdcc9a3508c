//===- variant_context.cc - Where variants are built: a recycled context --===//

#include "gevo/workbench/variant_context.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/status/status.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/status_macros.h"
#include "mlir/Bytecode/BytecodeReader.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {

/// One context and the copy of the unmodified module in it; the module goes
/// before its context.
struct VariantContext::Copy {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

VariantContext::~VariantContext() = default;

absl::StatusOr<std::unique_ptr<VariantContext>>
VariantContext::create(mlir::ModuleOp unmodified, int64_t recycleEvery) {
  std::unique_ptr<VariantContext> out(new VariantContext());
  out->recycleEvery = recycleEvery;
  llvm::raw_string_ostream os(out->bytecode);
  if (mlir::failed(mlir::writeBytecodeToFile(unmodified, os)))
    return absl::InternalError("the unmodified module has no bytecode form");
  os.flush();
  GEVO_ASSIGN_OR_RETURN(out->current, out->freshCopy());
  return out;
}

absl::StatusOr<std::shared_ptr<VariantContext::Copy>>
VariantContext::freshCopy() const {
  auto copy = std::make_shared<Copy>();
  copy->context = createContext();
  mlir::Block block;
  mlir::ParserConfig config(copy->context.get());
  if (mlir::failed(mlir::readBytecodeFile(
          llvm::MemoryBufferRef(bytecode, "unmodified"), &block, config)) ||
      !llvm::hasSingleElement(block))
    return absl::InternalError("the unmodified module's bytecode does not "
                               "read back");
  auto module = llvm::dyn_cast<mlir::ModuleOp>(block.front());
  if (!module)
    return absl::InternalError("the unmodified module's bytecode holds no "
                               "module");
  module->remove();
  copy->module = module;
  return copy;
}

mlir::ModuleOp VariantContext::baseline() { return *current->module; }

namespace {

/// Lists remembered: a generation's candidates (population x screen) and
/// the parents they were bred from, at a clone of a module each.
constexpr size_t kRememberedLists = 128;

/// Every value of `module` (op results, then the arguments of each block of
/// the op's regions), op by op in pre-order, and each op's position.
void valuesOf(mlir::ModuleOp module, std::vector<mlir::Value> &values,
              llvm::DenseMap<mlir::Operation *, unsigned> *positions) {
  module->walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
    if (positions)
      positions->try_emplace(op, positions->size());
    for (mlir::Value result : op->getResults())
      values.push_back(result);
    for (mlir::Region &region : op->getRegions())
      for (mlir::Block &block : region)
        for (mlir::Value argument : block.getArguments())
          values.push_back(argument);
  });
}

/// Gives `copy`, a clone of `original`, the original's use-list orders. A
/// clone lists each value's uses in the order it made its users, while an
/// edited module keeps the order its edits left, and the mutation operators
/// draw from use lists: a build handed out as a clone must draw the edits
/// the module it copies would.
void copyUseListOrders(mlir::ModuleOp original, mlir::ModuleOp copy) {
  std::vector<mlir::Value> from, to;
  llvm::DenseMap<mlir::Operation *, unsigned> fromPositions, toPositions;
  valuesOf(original, from, &fromPositions);
  valuesOf(copy, to, &toPositions);
  using UseKey = std::pair<unsigned, unsigned>; // user's position, operand
  std::map<UseKey, unsigned> rank;
  llvm::SmallVector<unsigned> order;
  for (size_t i = 0; i < from.size() && i < to.size(); ++i) {
    if (from[i].use_empty() || from[i].hasOneUse())
      continue;
    rank.clear();
    for (mlir::OpOperand &use : from[i].getUses())
      rank.try_emplace(
          {fromPositions.lookup(use.getOwner()), use.getOperandNumber()},
          rank.size());
    order.clear();
    for (mlir::OpOperand &use : to[i].getUses())
      order.push_back(
          rank[{toPositions.lookup(use.getOwner()), use.getOperandNumber()}]);
    if (!std::is_sorted(order.begin(), order.end()))
      to[i].shuffleUseList(order);
  }
}

BuiltVariant cloneOf(const BuiltVariant &built) {
  BuiltVariant copy;
  copy.context = built.context;
  copy.module = built.module.get().clone();
  copyUseListOrders(built.module.get(), *copy.module);
  copy.edits = built.edits;
  copy.dropped = built.dropped;
  copy.key = built.key;
  return copy;
}

} // namespace

VariantContext::Remembered *
VariantContext::longestPrefixOf(const std::vector<Edit> &edits) {
  auto best = remembered.end();
  for (auto it = remembered.begin(); it != remembered.end(); ++it)
    if (it->list.size() <= edits.size() &&
        (best == remembered.end() || it->list.size() > best->list.size()) &&
        std::equal(it->list.begin(), it->list.end(), edits.begin()))
      best = it;
  if (best == remembered.end())
    return nullptr;
  remembered.splice(remembered.begin(), remembered, best);
  return &remembered.front();
}

void VariantContext::remember(const std::vector<Edit> &list,
                              BuiltVariant built) {
  remembered.push_front(Remembered{list, std::move(built)});
  if (remembered.size() > kRememberedLists)
    remembered.pop_back();
}

void VariantContext::remember(const std::vector<Edit> &list,
                              mlir::OwningOpRef<mlir::ModuleOp> module) {
  if (!module || module->getContext() != current->context.get())
    return;
  BuiltVariant built;
  built.context = current;
  built.key = modelFingerprint(*module);
  built.module = std::move(module);
  built.edits = list;
  remember(list, std::move(built));
}

BuiltVariant VariantContext::build(const std::vector<Edit> &edits) {
  Remembered *start = longestPrefixOf(edits);
  if (start && start->list.size() == edits.size()) {
    ++reused;
    reusedEditCount += static_cast<int64_t>(edits.size());
    return cloneOf(start->built);
  }
  BuiltVariant built;
  if (start) {
    ++reused;
    reusedEditCount += static_cast<int64_t>(start->list.size());
    std::vector<Edit> rest(edits.begin() + start->list.size(), edits.end());
    built = continueBuild(cloneOf(start->built), rest);
  } else {
    built = buildVariant(baseline(), edits);
  }
  built.context = current;
  // Every list built here is keyed (to run it, or to ask whether it is
  // new): once per list, not once per build of it. (Where the key is printed
  // matters: a search that skipped it for the builds it only proposes on
  // drew other children for the same seed.)
  built.key = modelFingerprint(*built.module);
  BuiltVariant out = cloneOf(built);
  remember(edits, std::move(built));
  return out;
}

void VariantContext::inspect(
    const std::vector<Edit> &edits,
    llvm::function_ref<void(const BuiltVariant &built)> look) {
  Remembered *known = longestPrefixOf(edits);
  if (!known || known->list.size() != edits.size()) {
    build(edits); // remembered first
    known = &remembered.front();
  } else {
    ++reused;
    reusedEditCount += static_cast<int64_t>(edits.size());
  }
  look(known->built);
}

absl::StatusOr<bool> VariantContext::recycleIfDue() {
  if (recycleEvery <= 0 || madeHere < recycleEvery)
    return false;
  GEVO_ASSIGN_OR_RETURN(std::shared_ptr<Copy> fresh, freshCopy());
  current = std::move(fresh); // the old one lives on in its BuiltVariants
  remembered.clear();
  madeHere = 0;
  ++recycledCount;
  return true;
}

} // namespace gevo
