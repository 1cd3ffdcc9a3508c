//===- repair_syntax.h - A rewire's repair steps as patch text -----------===//
//
// The text of the typed repair steps (gevo/ir/repair_step.h) after `via` in a
// patch line: `cast(f32),drop(1),crop(16x10 at 0x4 step 2x1),pad(32x10)`.
// LineParser::repair (edit_syntax.h) reads it; replay/FORMAT.md documents it.
//
//===----------------------------------------------------------------------===//
#ifndef REPLAY_REPAIR_SYNTAX_H
#define REPLAY_REPAIR_SYNTAX_H

#include <string>

#include "gevo/ir/repair_step.h"

namespace gevo {

/// The steps joined by commas; a crop names its offsets and strides only
/// where they are not all 0 and all 1.
std::string printRepair(const Repair &repair);

} // namespace gevo

#endif // REPLAY_REPAIR_SYNTAX_H
