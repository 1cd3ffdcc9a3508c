//===- static_safety.cc - What an edit may not do to a module, proven -----===//

#include "gevo/ir/static_safety.h"

#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gevo/ir/element_bounds.h"
#include "gevo/ir/value_ranges.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

using Kind = SafetyFinding::Kind;
using Level = SafetyFinding::Level;

int64_t saturate(__int128 value) {
  if (value > std::numeric_limits<int64_t>::max())
    return std::numeric_limits<int64_t>::max();
  if (value < std::numeric_limits<int64_t>::min())
    return std::numeric_limits<int64_t>::min();
  return int64_t(value);
}

std::string bound(int64_t value) { return std::to_string(value); }

std::string show(const IntRange &range) {
  if (range.min == std::numeric_limits<int64_t>::min() &&
      range.max == std::numeric_limits<int64_t>::max())
    return "unbounded";
  return absl::StrCat("[", range.min, ", ", range.max, "]");
}

/// "; it is computed from the caller's argument 0 of @main" when one of
/// `values` depends on data read at run time; empty otherwise.
std::string dataNote(llvm::ArrayRef<mlir::Value> values) {
  for (mlir::Value value : values)
    if (value)
      if (std::string source = runtimeDataSource(value); !source.empty())
        return absl::StrCat("; it is computed from ", source);
  return "";
}

std::string show(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return text;
}

/// The function argument `value` is, or is a view of (through slices, casts,
/// reshapes, loop-carried values and destination-passing results).
std::optional<mlir::BlockArgument> argumentBehind(mlir::Value value) {
  for (int step = 0; step < 256 && value; ++step) {
    if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value)) {
      mlir::Operation *owner = arg.getOwner()->getParentOp();
      if (llvm::isa_and_present<mlir::FunctionOpInterface>(owner))
        return arg;
      auto loop = llvm::dyn_cast_if_present<mlir::LoopLikeOpInterface>(owner);
      mlir::OpOperand *init = loop ? loop.getTiedLoopInit(arg) : nullptr;
      if (!init)
        return std::nullopt;
      value = init->get();
      continue;
    }
    mlir::Operation *def = value.getDefiningOp();
    auto result = llvm::cast<mlir::OpResult>(value);
    if (llvm::isa<mlir::tensor::ExtractSliceOp, mlir::tensor::CastOp,
                  mlir::tensor::CollapseShapeOp, mlir::tensor::ExpandShapeOp,
                  mlir::tensor::ReshapeOp>(def)) {
      value = def->getOperand(0);
    } else if (auto loop = llvm::dyn_cast<mlir::LoopLikeOpInterface>(def)) {
      mlir::OpOperand *init = loop.getTiedLoopInit(result);
      if (!init)
        return std::nullopt;
      value = init->get();
    } else if (auto dps =
                   llvm::dyn_cast<mlir::DestinationStyleOpInterface>(def)) {
      value = dps.getTiedOpOperand(result)->get();
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

class Checker {
public:
  Checker(mlir::ModuleOp module, const SafetyOptions &options)
      : module(module), ranges(module), options(options) {}

  std::vector<SafetyFinding> run() {
    module.walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation *op) {
      if (isChecked(op) && ranges.mayRun(op) && isLive(op))
        check(op);
    });
    return std::move(found);
  }

