//===- op_address.cc - Naming ops and values in fresh MLIR ----------------===//

#include "gevo/ir/op_address.h"

#include "mlir/IR/IRMapping.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/xxhash.h"

namespace gevo {
namespace {

bool hasImplicitBody(mlir::Operation *op) {
  return llvm::isa<mlir::linalg::LinalgOp>(op) &&
         !llvm::isa<mlir::linalg::GenericOp>(op);
}

template <typename T> std::string printed(T thing) {
  std::string text;
  llvm::raw_string_ostream os(text);
  thing.print(os);
  return text;
}

/// fingerprintOf() for many ops of one context: what `print(os)` would print
/// for each type and attribute dictionary, through one printer state instead
/// of a fresh one per call (building it sorts the context's dialects, which
/// cost the search more than the printing), each distinct one printed once.
/// The text is the same: a state made from the context alone holds no
/// aliases or SSA names; only `distinct[N]` numbering depends on what was
/// printed before, so anything holding a DistinctAttr gets a state of its own.
class FingerprintPrinter {
public:
  explicit FingerprintPrinter(mlir::MLIRContext *context) : state(context) {}

  uint32_t fingerprint(mlir::Operation *op) {
    std::string key = op->getName().getStringRef().str();
    for (mlir::Type type : op->getResultTypes())
      absl::StrAppend(&key, "|", text(type, types));
    absl::StrAppend(&key, "|", text(op->getAttrDictionary(), dictionaries));
    for (mlir::Value operand : op->getOperands()) {
      if (auto result = llvm::dyn_cast<mlir::OpResult>(operand)) {
        llvm::StringRef producer = result.getOwner()->getName().getStringRef();
        absl::StrAppend(&key, "|",
                        absl::string_view(producer.data(), producer.size()),
                        ":", result.getResultNumber());
      } else {
        absl::StrAppend(
            &key, "|arg",
            llvm::cast<mlir::BlockArgument>(operand).getArgNumber());
      }
    }
    uint64_t hash = llvm::xxh3_64bits(llvm::StringRef(key));
    return static_cast<uint32_t>(hash ^ (hash >> 32));
  }

private:
  template <typename T>
  const std::string &text(T thing, llvm::DenseMap<T, std::string> &known) {
    auto [it, inserted] = known.try_emplace(thing);
    if (!inserted)
      return it->second;
    bool distinct = false;
    thing.walk([&](mlir::DistinctAttr) { distinct = true; });
    if (distinct) {
      it->second = printed(thing);
      return it->second;
    }
    llvm::raw_string_ostream os(it->second);
    thing.print(os, state);
    return it->second;
  }

  mlir::AsmState state;
  llvm::DenseMap<mlir::Type, std::string> types;
  llvm::DenseMap<mlir::DictionaryAttr, std::string> dictionaries;
};

} // namespace

bool isInImplicitBody(mlir::Operation *op) {
  for (mlir::Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (hasImplicitBody(parent))
      return true;
  return false;
}

uint32_t fingerprintOf(mlir::Operation *op) {
  return FingerprintPrinter(op->getContext()).fingerprint(op);
}

std::string modelFingerprint(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  // Every module keyed is one that verified (parsed, or built by edits that
  // each verify): printing need not verify it again (a third of the time).
  mlir::OpPrintingFlags flags;
  flags.assumeVerified();
  module->print(os, flags);
  return absl::StrFormat("%016x", llvm::xxh3_64bits(llvm::StringRef(text)));
}

AddressIndex::AddressIndex(mlir::ModuleOp module, int maxFuzz)
    : module(module), maxFuzz(maxFuzz) {
  FingerprintPrinter printer(module.getContext());
  module.walk([&](mlir::func::FuncOp func) {
    std::string function = func.getSymName().str();
    auto &names = byName[function];
    func.getBody().walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
      std::string name = op->getName().getStringRef().str();
      std::vector<mlir::Operation *> &sameName = names[name];
      OpRef ref{function, name, static_cast<int>(sameName.size()),
                printer.fingerprint(op)};
      sameName.push_back(op);
      refs[op] = ref;
      allOps.push_back(op);
      return hasImplicitBody(op) ? mlir::WalkResult::skip()
                                 : mlir::WalkResult::advance();
    });
  });
}

