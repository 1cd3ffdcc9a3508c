//===- report_escape.cc - Text made safe for the HTML report --------------===//

#include "analysis/report_escape.h"

#include "absl/strings/str_replace.h"

namespace gevo {

std::string escapeHtml(const std::string &text) {
  return absl::StrReplaceAll(
      text, {{"&", "&amp;"}, {"<", "&lt;"}, {">", "&gt;"}, {"\"", "&quot;"}});
}

} // namespace gevo
