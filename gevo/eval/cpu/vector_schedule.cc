//===- vector_schedule.cc - Tile and vectorise linalg ops for the host CPU ===//

#include "gevo/eval/cpu/vector_schedule.h"

#include <map>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gevo/eval/cpu/outline_kernels.h"
#include "gevo/eval/cpu/tile_plan.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace gevo {
namespace {

// After bufferisation: keep matmul accumulators in registers across the k
// loop, then lower what is left of the vector ops to 1-D loads, stores and
// arithmetic. Each step is its own sequence with failures suppressed.
constexpr char kVectorStage[] = R"mlir(
  transform.named_sequence @gevo_vector_stage(
      %root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %f = transform.structured.match ops{["func.func"]} in %m
          : (!transform.any_op) -> !transform.any_op
      // Hoisting needs transfers on the buffer itself (not a subview), and
      // indices defined outside the loop, once. One function at a time.
      transform.foreach %f : !transform.any_op {
      ^bb1(%fn: !transform.any_op):
        transform.apply_patterns to %fn {
          transform.apply_patterns.memref.fold_memref_alias_ops
        } : !transform.any_op
        %loops = transform.structured.match ops{["scf.for"]} in %fn
            : (!transform.any_op) -> !transform.any_op
        transform.apply_licm to %loops : !transform.any_op
        transform.apply_cse to %fn : !transform.any_op
        %hoisted = transform.structured.hoist_redundant_vector_transfers %fn
            : (!transform.any_op) -> !transform.any_op
      }
    }
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %f = transform.structured.match ops{["func.func"]} in %m
          : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %f {
        transform.apply_patterns.vector.lower_contraction
            lowering_strategy = "outerproduct"
        transform.apply_patterns.vector.lower_outerproduct
        transform.apply_patterns.vector.lower_masks
        transform.apply_patterns.vector.transfer_permutation_patterns
        transform.apply_patterns.vector.lower_multi_reduction
            lowering_strategy = "innerparallel"
        transform.apply_patterns.vector.transfer_to_scf
            max_transfer_rank = 1 full_unroll = true
        transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
        transform.apply_patterns.vector.lower_shape_cast
        transform.apply_patterns.vector.lower_transpose
            lowering_strategy = "shuffle_1d"
        transform.apply_patterns.vector.lower_broadcast
      } : !transform.any_op
    }
    transform.yield
  }
)mlir";

/// A transform library holding `sequences`.
std::string library(const std::string &sequences) {
  return "module attributes {transform.with_named_sequence} {\n" + sequences +
         "}\n";
}

/// Parses transform modules and keeps them for the context's lifetime
/// (the tensor stage differs per module only in its tile groups, and a
/// search sees the same few again and again).
class ScheduleCache {
public:
  mlir::ModuleOp get(mlir::MLIRContext *context, const std::string &text) {
    auto found = parsed.find(text);
    if (found != parsed.end())
      return found->second.get();
    if (parsed.size() >= 64)
      parsed.clear();
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(
            text, mlir::ParserConfig(context), "gevo-vector-schedule");
    if (!module)
      return nullptr;
    mlir::ModuleOp result = *module;
    parsed.emplace(text, std::move(module));
    return result;
  }

private:
  std::map<std::string, mlir::OwningOpRef<mlir::ModuleOp>> parsed;
};

/// Applies `entry` of `schedule` to `module`.
mlir::LogicalResult applyStage(mlir::ModuleOp module, mlir::ModuleOp schedule,
                               llvm::StringRef entry) {
  if (!schedule)
    return module.emitError("the vector schedule does not parse");
  auto sequence =
      schedule.lookupSymbol<mlir::transform::NamedSequenceOp>(entry);
  if (!sequence)
    return module.emitError("the vector schedule has no @") << entry;
  mlir::transform::TransformOptions options;
  options.enableExpensiveChecks(false);
  return mlir::transform::applyTransformNamedSequence(module, sequence,
                                                      schedule, options);
}

