//===- json_position.h - Where a JSON path's value sits in the text -------===//
//
// llvm::json keeps no source positions, so tools that report a wrong field of a
// well-formed JSON file find its line and column here, by path ($.a.b[2].c).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_JSON_POSITION_H
#define GEVO_SUPPORT_JSON_POSITION_H

#include <optional>
#include <string>

namespace gevo {

struct TextPosition {
  int line = 1;   // 1-based.
  int column = 1; // 1-based, in bytes.
};

/// The position of the member or element `path` names in the JSON `text`
/// (`$` is the whole document, `.key` a member, `[i]` an element): the key's
/// position for a member, the value's for an element. When the path goes
/// further than the text, the deepest part that exists; nullopt when the text
/// is not a JSON document.
std::optional<TextPosition> findJsonPath(const std::string &text,
                                         const std::string &path);

} // namespace gevo

#endif // GEVO_SUPPORT_JSON_POSITION_H
