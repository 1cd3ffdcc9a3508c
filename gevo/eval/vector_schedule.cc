//===- vector_schedule.cc - Tile and vectorise linalg ops for the host CPU ===//

#include "gevo/eval/vector_schedule.h"

#include <memory>

#include "absl/strings/substitute.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/IR/TransformOps.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"

namespace gevo {
namespace {

// Matchers that pick linalg ops of one rank (foreach_match collects them),
// then the two stages. Every step is its own sequence with failures
// suppressed, and finds its ops again by name: a step that fails for one op
// does not stop the others. $0-$2 cache tile, $3-$4 register tile, $5 k
// step, $6 elementwise width.
constexpr char kScheduleTemplate[] = R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @is_rank1(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %rank = transform.match.structured %op
        : (!transform.any_op) -> !transform.param<i64> {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s
          : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.yield %r : !transform.param<i64>
    }
    %want = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %rank, %want : !transform.param<i64>
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @is_rank2(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %rank = transform.match.structured %op
        : (!transform.any_op) -> !transform.param<i64> {
    ^bb0(%s: !transform.any_op):
      %r = transform.match.structured.rank %s
          : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.yield %r : !transform.param<i64>
    }
    %want = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %rank, %want : !transform.param<i64>
    transform.yield %op : !transform.any_op
  }
  transform.named_sequence @pick(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    transform.yield %op : !transform.any_op
  }

  transform.named_sequence @gevo_tensor_stage(
      %root: !transform.any_op {transform.readonly}) {
    // Matmul cache tiles; k outermost.
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %mm = transform.structured.match ops{["linalg.matmul"]} in %m
          : (!transform.any_op) -> !transform.any_op
      %t, %l:3 = transform.structured.tile_using_for %mm
          tile_sizes [$0, $1, $2] interchange = [2, 0, 1]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                    !transform.any_op, !transform.any_op)
    }
    // Tiles larger than the matrix become static again.
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %f = transform.structured.match ops{["func.func"]} in %m
          : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %f {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
    }
    // Register tiles: one masked $3x$4x$5 vector.contract per step, its
    // accumulator carried through the k loop.
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %mm = transform.structured.match ops{["linalg.matmul"]} in %m
          : (!transform.any_op) -> !transform.any_op
      %t, %l:2 = transform.structured.tile_using_for %mm
          tile_sizes [$3, $4, 0]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                    !transform.any_op)
      %tk, %lk = transform.structured.tile_using_for %t tile_sizes [0, 0, $5]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.structured.vectorize %tk vector_sizes [$3, $4, $5]
          {create_named_contraction} : !transform.any_op
      transform.loop.hoist_loop_invariant_subsets %lk : !transform.any_op
    }
    // Every other linalg op of rank 2 or 1: $6 lanes along the last loop.
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %f = transform.structured.match ops{["func.func"]} in %m
          : (!transform.any_op) -> !transform.any_op
      %f2, %ops = transform.foreach_match in %f @is_rank2 -> @pick
          {flatten_results} : (!transform.any_op)
          -> (!transform.any_op, !transform.any_op)
      %t, %l:2 = transform.structured.tile_using_for %ops tile_sizes [1, $6]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                    !transform.any_op)
      transform.structured.vectorize %t vector_sizes [1, $6]
          : !transform.any_op
    }
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %f = transform.structured.match ops{["func.func"]} in %m
          : (!transform.any_op) -> !transform.any_op
      %f2, %ops = transform.foreach_match in %f @is_rank1 -> @pick
          {flatten_results} : (!transform.any_op)
          -> (!transform.any_op, !transform.any_op)
      %t, %l = transform.structured.tile_using_for %ops tile_sizes [$6]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.structured.vectorize %t vector_sizes [$6] : !transform.any_op
    }
    // Masks go before any canonicalisation folds constants into them.
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %f = transform.structured.match ops{["func.func"]} in %m
          : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %f {
        transform.apply_patterns.vector.lower_masked_transfers
        transform.apply_patterns.vector.lower_contraction
            lowering_strategy = "outerproduct"
        transform.apply_patterns.vector.lower_outerproduct
      } : !transform.any_op
      transform.apply_patterns to %f {
        transform.apply_patterns.canonicalization
      } : !transform.any_op
    }
    transform.yield
  }

  transform.named_sequence @gevo_vector_stage(
      %root: !transform.any_op {transform.readonly}) {
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %f = transform.structured.match ops{["func.func"]} in %m
          : (!transform.any_op) -> !transform.any_op
      %hoisted = transform.structured.hoist_redundant_vector_transfers %f
          : (!transform.any_op) -> !transform.any_op
    }
    transform.sequence %root : !transform.any_op failures(suppress) {
    ^bb0(%m: !transform.any_op):
      %f = transform.structured.match ops{["func.func"]} in %m
          : (!transform.any_op) -> !transform.any_op
      transform.apply_patterns to %f {
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
}
)mlir";

