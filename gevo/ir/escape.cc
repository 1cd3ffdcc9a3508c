//===- escape.cc - User text made safe to echo in a one-line message ------===//

#include "gevo/ir/escape.h"

#include "absl/strings/str_format.h"

namespace gevo {
namespace {

/// Length of the valid UTF-8 sequence of two or more bytes at `i`, or 0.
size_t utf8Length(absl::string_view text, size_t i) {
  unsigned char lead = static_cast<unsigned char>(text[i]);
  size_t length = lead >= 0xf0 && lead <= 0xf4   ? 4
                  : lead >= 0xe0 && lead <= 0xef ? 3
                  : lead >= 0xc2 && lead <= 0xdf ? 2
                                                 : 0;
  if (length == 0 || i + length > text.size())
    return 0;
  for (size_t k = 1; k < length; ++k)
    if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80)
      return 0;
  // C1 controls (U+0080..U+009F) are encoded as c2 80..c2 9f.
  if (lead == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0)
    return 0;
  return length;
}

} // namespace

std::string escapeForMessage(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
      ++i;
      continue;
    }
    if (size_t length = c >= 0x80 ? utf8Length(text, i) : 0) {
      out.append(text.data() + i, length);
      i += length;
      continue;
    }
    out += absl::StrFormat("\\x%02x", c);
    ++i;
  }
  return out;
}

} // namespace gevo
