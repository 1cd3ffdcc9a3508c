//===- repair_syntax.cc - A rewire's repair steps as patch text ----------===//

#include "replay/repair_syntax.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/support/status_macros.h"
#include "replay/edit_syntax.h"

namespace gevo {
namespace {

using Kind = RepairStep::Kind;

std::string shapeText(const std::vector<int64_t> &shape) {
  return shape.empty() ? "scalar" : absl::StrJoin(shape, "x");
}

bool allEqual(const std::vector<int64_t> &values, int64_t value) {
  return std::all_of(values.begin(), values.end(),
                     [&](int64_t v) { return v == value; });
}

std::string stepText(const RepairStep &step) {
  switch (step.kind) {
  case Kind::Cast:
    return absl::StrCat("cast(", step.type, ")");
  case Kind::Drop:
    return absl::StrCat("drop(", step.count, ")");
  case Kind::Crop: {
    std::string text = absl::StrCat("crop(", shapeText(step.shape));
    if (!allEqual(step.offsets, 0))
      absl::StrAppend(&text, " at ", shapeText(step.offsets));
    if (!allEqual(step.strides, 1))
      absl::StrAppend(&text, " step ", shapeText(step.strides));
    return text + ")";
  }
  case Kind::Pad:
    return absl::StrCat("pad(", shapeText(step.shape), ")");
  case Kind::Broadcast:
    return absl::StrCat("bcast(", shapeText(step.shape), ")");
  case Kind::Splat:
    return "splat";
  case Kind::Extract:
    return "extract";
  }
  return "?";
}

} // namespace

std::string printRepair(const Repair &repair) {
  std::string text;
  for (const RepairStep &step : repair)
    absl::StrAppend(&text, text.empty() ? "" : ",", stepText(step));
  return text;
}

absl::StatusOr<std::vector<int64_t>> LineParser::dims() {
  std::vector<int64_t> values;
  if (consume("scalar"))
    return values;
  do {
    GEVO_ASSIGN_OR_RETURN(int value, integer());
    values.push_back(value);
  } while (consume("x"));
  return values;
}

absl::StatusOr<RepairStep> LineParser::repairStep() {
  RepairStep step;
  skipSpaces();
  if (consume("splat")) {
    step.kind = Kind::Splat;
    return step;
  }
  if (consume("extract")) {
    step.kind = Kind::Extract;
    return step;
  }
  if (consume("cast(")) {
    step.kind = Kind::Cast;
    size_t at = (skipSpaces(), pos);
    step.type = word();
    if (step.type.empty()) {
      pos = at;
      return error("an element type such as f32");
    }
  } else if (consume("drop(")) {
    step.kind = Kind::Drop;
    size_t at = (skipSpaces(), pos);
    GEVO_ASSIGN_OR_RETURN(int count, integer());
    if (count < 1) {
      pos = at;
      return error("at least one dim to drop");
    }
    step.count = count;
  } else if (consume("pad(")) {
    step.kind = Kind::Pad;
    GEVO_ASSIGN_OR_RETURN(step.shape, dims());
  } else if (consume("bcast(")) {
    step.kind = Kind::Broadcast;
    GEVO_ASSIGN_OR_RETURN(step.shape, dims());
  } else if (consume("crop(")) {
    GEVO_RETURN_IF_ERROR(cropBody(step));
  } else {
    return error("a repair step (cast, drop, crop, pad, bcast, splat, "
                 "extract)");
  }
  GEVO_RETURN_IF_ERROR(expect(")"));
  return step;
}

absl::Status LineParser::cropBody(RepairStep &step) {
  size_t at = (skipSpaces(), pos);
  GEVO_ASSIGN_OR_RETURN(std::vector<int64_t> shape, dims());
  if (shape.empty() ||
      std::find(shape.begin(), shape.end(), 0) != shape.end()) {
    pos = at;
    return error("a crop that keeps at least one index per dim");
  }
  step = RepairStep::prefixCrop(shape);
  auto sameRank =
      [&](const char *what) -> absl::StatusOr<std::vector<int64_t>> {
    size_t start = (skipSpaces(), pos);
    GEVO_ASSIGN_OR_RETURN(std::vector<int64_t> values, dims());
    if (values.size() != shape.size()) {
      pos = start;
      return error(absl::StrCat(shape.size(), " ", what, " (one per dim)"));
    }
    return values;
  };
  if (consume("at")) {
    GEVO_ASSIGN_OR_RETURN(step.offsets, sameRank("offsets"));
  }
  if (consume("step")) {
    size_t start = (skipSpaces(), pos);
    GEVO_ASSIGN_OR_RETURN(step.strides, sameRank("strides"));
    if (std::find(step.strides.begin(), step.strides.end(), 0) !=
        step.strides.end()) {
      pos = start;
      return error("strides of at least 1");
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<Repair> LineParser::repair() {
  Repair steps;
  do {
    GEVO_ASSIGN_OR_RETURN(RepairStep step, repairStep());
    steps.push_back(std::move(step));
  } while (consume(","));
  return steps;
}

} // namespace gevo
