//===- run_directory.cc - Every file of a search run, written and read ----===//

#include "gevo/workbench/run_directory.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gevo/support/csv.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "llvm/Support/FormatVariadic.h"

namespace gevo {
namespace {

CsvTable readCsv(const std::string &path) {
  CsvTable table;
  std::ifstream in(path);
  std::string line;
  if (!std::getline(in, line))
    return table;
  table.header = parseCsvLine(line);
  while (std::getline(in, line))
    table.rows.push_back(parseCsvLine(line));
  return table;
}

} // namespace

size_t CsvTable::column(const std::string &name) const {
  return std::find(header.begin(), header.end(), name) - header.begin();
}

std::string prettyJson(const llvm::json::Value &value) {
  return llvm::formatv("{0:2}", value).str() + "\n";
}

std::string RunDirectory::file(const std::string &name) const {
  return root + "/" + name;
}

absl::Status RunDirectory::create() const { return makeDirectory(root); }

absl::StatusOr<llvm::json::Value>
RunDirectory::readJson(const std::string &name, const std::string &what) const {
  GEVO_ASSIGN_OR_RETURN(std::string text, readFile(file(name), what));
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(text);
  if (!value)
    return absl::InvalidArgumentError(absl::StrCat(
        file(name), ": malformed JSON: ", llvm::toString(value.takeError())));
  if (!value->getAsObject())
    return absl::InvalidArgumentError(file(name) + ": not a JSON object");
  return std::move(*value);
}

absl::Status RunDirectory::writeRun(llvm::json::Object run) const {
  return writeOutput(file("run.json"),
                     prettyJson(llvm::json::Value(std::move(run))));
}

absl::StatusOr<RunInfo> RunDirectory::readRun() const {
  GEVO_ASSIGN_OR_RETURN(llvm::json::Value value,
                        readJson("run.json", "run file"));
  const llvm::json::Object &run = *value.getAsObject();
  RunInfo info;
  const llvm::json::Value *config = run.get("config");
  if (!config || !config->getAsObject())
    return absl::InvalidArgumentError(file("run.json") + ": no \"config\"");
  std::optional<llvm::StringRef> workload =
      config->getAsObject()->getString("workload");
  if (!workload)
    return absl::InvalidArgumentError(file("run.json") +
                                      ": no config.workload");
  info.workloadPath = workload->str();
  info.config = *config;
  if (const llvm::json::Array *list = run.getArray("objectives"))
    for (const llvm::json::Value &name : *list)
      info.objectives.push_back(name.getAsString().value_or("").str());
  return info;
}

bool RunDirectory::hasCheckpoint() const {
  struct stat info;
  return ::stat(file("checkpoint.json").c_str(), &info) == 0;
}

absl::Status RunDirectory::writeCheckpoint(const std::string &text) const {
  return writeOutput(file("checkpoint.json"), text);
}

absl::StatusOr<std::string> RunDirectory::readCheckpoint() const {
  return readFile(file("checkpoint.json"), "checkpoint");
}

std::string RunDirectory::frontPatchName(size_t index) {
  return absl::StrFormat("front/%02d.gevo", index + 1);
}

absl::Status RunDirectory::writeFrontPatch(const std::string &name,
                                           const Patch &patch) const {
  GEVO_RETURN_IF_ERROR(makeDirectory(file("front")));
  return writeOutput(file(name), printPatch(patch));
}

absl::StatusOr<Patch> RunDirectory::readPatch(const std::string &name) const {
  return loadPatch(file(name));
}

absl::Status RunDirectory::writeFront(llvm::json::Object front) const {
  GEVO_RETURN_IF_ERROR(makeDirectory(file("front")));
  return writeOutput(file("front.json"),
                     prettyJson(llvm::json::Value(std::move(front))));
}

absl::StatusOr<std::vector<FrontEntry>> RunDirectory::readFront() const {
  GEVO_ASSIGN_OR_RETURN(llvm::json::Value value,
                        readJson("front.json", "front file"));
  std::vector<FrontEntry> entries;
  if (const llvm::json::Array *members =
          value.getAsObject()->getArray("members"))
    for (const llvm::json::Value &member : *members) {
      const llvm::json::Object *m = member.getAsObject();
      if (!m || !m->getString("patch"))
        continue;
      entries.push_back(FrontEntry{m->getString("patch")->str(),
                                   m->getString("key").value_or("").str()});
    }
  return entries;
}

absl::Status RunDirectory::writeOperators(const std::string &csv) const {
  return writeOutput(file("operators.csv"), csv);
}

CsvTable RunDirectory::readOperatorWeights() const {
  return readCsv(file("operator_weights.csv"));
}

CsvTable RunDirectory::readOperators() const {
  return readCsv(file("operators.csv"));
}

CsvTable RunDirectory::readHistory() const { return readCsv(historyPath()); }

CsvTable RunDirectory::readSurrogate() const {
  return readCsv(file("surrogate.csv"));
}

} // namespace gevo