AddressIndex::AddressIndex(mlir::ModuleOp copy, const AddressIndex &original,
                           const mlir::IRMapping &mapping)
    : module(copy), maxFuzz(original.maxFuzz) {
  for (mlir::Operation *op : original.allOps) {
    mlir::Operation *to = mapping.lookup(op);
    refs[to] = original.refs.lookup(op);
    allOps.push_back(to);
  }
  for (const auto &[function, names] : original.byName) {
    auto &copied = byName[function];
    for (const auto &[name, ops] : names) {
      std::vector<mlir::Operation *> &sameName = copied[name];
      for (mlir::Operation *op : ops)
        sameName.push_back(mapping.lookup(op));
    }
  }
}

std::optional<OpRef> AddressIndex::refOf(mlir::Operation *op) const {
  auto it = refs.find(op);
  if (it == refs.end())
    return std::nullopt;
  return it->second;
}

std::optional<ValueRef> AddressIndex::refOf(mlir::Value value) const {
  ValueRef ref;
  if (auto result = llvm::dyn_cast<mlir::OpResult>(value)) {
    std::optional<OpRef> op = refOf(result.getOwner());
    if (!op)
      return std::nullopt;
    ref.kind = ValueRef::Kind::Result;
    ref.op = *op;
    ref.index = static_cast<int>(result.getResultNumber());
    return ref;
  }
  auto argument = llvm::cast<mlir::BlockArgument>(value);
  mlir::Block *block = argument.getOwner();
  mlir::Operation *parent = block->getParentOp();
  if (!parent || !block->isEntryBlock() ||
      block->getParent() != &parent->getRegion(0))
    return std::nullopt;
  ref.index = static_cast<int>(argument.getArgNumber());
  if (auto func = llvm::dyn_cast<mlir::func::FuncOp>(parent)) {
    ref.kind = ValueRef::Kind::FunctionArg;
    ref.function = func.getSymName().str();
    return ref;
  }
  std::optional<OpRef> op = refOf(parent);
  if (!op)
    return std::nullopt;
  ref.kind = ValueRef::Kind::RegionArg;
  ref.op = *op;
  return ref;
}

bool AddressIndex::hasRef(mlir::Value value) const {
  if (auto result = llvm::dyn_cast<mlir::OpResult>(value))
    return refs.count(result.getOwner()) != 0;
  auto argument = llvm::cast<mlir::BlockArgument>(value);
  mlir::Block *block = argument.getOwner();
  mlir::Operation *parent = block->getParentOp();
  if (!parent || !block->isEntryBlock() ||
      block->getParent() != &parent->getRegion(0))
    return false;
  return llvm::isa<mlir::func::FuncOp>(parent) || refs.count(parent) != 0;
}

