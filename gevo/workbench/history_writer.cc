//===- history_writer.cc - history.csv: one row per measured variant ------===//

#include "gevo/workbench/history_writer.h"

#include "gevo/support/file_io.h"

#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "gevo/support/csv.h"
#include "gevo/support/file_io.h"
#include "gevo/workbench/run_directory.h"

namespace gevo {

std::string kindsOf(const std::vector<Edit> &edits) {
  std::vector<std::string> kinds;
  for (const Edit &edit : edits)
    kinds.push_back(toString(edit.kind));
  return absl::StrJoin(kinds, "+");
}

absl::Status HistoryWriter::open(const std::string &path,
                                 const std::vector<std::string> &names,
                                 int keepThroughGeneration) {
  objectives = names;
  bool exists = static_cast<bool>(std::ifstream(path));
  if (exists && keepThroughGeneration >= 0) {
    std::ifstream in(path);
    std::string line, kept;
    bool header = true;
    while (std::getline(in, line)) {
      if (header || std::atoi(line.c_str()) <= keepThroughGeneration)
        kept += line + "\n";
      header = false;
    }
    if (absl::Status status = writeOutput(path, kept); !status.ok())
      return status;
  }
  bool fresh = !exists || keepThroughGeneration < 0;
  file.open(path, fresh ? std::ios::trunc : std::ios::app);
  if (!file)
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  if (fresh) {
    file << "generation,key,outcome,edits,kinds";
    for (const std::string &name : objectives)
      file << "," << name;
    file << ",validation_accuracy,median_run_ms,lower_ms,codegen_ms,"
            "child_ms,runtime_ratio,cached,raced,detail\n";
  }
  return absl::OkStatus();
}

void HistoryWriter::append(int generation, const std::string &key,
                           const std::vector<Edit> &edits, const Measurement &m,
                           bool cached) {
  file << generation << "," << key << "," << toString(m.outcome) << ","
       << edits.size() << "," << csvField(kindsOf(edits));
  for (const std::string &name : objectives) {
    if (m.ok())
      file << "," << absl::StrFormat("%.6g", objectiveValue(m, name));
    else
      file << ",";
  }
  file << "," << absl::StrFormat("%.4f", m.validation.accuracy()) << ","
       << absl::StrFormat("%.3f", m.medianRunMs) << ","
       << absl::StrFormat("%.1f", m.lowerMs) << ","
       << absl::StrFormat("%.1f", m.codegenMs) << ","
       << absl::StrFormat("%.1f", m.childMs) << ","
       << absl::StrFormat("%.4f", m.runtimeRatio) << "," << (cached ? 1 : 0)
       << "," << csvField(m.raced) << "," << csvField(m.detail) << "\n";
}

} // namespace gevo
