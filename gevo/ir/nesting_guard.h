//===- nesting_guard.h - Refuse MLIR text nested too deep to parse --------===//
//
// MLIR's parser (and the printer, verifier and walks after it) recurse once
// per level of nesting, so a module nested a few thousand levels deep (e.g.
// `module {` 4 000 times, or deep region or bracket nesting) overflows the
// stack and dies with SIGSEGV. A cheap scan of the text bounds the nesting
// before parsing, so such input is an error naming the place instead.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_IR_NESTING_GUARD_H
#define GEVO_IR_NESTING_GUARD_H

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace gevo {

/// The deepest nesting of brackets ({, [, ( and <, together) that MLIR text
/// may have. Real models stay far below it; stock mlir-opt dies between 2 000
/// and 4 000 levels of region nesting.
constexpr int kMaxMlirNesting = 1000;

/// Fails with `bufferName:line:col: error: ...` at the first bracket that
/// nests deeper than `maxDepth`. String literals and `//` comments are
/// skipped; `->` is not a closing bracket. MLIR bytecode is not scanned.
absl::Status checkNesting(absl::string_view text, const std::string &bufferName,
                          int maxDepth = kMaxMlirNesting);

} // namespace gevo

#endif // GEVO_IR_NESTING_GUARD_H
