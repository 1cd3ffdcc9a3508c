//===- repair_step.h - A rewire's repair as typed steps -------------------===//
//
// Plain data, no MLIR: the conversion steps that turn a value's type into an
// operand's, each with its parameters, in the order they are built. The
// repair planner (repair.h) creates them, apply_edit builds them, and only
// replay/ prints and parses them (replay/FORMAT.md: `cast(f32),crop(4x6)`).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_REPAIR_STEP_H
#define GEVO_IR_REPAIR_STEP_H

#include <cstdint>
#include <string>
#include <vector>

namespace gevo {

struct RepairStep {
  enum class Kind {
    Cast,      // element type to `type`: arith casts
    Drop,      // drop `count` leading dims (index 0 of each)
    Crop,      // keep a `shape` block from `offsets`, every `strides`-th
    Pad,       // grow to `shape` with zeros at the end of each dim
    Broadcast, // add leading dims up to `shape`
    Splat,     // scalar to tensor (the operand's type)
    Extract,   // tensor to scalar: the element at index 0
  };
  Kind kind = Kind::Cast;
  /// Cast: the element type as MLIR spells it ("f32", "i64", "index").
  std::string type;
  /// Drop: how many leading dims go.
  int64_t count = 0;
  /// Crop, Pad, Broadcast: the shape after the step (empty: a scalar).
  std::vector<int64_t> shape;
  /// Crop: where the kept block starts in each dim (as many as `shape`).
  std::vector<int64_t> offsets;
  /// Crop: the distance between kept indices in each dim (at least 1).
  std::vector<int64_t> strides;

  /// A crop that keeps the leading block (offsets 0, strides 1).
  static RepairStep prefixCrop(std::vector<int64_t> shape) {
    RepairStep step;
    step.kind = Kind::Crop;
    step.offsets.assign(shape.size(), 0);
    step.strides.assign(shape.size(), 1);
    step.shape = std::move(shape);
    return step;
  }

  bool operator==(const RepairStep &other) const {
    return kind == other.kind && type == other.type && count == other.count &&
           shape == other.shape && offsets == other.offsets &&
           strides == other.strides;
  }
  bool operator!=(const RepairStep &other) const { return !(*this == other); }
};

/// A whole repair: its steps in order; empty when the types already match.
using Repair = std::vector<RepairStep>;

/// Whether some step of `repair` is of `kind`.
inline bool hasStep(const Repair &repair, RepairStep::Kind kind) {
  for (const RepairStep &step : repair)
    if (step.kind == kind)
      return true;
  return false;
}

} // namespace gevo

#endif // GEVO_IR_REPAIR_STEP_H
