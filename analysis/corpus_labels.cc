//===- corpus_labels.cc - Checking labels against a hand-labelled corpus --===//

#include "analysis/corpus_labels.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "analysis/labels.h"
#include "gevo/eval/workload/workload_module.h"
#include "gevo/ir/apply_edit.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "replay/patch.h"

namespace gevo {
namespace {

struct Expectation {
  int line = 0;
  Edit edit;
  std::string editText, kind;
  std::vector<std::string> says;
};

struct CorpusFile {
  std::string workload, module;
  std::vector<Expectation> expectations;
};

absl::Status lineError(const std::string &path, int line,
                       const std::string &message) {
  return absl::InvalidArgumentError(
      absl::StrCat(path, ":", line, ": ", message));
}

absl::StatusOr<CorpusFile> parseCorpusFile(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    return absl::NotFoundError(absl::StrCat(path, ": cannot be read"));
  CorpusFile file;
  std::string text;
  for (int line = 1; std::getline(in, text); ++line) {
    absl::string_view rest = text;
    if (rest.empty() || absl::StartsWith(rest, "#"))
      continue;
    if (absl::ConsumePrefix(&rest, "workload ")) {
      file.workload = std::string(rest);
    } else if (absl::ConsumePrefix(&rest, "module ")) {
      file.module = std::string(rest);
    } else if (absl::ConsumePrefix(&rest, "edit ")) {
      absl::StatusOr<Edit> edit = parseEdit(std::string(rest));
      if (!edit.ok())
        return lineError(path, line, std::string(edit.status().message()));
      file.expectations.push_back({line, *edit, std::string(rest), "", {}});
    } else if (file.expectations.empty()) {
      return lineError(path, line, "a label before any edit");
    } else if (absl::ConsumePrefix(&rest, "kind ")) {
      file.expectations.back().kind = std::string(rest);
    } else if (absl::ConsumePrefix(&rest, "says ")) {
      file.expectations.back().says.emplace_back(rest);
    } else {
      return lineError(path, line,
                       "expected workload, module, edit, kind or says");
    }
  }
  if (file.workload.empty())
    return lineError(path, 1, "no workload line");
  return file;
}

CorpusVerdict judge(const std::string &path, const Expectation &e,
                    const EffectLabel &label) {
  CorpusVerdict verdict;
  verdict.file = path;
  verdict.line = e.line;
  verdict.edit = e.editText;
  verdict.expected = e.kind;
  for (const std::string &s : e.says)
    absl::StrAppend(&verdict.expected, "; says ", s);
  verdict.got = absl::StrCat(label.kind, ": ", label.summary);
  verdict.path = label.path;
  verdict.roles = label.roles;
  verdict.matches =
      label.kind == e.kind &&
      std::all_of(e.says.begin(), e.says.end(), [&](const std::string &s) {
        return absl::StrContains(label.summary, s);
      });
  return verdict;
}

} // namespace

absl::StatusOr<std::vector<CorpusVerdict>>
checkCorpusFile(const std::string &path) {
  absl::StatusOr<CorpusFile> file = parseCorpusFile(path);
  if (!file.ok())
    return file.status();
  std::string workload = findRunfile(file->workload);
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(workload);
  if (!spec.ok())
    return spec.status();
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  // A module named with a folder is a repository path, else a file next to
  // the corpus file.
  std::string modulePath =
      file->module.find('/') != std::string::npos
          ? findRunfile(file->module)
          : (std::filesystem::path(path).parent_path() / file->module).string();
  auto module = file->module.empty() ? loadWorkloadModuleAt(*context, workload)
                                     : loadLinalgModule(*context, modulePath);
  if (!module.ok())
    return module.status();
  std::vector<CorpusVerdict> verdicts;
  for (const Expectation &e : file->expectations) {
    mlir::OwningOpRef<mlir::ModuleOp> copy((**module).clone());
    if (absl::Status applied = applyEdit(*copy, e.edit); !applied.ok())
      return lineError(path, e.line, std::string(applied.message()));
    EffectLabel label = labelEdit(**module, *spec, {e.edit}, 0, {});
    verdicts.push_back(judge(path, e, label));
  }
  return verdicts;
}

absl::StatusOr<std::vector<CorpusVerdict>>
checkCorpusDirectory(const std::string &directory) {
  std::vector<std::string> files;
  std::error_code error;
  for (const auto &entry :
       std::filesystem::directory_iterator(directory, error))
    if (entry.path().extension() == ".labels")
      files.push_back(entry.path().string());
  if (error)
    return absl::NotFoundError(absl::StrCat(directory, ": ", error.message()));
  std::sort(files.begin(), files.end());
  std::vector<CorpusVerdict> all;
  for (const std::string &file : files) {
    absl::StatusOr<std::vector<CorpusVerdict>> verdicts = checkCorpusFile(file);
    if (!verdicts.ok())
      return verdicts.status();
    all.insert(all.end(), verdicts->begin(), verdicts->end());
  }
  return all;
}

} // namespace gevo
