//===- workload_training.cc - A workload's "training" field, located ------===//

#include "gevo/eval/workload/workload_training.h"

#include <cctype>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gevo/eval/workload/spec_reader.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/support/file_io.h"
#include "gevo/support/text_hash.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace gevo {
namespace {

/// `message` ("<path>: training.f: rest") as "<path>:line:col: error: at
/// $.training.f: rest"; a message of another shape is kept as it is.
absl::Status locate(const SpecReader &reader, absl::string_view message) {
  absl::string_view rest = message;
  std::string prefix = absl::StrCat(reader.path(), ": ");
  if (absl::StartsWith(rest, prefix))
    rest.remove_prefix(prefix.size());
  size_t colon = rest.find(": ");
  if (!absl::StartsWith(rest, "training") || colon == absl::string_view::npos)
    return absl::InvalidArgumentError(message);
  std::string field(rest.substr(0, colon));
  return reader.error(absl::StrCat("$.", field),
                      std::string(rest.substr(colon + 2)));
}

} // namespace

absl::Status parseWorkloadTraining(const SpecReader &reader,
                                   const llvm::json::Value &value,
                                   WorkloadSpec &spec) {
  if (spec.batch != 0)
    return reader.error("$.batch",
                        "a workload with a training field imports its forward "
                        "model with the eval rows as its batch: leave out "
                        "\"batch\"");
  std::string canonical;
  llvm::raw_string_ostream(canonical) << value;
  absl::StatusOr<TrainingSpec> training =
      parseTrainingSpec(canonical, reader.path());
  if (!training.ok())
    return locate(reader, training.status().message());
  spec.training = *training;
  spec.trainingHash = hashText(canonical);
  spec.forwardEntry = spec.entry;
  spec.entry = training->entry;
  return absl::OkStatus();
}

absl::Status locateTrainingError(const WorkloadSpec &spec,
                                 absl::string_view message) {
  absl::StatusOr<std::string> text = readFile(spec.specPath, "workload spec");
  return locate(SpecReader(spec.specPath, text.ok() ? *text : ""), message);
}

std::string trainingSourceWords(const WorkloadSpec &spec) {
  // A patch line holds words of letters, digits and `_.-$`.
  std::string forward = llvm::sys::path::filename(spec.modulePath).str();
  for (char &c : forward)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' &&
        c != '-' && c != '$')
      c = '_';
  std::string words =
      absl::StrCat("forward=", forward, " spec=", spec.trainingHash);
  if (spec.forwardEntry != "main")
    absl::StrAppend(&words, " entry=", spec.forwardEntry);
  return words;
}

} // namespace gevo
