//===- history_writer.cc - history.csv: one row per measured variant ------===//

#include "gevo/workbench/history_writer.h"

#include <cstdlib>

#include "absl/status/statusor.h"
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

std::string historyHeader(const std::vector<std::string> &objectives) {
  std::string header = "generation,key,outcome,edits,kinds";
  for (const std::string &name : objectives)
    absl::StrAppend(&header, ",", name);
  absl::StrAppend(&header, ",validation_accuracy,median_run_ms,lower_ms,",
                  "codegen_ms,child_ms,runtime_ratio,cached,raced,detail");
  return header;
}

/// Keeps `path`'s header and its rows through `keepThroughGeneration`; an
/// empty file is left for open() to start afresh. A header other than this
/// version's is an error: rows appended under it would misread.
static absl::StatusOr<bool> keepRows(const std::string &path,
                                     const std::string &header,
                                     int keepThroughGeneration) {
  std::ifstream in(path);
  std::string line, kept;
  if (!std::getline(in, line))
    return false;
  if (line != header)
    return absl::FailedPreconditionError(absl::StrCat(
        path,
        ":1: its columns are not those this version writes (an earlier "
        "version's run?); move it aside to resume without its rows\n"
        "  found:    ",
        line, "\n  expected: ", header));
  kept = line + "\n";
  while (std::getline(in, line))
    if (std::atoi(line.c_str()) <= keepThroughGeneration)
      kept += line + "\n";
  if (absl::Status status = writeOutput(path, kept); !status.ok())
    return status;
  return true;
}

absl::Status HistoryWriter::open(const std::string &path,
                                 const std::vector<std::string> &names,
                                 int keepThroughGeneration) {
  objectives = names;
  std::string header = historyHeader(objectives);
  bool fresh = true;
  if (keepThroughGeneration >= 0 && std::ifstream(path)) {
    absl::StatusOr<bool> kept = keepRows(path, header, keepThroughGeneration);
    if (!kept.ok())
      return kept.status();
    fresh = !*kept;
  }
  file.open(path, fresh ? std::ios::trunc : std::ios::app);
  if (!file)
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  if (fresh)
    file << header << "\n";
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