/// Applies one named sequence of the schedule to the module. The schedule
/// is parsed once per pass instance and shared by its clones.
class ScheduleStagePass
    : public mlir::PassWrapper<ScheduleStagePass,
                               mlir::OperationPass<mlir::ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ScheduleStagePass)

  ScheduleStagePass(llvm::StringRef argument, llvm::StringRef description,
                    llvm::StringRef entry)
      : argument(argument), description(description), entry(entry) {}

  llvm::StringRef getArgument() const override { return argument; }
  llvm::StringRef getDescription() const override { return description; }
  llvm::StringRef getName() const override { return argument; }

  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::transform::TransformDialect>();
  }

  mlir::LogicalResult initialize(mlir::MLIRContext *context) override {
    if (schedule && schedule->get()->getContext() == context)
      return mlir::success();
    auto parsed = std::make_shared<mlir::OwningOpRef<mlir::ModuleOp>>(
        mlir::parseSourceString<mlir::ModuleOp>(vectorScheduleText(),
                                                mlir::ParserConfig(context),
                                                "gevo-vector-schedule"));
    if (!*parsed)
      return mlir::failure();
    schedule = std::move(parsed);
    return mlir::success();
  }

  void runOnOperation() override {
    mlir::ModuleOp scheduleModule = schedule->get();
    auto sequence =
        scheduleModule.lookupSymbol<mlir::transform::NamedSequenceOp>(entry);
    if (!sequence) {
      getOperation().emitError("the vector schedule has no @") << entry;
      return signalPassFailure();
    }
    mlir::transform::TransformOptions options;
    options.enableExpensiveChecks(false);
    if (mlir::failed(mlir::transform::applyTransformNamedSequence(
            getOperation(), sequence, scheduleModule, options)))
      signalPassFailure();
  }

private:
  std::string argument, description, entry;
  std::shared_ptr<mlir::OwningOpRef<mlir::ModuleOp>> schedule;
};

} // namespace

std::string vectorScheduleText(const VectorScheduleOptions &options) {
  return absl::Substitute(kScheduleTemplate, options.cacheTile[0],
                          options.cacheTile[1], options.cacheTile[2],
                          options.registerTile[0], options.registerTile[1],
                          options.kStep, options.elementwiseWidth);
}

void registerVectorSchedulePasses() {
  static const bool registered = [] {
    mlir::PassRegistration<ScheduleStagePass>([] {
      return std::make_unique<ScheduleStagePass>(
          "gevo-vectorize",
          "Tile and vectorise linalg ops on tensors (gevo-ml's schedule)",
          "gevo_tensor_stage");
    });
    mlir::PassRegistration<ScheduleStagePass>([] {
      return std::make_unique<ScheduleStagePass>(
          "gevo-lower-vectors",
          "Hoist and lower vector ops after bufferisation (gevo-ml's "
          "schedule)",
          "gevo_vector_stage");
    });
    return true;
  }();
  (void)registered;
}

} // namespace gevo
