//===- text_hash.h - A short, stable name for a piece of text -------------===//
//
// FNV-1a over the bytes, 64 bits, as 16 lower-case hex digits: what names a
// compiled kernel after the text it was compiled from (equal text, equal
// name, in every process and run).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_TEXT_HASH_H
#define GEVO_SUPPORT_TEXT_HASH_H

#include <cstdint>
#include <string>
#include <string_view>

namespace gevo {

inline std::string hashText(std::string_view text) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4)
    out[i] = kDigits[hash & 15];
  return out;
}

} // namespace gevo

#endif // GEVO_SUPPORT_TEXT_HASH_H
