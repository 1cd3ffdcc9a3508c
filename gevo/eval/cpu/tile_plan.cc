//===- tile_plan.cc - Tile sizes per linalg op, and the schedule for them -===//

#include "gevo/eval/cpu/tile_plan.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace gevo {
namespace {

constexpr int64_t kDynamic = mlir::ShapedType::kDynamic;

/// A register tile for a loop of `extent`: the whole loop when it fits in
/// `largest`, else the largest of `divisors` that divides it, else `largest`
/// (partial tiles, masked).
int64_t registerTileFor(int64_t extent, int64_t largest,
                        std::initializer_list<int64_t> divisors) {
  if (extent != kDynamic && extent <= largest)
    return 0;
  if (extent != kDynamic)
    for (int64_t d : divisors)
      if (extent % d == 0)
        return d;
  return largest;
}

/// A cache tile for a loop of `extent` whose register tile is `reg`: none
/// when the loop fits in `target`, else a multiple of `reg` near `target`
/// that divides the loop if there is one in [target/2, target].
int64_t cacheTileFor(int64_t extent, int64_t reg, int64_t target) {
  if (extent != kDynamic && extent <= target)
    return 0;
  int64_t step = std::max<int64_t>(reg, 1);
  int64_t top = std::max(step, target / step * step);
  if (extent != kDynamic)
    for (int64_t c = top; c >= target / 2 && c > 0; c -= step)
      if (extent % c == 0)
        return c;
  return top;
}

/// Whether tiling a loop of `extent` by `tile` leaves a partial tile.
bool partial(int64_t extent, int64_t tile) {
  return extent == kDynamic || (tile != 0 && extent % tile != 0);
}

TileGroup planMatmul(llvm::ArrayRef<int64_t> extents) {
  TileGroup group;
  group.matmul = true;
  int64_t m = extents[0], n = extents[1], k = extents[2];
  group.registerTile = {registerTileFor(m, 6, {6, 4, 5, 3, 2}),
                        registerTileFor(n, 16, {16, 8}),
                        registerTileFor(k, 4, {4, 3, 2})};
  const int64_t targets[3] = {120, 256, 256};
  for (int i = 0; i < 3; ++i) {
    int64_t reg = group.registerTile[i];
    // A loop the register tile takes whole needs no cache tile either.
    group.cacheTile.push_back(
        reg == 0 ? 0 : cacheTileFor(extents[i], reg, targets[i]));
    group.vectorShape.push_back(reg != 0 ? reg : extents[i]);
    group.masked = group.masked || partial(extents[i], reg) ||
                   partial(extents[i], group.cacheTile[i]);
  }
  return group;
}

TileGroup planElementwise(llvm::ArrayRef<int64_t> extents) {
  TileGroup group;
  size_t last = extents.size() - 1;
  for (size_t i = 0; i < extents.size(); ++i) {
    int64_t tile = i == last ? registerTileFor(extents[i], 32, {32, 16, 8})
                             : (extents[i] == 1 ? 0 : 1);
    group.registerTile.push_back(tile);
    group.vectorShape.push_back(tile != 0 ? tile : extents[i]);
    group.masked = group.masked || partial(extents[i], tile);
  }
  return group;
}

std::string list(const std::vector<int64_t> &values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

/// `%name = transform.structured.tile_using_for %target ...` with as many
/// loop results as non-zero sizes; returns that many (and writes nothing
/// when it is zero).
int64_t appendTiling(std::string &out, const std::string &result,
                     const std::string &loops, const std::string &target,
                     const std::vector<int64_t> &sizes,
                     const std::string &extra) {
  int64_t count = std::count_if(sizes.begin(), sizes.end(),
                                [](int64_t s) { return s != 0; });
  if (count == 0)
    return 0;
  std::string types = "!transform.any_op";
  for (int64_t i = 0; i < count; ++i)
    absl::StrAppend(&types, ", !transform.any_op");
  absl::StrAppend(&out, "      %", result, ", %", loops,
                  count > 1 ? absl::StrCat(":", count) : "",
                  " = transform.structured.tile_using_for %", target,
                  " tile_sizes ", list(sizes), extra,
                  " : (!transform.any_op) -> (", types, ")\n");
  return count;
}

/// The head of named sequence @`name` over the payload root.
std::string openNamedSequence(absl::string_view name) {
  return absl::StrCat("  transform.named_sequence @", name,
                      "(\n      %root: !transform.any_op "
                      "{transform.readonly}) {\n");
}

std::string openSequence() {
  return "    transform.sequence %root : !transform.any_op failures(suppress) "
         "{\n    ^bb0(%m: !transform.any_op):\n";
}

std::string matchGroup(size_t index, const TileGroup &group) {
  return absl::StrCat(
      "      %ops = transform.structured.match ",
      group.matmul ? "ops{[\"linalg.matmul\"]}" : "interface{LinalgOp}",
      " attributes{", kTileGroupAttr, " = ", index,
      " : i64} in %m : (!transform.any_op) -> !transform.any_op\n");
}

} // namespace

std::vector<TileGroup> planTiles(mlir::ModuleOp module) {
  std::vector<TileGroup> groups;
  mlir::Builder builder(module.getContext());
  module.walk([&](mlir::linalg::LinalgOp op) {
    bool onTensors = op.hasPureTensorSemantics() && op->getNumResults() == 1;
    bool onBuffers = op.hasPureBufferSemantics() && op.getNumDpsInits() == 1;
    if (!onTensors && !onBuffers)
      return;
    llvm::SmallVector<int64_t> extents = op.getStaticLoopRanges();
    bool matmul = llvm::isa<mlir::linalg::MatmulOp>(op.getOperation());
    if (!matmul && (extents.empty() || extents.size() > 2))
      return;
    if (matmul && extents.size() != 3)
      return;
    TileGroup group = matmul ? planMatmul(extents) : planElementwise(extents);
    auto found = std::find(groups.begin(), groups.end(), group);
    size_t index = found - groups.begin();
    if (found == groups.end())
      groups.push_back(group);
    op->setAttr(kTileGroupAttr, builder.getI64IntegerAttr(index));
  });
  return groups;
}

void clearTileTags(mlir::ModuleOp module) {
  module.walk([](mlir::Operation *op) { op->removeAttr(kTileGroupAttr); });
}

std::string tensorStageText(const std::vector<TileGroup> &groups,
                            bool canonicalize) {
  std::string out = openNamedSequence("gevo_tensor_stage");
  // Cache tiles, k outermost; then canonicalise so that tiles that cover a
  // whole loop become static again. Without `canonicalize` they are a
  // sequence of their own (kCacheStage), after which the pass canonicalises.
  std::string cacheTiles;
  for (size_t i = 0; i < groups.size(); ++i) {
    if (!groups[i].matmul)
      continue;
    std::string body = matchGroup(i, groups[i]);
    if (!appendTiling(body, "t", "l", "ops", groups[i].cacheTile,
                      " interchange = [2, 0, 1]"))
      continue;
    absl::StrAppend(&cacheTiles, openSequence(), body, "    }\n");
  }
  std::string cacheStage;
  if (!cacheTiles.empty() && !canonicalize)
    cacheStage = absl::StrCat(openNamedSequence(kCacheStage), cacheTiles,
                              "    transform.yield\n  }\n");
  else if (!cacheTiles.empty())
    absl::StrAppend(&out, cacheTiles, openSequence(),
                    "      %f = transform.structured.match "
                    "ops{[\"func.func\"]} in %m : (!transform.any_op) -> "
                    "!transform.any_op\n      transform.apply_patterns to %f "
                    "{\n        transform.apply_patterns.canonicalization\n"
                    "      } : !transform.any_op\n    }\n");
  // Register tiles, vectorised; a matmul steps k in an inner loop whose
  // accumulator is hoisted out of it.
  for (size_t i = 0; i < groups.size(); ++i) {
    const TileGroup &group = groups[i];
    std::string body = matchGroup(i, group);
    std::string tiled = "ops";
    std::vector<int64_t> outer = group.registerTile;
    if (group.matmul)
      outer[2] = 0;
    int64_t loops = appendTiling(body, "t", "l", tiled, outer, "");
    if (loops > 0)
      tiled = "t";
    bool kLoop = group.matmul && group.registerTile[2] != 0;
    if (kLoop) {
      appendTiling(body, "tk", "lk", tiled, {0, 0, group.registerTile[2]}, "");
      tiled = "tk";
    }
    absl::StrAppend(&body, "      transform.structured.vectorize %", tiled,
                    " vector_sizes ", list(group.vectorShape),
                    group.matmul ? " {create_named_contraction}" : "",
                    " : !transform.any_op\n");
    // Masked contractions are lowered before any canonicalisation can fold
    // constants into their masks; the others after bufferisation, where the
    // accumulator is hoisted out of the k loop first.
    if (group.matmul && group.masked && loops > 0)
      absl::StrAppend(&body, "      transform.apply_patterns to %l",
                      loops > 1 ? "#0" : "",
                      " {\n        transform.apply_patterns.vector."
                      "lower_masked_transfers\n        transform.apply_"
                      "patterns.vector.lower_contraction lowering_strategy = "
                      "\"outerproduct\"\n        transform.apply_patterns."
                      "vector.lower_outerproduct\n      } : "
                      "!transform.any_op\n");
    absl::StrAppend(&out, openSequence(), body, "    }\n");
  }
  // Masks go before any canonicalisation folds constants into them.
  absl::StrAppend(
      &out, openSequence(),
      "      %f = transform.structured.match ops{[\"func.func\"]} in %m : "
      "(!transform.any_op) -> !transform.any_op\n"
      "      transform.apply_patterns to %f {\n"
      "        transform.apply_patterns.vector.lower_masked_transfers\n"
      "      } : !transform.any_op\n");
  if (canonicalize)
    absl::StrAppend(&out, "      transform.apply_patterns to %f {\n"
                          "        transform.apply_patterns.canonicalization\n"
                          "      } : !transform.any_op\n");
  absl::StrAppend(&out, "    }\n    transform.yield\n  }\n");
  return cacheStage + out;
}

} // namespace gevo
