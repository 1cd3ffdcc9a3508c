//===- tile_plan.h - Tile sizes per linalg op, and the schedule for them --===//
//
// Chooses how gevo-vectorize tiles each linalg op of a module from its static
// shape, so that tiles divide the iteration space where they can (no masks,
// no partial tiles) and masked vectors are left for odd or dynamic shapes:
// a matmul gets a cache tile and a register tile (at most 6x16, k step at
// most 4), any other linalg op of rank 1 or 2 a row of at most 32 lanes.
// Ops planned alike form a group; each op is tagged with its group, and the
// transform schedule gets one sequence per group that finds them by the tag.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_TILE_PLAN_H
#define GEVO_EVAL_TILE_PLAN_H

#include <cstdint>
#include <string>
#include <vector>

#include "mlir/IR/BuiltinOps.h"

namespace gevo {

/// The discardable attribute that names an op's group while the schedule
/// runs.
inline constexpr char kTileGroupAttr[] = "gevo_tile_group";

struct TileGroup {
  bool matmul = false;
  /// Per loop; 0 leaves the loop untiled. Matmul only.
  std::vector<int64_t> cacheTile;
  /// Per loop; 0 leaves the loop untiled at this level.
  std::vector<int64_t> registerTile;
  /// The vector shape of one tile (the register tile, or the loop's whole
  /// extent where it is not tiled).
  std::vector<int64_t> vectorShape;
  /// Some tile is partial or dynamic: its vectors are masked.
  bool masked = false;
  bool operator==(const TileGroup &other) const {
    return matmul == other.matmul && cacheTile == other.cacheTile &&
           registerTile == other.registerTile &&
           vectorShape == other.vectorShape && masked == other.masked;
  }
};

/// Plans every linalg op of `module` that the schedule handles, tags it with
/// its group's index, and returns the groups.
std::vector<TileGroup> planTiles(mlir::ModuleOp module);

/// Removes the tags planTiles left (on ops the schedule did not replace).
void clearTileTags(mlir::ModuleOp module);

/// The named sequence @gevo_tensor_stage (transform-dialect text, to go in a
/// module with transform.with_named_sequence) that tiles and vectorises the
/// groups, then lowers masks and, with `canonicalize`, canonicalises (the
/// pass does that itself, with patterns it collected once). Without
/// `canonicalize`, the matmuls' cache tiles, which need a canonicalisation
/// before their register tiles, come first as a sequence of their own,
/// kCacheStage: collecting the canonicalisation patterns inside a schedule
/// costs more than vectorising the kernels a variant changed.
inline constexpr char kCacheStage[] = "gevo_cache_stage";
std::string tensorStageText(const std::vector<TileGroup> &groups,
                            bool canonicalize = true);

} // namespace gevo

#endif // GEVO_EVAL_TILE_PLAN_H