absl::StatusOr<AddressIndex::Resolved>
AddressIndex::resolve(const OpRef &ref) const {
  auto function = byName.find(ref.function);
  if (function == byName.end())
    return absl::NotFoundError(absl::StrCat(
        toString(ref), ": the module has no func.func @", ref.function));
  auto name = function->second.find(ref.opName);
  if (name == function->second.end())
    return absl::NotFoundError(absl::StrCat(toString(ref), ": @", ref.function,
                                            " has no ", ref.opName, " op"));
  const std::vector<mlir::Operation *> &ops = name->second;
  // The fingerprint of an indexed op, without copying its address.
  auto fingerprintAt = [&](int i) {
    return refs.find(ops[i])->second.fingerprint;
  };
  if (ref.ordinal < static_cast<int>(ops.size()) &&
      fingerprintAt(ref.ordinal) == ref.fingerprint)
    return Resolved{ops[ref.ordinal], 0};
  int best = -1, bestDistance = 0, beyondLimit = -1;
  bool tie = false;
  for (int i = 0; i < static_cast<int>(ops.size()); ++i) {
    if (fingerprintAt(i) != ref.fingerprint)
      continue;
    int distance = std::abs(i - ref.ordinal);
    if (distance > maxFuzz) {
      if (beyondLimit < 0 || distance < beyondLimit)
        beyondLimit = distance;
      continue;
    }
    if (best < 0 || distance < bestDistance) {
      best = i;
      bestDistance = distance;
      tie = false;
    } else if (distance == bestDistance) {
      tie = true;
    }
  }
  if (best < 0 && beyondLimit >= 0)
    return absl::NotFoundError(absl::StrCat(
        toString(ref), ": the nearest ", ref.opName, " with fingerprint ",
        absl::StrFormat("%08x", ref.fingerprint), " is ", beyondLimit,
        " positions from ordinal ", ref.ordinal, ", beyond the fuzz limit of ",
        maxFuzz, " (--max-fuzz raises it)"));
  if (best < 0)
    return absl::NotFoundError(absl::StrCat(
        toString(ref), ": no ", ref.opName, " in @", ref.function,
        " has fingerprint ", absl::StrFormat("%08x", ref.fingerprint), " (",
        ops.size(), " ", ref.opName, " ops; the anchor is gone or changed)"));
  if (tie)
    return absl::FailedPreconditionError(
        absl::StrCat(toString(ref), ": ambiguous: two ", ref.opName,
                     " ops with this fingerprint are ", bestDistance,
                     " positions from ordinal ", ref.ordinal));
  return Resolved{ops[best], bestDistance};
}

absl::StatusOr<mlir::Value> AddressIndex::resolve(const ValueRef &ref,
                                                  int *fuzz) const {
  switch (ref.kind) {
  case ValueRef::Kind::FunctionArg: {
    auto func = module.lookupSymbol<mlir::func::FuncOp>(ref.function);
    if (!func || func.isExternal())
      return absl::NotFoundError(absl::StrCat(
          toString(ref), ": the module has no func.func @", ref.function));
    if (ref.index >= static_cast<int>(func.getNumArguments()))
      return absl::NotFoundError(
          absl::StrCat(toString(ref), ": @", ref.function, " has only ",
                       func.getNumArguments(), " arguments"));
    return func.getArgument(ref.index);
  }
  case ValueRef::Kind::Result:
  case ValueRef::Kind::RegionArg: {
    absl::StatusOr<Resolved> op = resolve(ref.op);
    if (!op.ok())
      return op.status();
    *fuzz = std::max(*fuzz, op->fuzz);
    if (ref.kind == ValueRef::Kind::Result) {
      if (ref.index >= static_cast<int>(op->op->getNumResults()))
        return absl::NotFoundError(
            absl::StrCat(toString(ref), ": the op has only ",
                         op->op->getNumResults(), " results"));
      return op->op->getResult(ref.index);
    }
    if (op->op->getNumRegions() == 0 || op->op->getRegion(0).empty() ||
        ref.index >=
            static_cast<int>(op->op->getRegion(0).front().getNumArguments()))
      return absl::NotFoundError(
          absl::StrCat(toString(ref), ": the op has no such region argument"));
    return op->op->getRegion(0).front().getArgument(ref.index);
  }
  default:
    return absl::InvalidArgumentError(
        absl::StrCat(toString(ref), ": not a value of the module"));
  }
}

void printAddressList(mlir::ModuleOp module, const AddressIndex &index,
                      llvm::raw_ostream &os) {
  os << "model " << modelFingerprint(module) << "\n";
  // One printer state for the module: printing each op on its own would
  // number the SSA values of the whole module again for every op.
  mlir::AsmState state(module, mlir::OpPrintingFlags().skipRegions());
  std::string text;
  for (mlir::Operation *op : index.ops()) {
    text.clear();
    llvm::raw_string_ostream line(text);
    op->print(line, state);
    os << toString(*index.refOf(op)) << "  "
       << llvm::StringRef(text).split('\n').first.trim() << "\n";
  }
}

} // namespace gevo
