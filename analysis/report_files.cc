//===- report_files.cc - The report's three files, each written whole -----===//

#include <cstdio>
#include <fstream>

#include "analysis/analyze.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"

namespace gevo {

absl::Status writeReport(const AnalysisReport &report, const std::string &dir) {
  GEVO_RETURN_IF_ERROR(makeDirectory(dir));
  for (auto [name, text] : {std::pair{"report.html", toHtml(report)},
                            std::pair{"report.md", toMarkdown(report)},
                            std::pair{"report.json", toJson(report)}}) {
    // Written whole then renamed: a reader (or a kill) never sees half.
    GEVO_RETURN_IF_ERROR(writeOutput(dir + "/" + name, text));
  }
  return absl::OkStatus();
}

} // namespace gevo