/// gevo-vectorize (tensor stage, planned per module) or gevo-lower-vectors
/// (vector stage, fixed).
class ScheduleStagePass
    : public mlir::PassWrapper<ScheduleStagePass,
                               mlir::OperationPass<mlir::ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ScheduleStagePass)

  explicit ScheduleStagePass(bool tensorStage) : tensorStage(tensorStage) {}
  ScheduleStagePass(const ScheduleStagePass &other)
      : PassWrapper(other), tensorStage(other.tensorStage), cache(other.cache),
        canonical(other.canonical) {}

  llvm::StringRef getArgument() const override {
    return tensorStage ? "gevo-vectorize" : "gevo-lower-vectors";
  }
  llvm::StringRef getDescription() const override {
    return tensorStage
               ? "Tile and vectorise linalg ops (gevo-ml)"
               : "Hoist and lower vector ops after bufferisation (gevo-ml)";
  }
  llvm::StringRef getName() const override { return getArgument(); }

  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::transform::TransformDialect>();
  }

  /// Collects the canonicalisation patterns once per pass manager (the
  /// parent of a search's children does it for all of them): collecting
  /// them costs ~10 ms, more than vectorising the one kernel a variant
  /// changed.
  mlir::LogicalResult initialize(mlir::MLIRContext *context) override {
    if (!tensorStage)
      return mlir::success();
    mlir::RewritePatternSet patterns(context);
    for (mlir::Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(patterns);
    for (mlir::RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(patterns, context);
    canonical =
        std::make_shared<mlir::FrozenRewritePatternSet>(std::move(patterns));
    return mlir::success();
  }

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    mlir::MLIRContext *context = module.getContext();
    if (!tensorStage) {
      // A variant whose kernels were all compiled before has no vectors
      // left to lower; the schedule would still walk it.
      bool anyVector = false;
      module.walk([&](mlir::Operation *op) {
        anyVector = op->getName().getDialectNamespace() == "vector";
        return anyVector ? mlir::WalkResult::interrupt()
                         : mlir::WalkResult::advance();
      });
      if (!anyVector)
        return;
      if (mlir::failed(applyStage(module,
                                  cache->get(context, library(kVectorStage)),
                                  "gevo_vector_stage")))
        signalPassFailure();
      return;
    }
    std::vector<TileGroup> groups = planTiles(module);
    if (groups.empty())
      return;
    // The functions holding planned ops: those the schedule rewrites.
    llvm::SetVector<mlir::Operation *> functions;
    module.walk([&](mlir::Operation *op) {
      if (op->hasAttr(kTileGroupAttr))
        if (auto function = op->getParentOfType<mlir::FunctionOpInterface>())
          functions.insert(function);
    });
    auto canonicalise = [&] {
      for (mlir::Operation *function : functions)
        (void)mlir::applyPatternsGreedily(function, *canonical);
    };
    mlir::ModuleOp schedule =
        cache->get(context, library(tensorStageText(groups, !canonical)));
    mlir::LogicalResult applied = mlir::success();
    if (schedule && schedule.lookupSymbol(kCacheStage)) {
      applied = applyStage(module, schedule, kCacheStage);
      if (mlir::succeeded(applied))
        canonicalise();
    }
    if (mlir::succeeded(applied))
      applied = applyStage(module, schedule, "gevo_tensor_stage");
    clearTileTags(module);
    if (mlir::failed(applied))
      return signalPassFailure();
    if (canonical)
      canonicalise();
  }

private:
  bool tensorStage;
  std::shared_ptr<ScheduleCache> cache = std::make_shared<ScheduleCache>();
  std::shared_ptr<mlir::FrozenRewritePatternSet> canonical;
};

} // namespace

std::string standaloneSchedule(mlir::ModuleOp module) {
  return library(tensorStageText(planTiles(module)) + kVectorStage);
}

std::string standalonePipeline(const std::string &passes,
                               const std::string &schedulePath) {
  // Outlining only lets a process reuse kernels it compiled; the tools
  // compile each module once.
  std::string text = absl::StrReplaceAll(
      passes, {{std::string(kOutlineKernelsPass) + ", ", ""}});
  std::string out = absl::StrCat(
      "transform-preload-library{transform-library-paths=", schedulePath, "}, ",
      text);
  out = absl::StrReplaceAll(
      out, {{"gevo-vectorize",
             "transform-interpreter{entry-point=gevo_tensor_stage}"},
            {"gevo-lower-vectors",
             "transform-interpreter{entry-point=gevo_vector_stage}"}});
  return out;
}

void registerVectorSchedulePasses() {
  static const bool registered = [] {
    mlir::PassRegistration<ScheduleStagePass>(
        [] { return std::make_unique<ScheduleStagePass>(true); });
    mlir::PassRegistration<ScheduleStagePass>(
        [] { return std::make_unique<ScheduleStagePass>(false); });
    return true;
  }();
  (void)registered;
}

} // namespace gevo