private:
  static bool isChecked(mlir::Operation *op) {
    return llvm::isa<mlir::tensor::ExtractOp, mlir::tensor::InsertOp,
                     mlir::tensor::ExtractSliceOp, mlir::tensor::InsertSliceOp,
                     mlir::memref::LoadOp, mlir::memref::StoreOp,
                     mlir::memref::SubViewOp, mlir::scf::ForOp,
                     mlir::CallOpInterface, mlir::DestinationStyleOpInterface>(
        op);
  }

  /// Whether what `op` does may be seen: it has side effects, or a live op
  /// uses a result (through a terminator: the op it ends). An op nothing
  /// live uses and without side effects (a read whose value reaches no
  /// output) is removed by canonicalize before anything runs, and a later
  /// edit that uses it makes it live, and checked, then.
  bool isLive(mlir::Operation *op) {
    if (!op || llvm::isa<mlir::ModuleOp, mlir::FunctionOpInterface>(op))
      return true;
    auto [known, inserted] = live.try_emplace(op, true);
    if (!inserted)
      return known->second;
    bool result = false;
    if (op->hasTrait<mlir::OpTrait::IsTerminator>())
      result = isLive(op->getParentOp());
    else if (!mlir::wouldOpBeTriviallyDead(op))
      result = true;
    else
      for (mlir::Operation *user : op->getUsers())
        if ((result = isLive(user)))
          break;
    live[op] = result;
    return result;
  }

  void check(mlir::Operation *op) {
    if (auto extract = llvm::dyn_cast<mlir::tensor::ExtractOp>(op))
      checkIndices(op, extract.getTensor().getType(), extract.getIndices());
    else if (auto load = llvm::dyn_cast<mlir::memref::LoadOp>(op))
      checkIndices(op, load.getMemRefType(), load.getIndices());
    else if (auto store = llvm::dyn_cast<mlir::memref::StoreOp>(op))
      checkIndices(op, store.getMemRefType(), store.getIndices());
    else if (auto slice = llvm::dyn_cast<mlir::tensor::ExtractSliceOp>(op))
      checkSlice(slice, slice.getSourceType());
    else if (auto slice = llvm::dyn_cast<mlir::tensor::InsertSliceOp>(op))
      checkSlice(slice, slice.getDestType());
    else if (auto view = llvm::dyn_cast<mlir::memref::SubViewOp>(op))
      checkSlice(view, view.getSourceType());
    else if (auto loop = llvm::dyn_cast<mlir::scf::ForOp>(op))
      checkLoop(loop);
    else if (auto call = llvm::dyn_cast<mlir::CallOpInterface>(op))
      checkCall(call);
    if (auto insert = llvm::dyn_cast<mlir::tensor::InsertOp>(op))
      checkIndices(op, insert.getDest().getType(), insert.getIndices());
    if (auto dps = llvm::dyn_cast<mlir::DestinationStyleOpInterface>(op))
      checkWrites(dps);
  }

  void add(mlir::Operation *op, Kind kind, Level level, std::string message) {
    found.push_back({op, kind, level, std::move(message)});
  }

  /// Unproven when any of `values` comes from a dynamic size or a caller's
  /// scalar (or, with `dataToo`, from data read at run time); Unsafe
  /// otherwise.
  Level levelOf(llvm::ArrayRef<mlir::Value> values,
                bool dataToo = false) const {
    for (mlir::Value value : values)
      if (value && ranges.dependsOnDynamic(value, dataToo))
        return Level::Unproven;
    return Level::Unsafe;
  }

  void checkIndices(mlir::Operation *op, mlir::ShapedType type,
                    mlir::ValueRange indices) {
    std::string dynamicIndex;
    for (auto [position, index] : llvm::enumerate(indices)) {
      IntRange range = ranges.of(index);
      int64_t size = type.getDimSize(position);
      bool dynamic = mlir::ShapedType::isDynamic(size);
      if (range.min >= 0 && (dynamic || range.max < size)) {
        if (dynamic && dynamicIndex.empty())
          dynamicIndex = absl::StrCat("index ", position, " is in ",
                                      show(range), "; dimension ", position,
                                      " of ", show(type), " is dynamic");
        continue;
      }
      return add(op, Kind::Access, levelOf(index),
                 absl::StrCat("index ", position, " is in ", show(range),
                              ", outside [0, ", dynamic ? "?" : bound(size - 1),
                              "] of ", show(type), dataNote(index)));
    }
    if (!dynamicIndex.empty())
      add(op, Kind::Access, Level::Unproven, std::move(dynamicIndex));
  }

  void checkSlice(mlir::OffsetSizeAndStrideOpInterface slice,
                  mlir::ShapedType type) {
    auto offsets = slice.getMixedOffsets(), sizes = slice.getMixedSizes(),
         strides = slice.getMixedStrides();
    for (int64_t dim = 0; dim < type.getRank(); ++dim) {
      IntRange offset = ranges.of(offsets[dim]), size = ranges.of(sizes[dim]),
               stride = ranges.of(strides[dim]);
      int64_t extent = type.getDimSize(dim);
      bool dynamic = mlir::ShapedType::isDynamic(extent);
      __int128 last =
          __int128(offset.max) +
          (__int128(size.max) - 1) * std::max<int64_t>(stride.max, 0);
      bool inBounds = offset.min >= 0 && size.min >= 0 && stride.min >= 0 &&
                      (size.max <= 0 || dynamic || last < extent);
      if (inBounds && !dynamic)
        continue;
      if (inBounds && size.max <= 0)
        continue;
      llvm::SmallVector<mlir::Value> used;
      for (mlir::OpFoldResult part : {offsets[dim], sizes[dim], strides[dim]})
        used.push_back(llvm::dyn_cast_if_present<mlir::Value>(part));
      std::string why = dynamic          ? "a dynamic dimension"
                        : offset.min < 0 ? "it may start before index 0"
                        : size.min < 0   ? "the size may be negative"
                        : stride.min < 0 ? "the stride may be negative"
                                         : absl::StrCat("it may reach index ",
                                                        bound(saturate(last)),
                                                        ", past its end");
      return add(slice, Kind::Access,
                 inBounds ? Level::Unproven : levelOf(used),
                 absl::StrCat("dimension ", dim, " takes offset ", show(offset),
                              ", size ", show(size), ", stride ", show(stride),
                              " of ", show(type), ": ", why, dataNote(used)));
    }
  }

  void checkLoop(mlir::scf::ForOp loop) {
    IntRange lower = ranges.of(loop.getLowerBound()),
             upper = ranges.of(loop.getUpperBound()),
             step = ranges.of(loop.getStep());
    if (maxTripCount(lower, upper, IntRange::exactly(1)) == 0)
      return;
    llvm::SmallVector<mlir::Value> bounds = {
        loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
    if (step.min < 1)
      return add(loop, Kind::LoopStep, levelOf(loop.getStep(), true),
                 absl::StrCat("the step is in ", show(step),
                              ": a loop's step must be positive"));
    __int128 nest = maxTripCount(lower, upper, step);
    for (auto outer = loop->getParentOfType<mlir::scf::ForOp>(); outer;
         outer = outer->getParentOfType<mlir::scf::ForOp>()) {
      nest *= maxTripCount(ranges.of(outer.getLowerBound()),
                           ranges.of(outer.getUpperBound()),
                           ranges.of(outer.getStep()));
      nest = std::min<__int128>(nest, std::numeric_limits<int64_t>::max());
      bounds.append({outer.getLowerBound(), outer.getUpperBound()});
    }
    if (nest > options.maxLoopIterations)
      add(loop, Kind::LoopTrips, levelOf(bounds, true),
          absl::StrCat("bounds ", show(lower), " to ", show(upper), " step ",
                       show(step), " let its body run up to ",
                       bound(int64_t(nest)),
                       " times (with the loops around it), more than the "
                       "limit of ",
                       options.maxLoopIterations));
  }

  void checkCall(mlir::CallOpInterface call) {
    auto callee = llvm::dyn_cast_if_present<mlir::FunctionOpInterface>(
        call.resolveCallable());
    if (options.allowExternalCalls || !callee || !callee.isExternal())
      return;
    add(call, Kind::ExternalCall, Level::Unsafe,
        absl::StrCat("calls @", callee.getName().str(),
                     ", a function declared without a body (code outside "
                     "the module; allow with --allow-external-calls)"));
  }

  void checkWrites(mlir::DestinationStyleOpInterface op) {
    for (mlir::OpOperand &init : op.getDpsInitsMutable()) {
      std::optional<mlir::BlockArgument> arg = argumentBehind(init.get());
      if (!arg)
        continue;
      auto function =
          llvm::cast<mlir::FunctionOpInterface>(arg->getOwner()->getParentOp());
      return add(op, Kind::ArgumentWrite, Level::Unsafe,
                 absl::StrCat("operand ", init.getOperandNumber(),
                              " writes into argument ", arg->getArgNumber(),
                              " of @", function.getName().str(),
                              " (the caller's tensor)"));
    }
  }

  mlir::ModuleOp module;
  ValueRanges ranges;
  const SafetyOptions &options;
  std::vector<SafetyFinding> found;
  llvm::DenseMap<mlir::Operation *, bool> live;
};

} // namespace

std::vector<SafetyFinding> findSafetyProblems(mlir::ModuleOp module,
                                              const SafetyOptions &options) {
  return Checker(module, options).run();
}

} // namespace gevo
