//===- workload.cc - Reading workload specs -------------------------------===//

#include "gevo/eval/workload/workload.h"

#include <set>
#include <sys/stat.h>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gevo/eval/workload/spec_reader.h"
#include "gevo/eval/workload/workload_training.h"
#include "gevo/support/file_io.h"
#include "gevo/support/status_macros.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

namespace gevo {
namespace {

/// The most values a row shape may hold (IDX images and CSV rows are far
/// smaller); keeps the product of its sizes from overflowing.
constexpr int64_t kMaxRowValues = int64_t(1) << 32;

/// `"shape": [d, ...]` of a features binding: positive sizes whose product
/// stays far from overflowing (a row of a data set fits in memory).
absl::Status parseRowShape(const SpecReader &reader,
                           const llvm::json::Object &obj, const std::string &at,
                           ArgumentBinding &binding) {
  const llvm::json::Value *value = obj.get("shape");
  if (!value)
    return absl::OkStatus();
  std::string shapeAt = at + ".shape";
  if (binding.field != DataField::Features)
    return reader.error(shapeAt, "only a \"features\" binding takes a shape");
  const llvm::json::Array *array = value->getAsArray();
  if (!array || array->empty())
    return reader.error(shapeAt, "expected an array of positive integers, "
                                 "each row's shape, e.g. [1, 28, 28]");
  int64_t product = 1;
  for (size_t d = 0; d < array->size(); ++d) {
    std::optional<int64_t> size = (*array)[d].getAsInteger();
    if (!size || *size < 1 || *size > kMaxRowValues ||
        product * *size > kMaxRowValues)
      return reader.error(absl::StrCat(shapeAt, "[", d, "]"),
                          absl::StrCat("expected a positive integer, and at "
                                       "most ",
                                       kMaxRowValues, " values a row"));
    product *= *size;
    binding.shape.push_back(*size);
  }
  binding.where = reader.location(shapeAt);
  return absl::OkStatus();
}

absl::StatusOr<ArgumentBinding> parseBinding(const SpecReader &reader,
                                             const llvm::json::Value &value,
                                             const std::string &at) {
  GEVO_ASSIGN_OR_RETURN(const llvm::json::Object *obj,
                        reader.object(&value, at, {"split", "field", "shape"}));
  std::string split, field;
  GEVO_RETURN_IF_ERROR(reader.string(*obj, at, "split", split, true));
  GEVO_RETURN_IF_ERROR(reader.string(*obj, at, "field", field, true));
  ArgumentBinding binding;
  if (split == "train")
    binding.split = SplitRole::Train;
  else if (split == "eval")
    binding.split = SplitRole::Eval;
  else if (split == "validation")
    binding.split = SplitRole::Validation;
  else if (split == "test")
    binding.split = SplitRole::Test;
  else
    return reader.error(at + ".split",
                        absl::StrCat("expected \"train\", \"eval\", "
                                     "\"validation\" or \"test\", found \"",
                                     split, "\""));
  if (field == "features")
    binding.field = DataField::Features;
  else if (field == "labels")
    binding.field = DataField::Labels;
  else if (field == "labels_onehot")
    binding.field = DataField::LabelsOneHot;
  else
    return reader.error(at + ".field",
                        absl::StrCat("expected \"features\", \"labels\" or "
                                     "\"labels_onehot\", found \"",
                                     field, "\""));
  GEVO_RETURN_IF_ERROR(parseRowShape(reader, *obj, at, binding));
  return binding;
}

absl::Status parseArguments(const SpecReader &reader,
                            const llvm::json::Value *value,
                            std::vector<ArgumentBinding> &arguments) {
  const llvm::json::Array *array = value ? value->getAsArray() : nullptr;
  if (!array)
    return reader.error(
        "$.arguments", "expected an array with one binding per entry argument");
  for (size_t i = 0; i < array->size(); ++i) {
    GEVO_ASSIGN_OR_RETURN(ArgumentBinding binding,
                          parseBinding(reader, (*array)[i],
                                       absl::StrCat("$.arguments[", i, "]")));
    arguments.push_back(std::move(binding));
  }
  return absl::OkStatus();
}

absl::Status parseResults(const SpecReader &reader,
                          const llvm::json::Value *value,
                          std::vector<ResultRole> &results) {
  const llvm::json::Array *array = value ? value->getAsArray() : nullptr;
  if (!array)
    return reader.error("$.results",
                        "expected an array with one role per entry result");
  int logits = 0;
  for (size_t i = 0; i < array->size(); ++i) {
    std::string at = absl::StrCat("$.results[", i, "]");
    std::optional<llvm::StringRef> role = (*array)[i].getAsString();
    if (role && *role == "logits") {
      results.push_back(ResultRole::Logits);
      ++logits;
    } else if (role && *role == "other") {
      results.push_back(ResultRole::Other);
    } else {
      return reader.error(at, "expected \"logits\" or \"other\"");
    }
  }
  if (logits != 1)
    return reader.error(
        "$.results",
        absl::StrCat("expected exactly one \"logits\" result, found ", logits));
  return absl::OkStatus();
}

} // namespace

int WorkloadSpec::logitsResult() const {
  for (size_t i = 0; i < results.size(); ++i)
    if (results[i] == ResultRole::Logits)
      return static_cast<int>(i);
  return -1;
}

absl::StatusOr<WorkloadSpec> parseWorkloadSpec(const std::string &json,
                                               const std::string &specPath) {
  llvm::Expected<llvm::json::Value> value = llvm::json::parse(json);
  if (!value) {
    // LLVM reports "[line:col, byte=N]: message"; make it file:line:col.
    std::string message = llvm::toString(value.takeError());
    llvm::SmallVector<llvm::StringRef, 4> groups;
    llvm::Regex position("^\\[([0-9]+):([0-9]+), byte=[0-9]+\\]: (.*)$");
    if (position.match(message, &groups))
      return absl::InvalidArgumentError(
          absl::StrCat(specPath, ":", groups[1].str(), ":", groups[2].str(),
                       ": error: malformed JSON: ", groups[3].str()));
    return absl::InvalidArgumentError(
        absl::StrCat(specPath, ": malformed JSON: ", message));
  }
  SpecReader reader(specPath, json);
  absl::StatusOr<const llvm::json::Object *> root = reader.object(
      &*value, "$",
      {"name", "description", "module", "batch", "entry", "training", "data",
       "arguments", "results", "timing", "objectives"});
  if (!root.ok())
    return root.status();
  WorkloadSpec spec;
  spec.specPath = specPath;
  GEVO_RETURN_IF_ERROR(reader.string(**root, "$", "name", spec.name, true));
  GEVO_RETURN_IF_ERROR(
      reader.string(**root, "$", "description", spec.description, false));
  GEVO_RETURN_IF_ERROR(
      reader.string(**root, "$", "module", spec.modulePath, true));
  spec.modulePath = reader.resolve(spec.modulePath);
  spec.moduleWhere = reader.location("$.module");
  GEVO_RETURN_IF_ERROR(reader.integer(**root, "$", "batch", spec.batch, 1));
  if ((*root)->get("batch") && !absl::EndsWith(spec.modulePath, ".onnx"))
    return reader.error("$.batch", "only an .onnx module takes a batch (it "
                                   "fixes the model's symbolic dimension)");
  GEVO_RETURN_IF_ERROR(reader.string(**root, "$", "entry", spec.entry, false));
  if (const llvm::json::Value *training = (*root)->get("training"))
    GEVO_RETURN_IF_ERROR(parseWorkloadTraining(reader, *training, spec));
  if (!(*root)->get("data"))
    return reader.error("$", "missing required key 'data'");
  GEVO_RETURN_IF_ERROR(
      parseDataSource(reader, (*root)->get("data"), spec.data));
  GEVO_RETURN_IF_ERROR(
      parseArguments(reader, (*root)->get("arguments"), spec.arguments));
  GEVO_RETURN_IF_ERROR(
      parseResults(reader, (*root)->get("results"), spec.results));
  if (const llvm::json::Value *timing = (*root)->get("timing")) {
    absl::StatusOr<const llvm::json::Object *> obj =
        reader.object(timing, "$.timing", {"warmup", "repeats"});
    if (!obj.ok())
      return obj.status();
    GEVO_RETURN_IF_ERROR(
        reader.integer(**obj, "$.timing", "warmup", spec.warmup, 0));
    GEVO_RETURN_IF_ERROR(
        reader.integer(**obj, "$.timing", "repeats", spec.repeats, 1));
  }
  if (const llvm::json::Value *objectives = (*root)->get("objectives")) {
    const llvm::json::Array *array = objectives->getAsArray();
    if (!array || array->size() < 2)
      return reader.error("$.objectives",
                          "expected an array of at least two objective names");
    spec.objectives.clear();
    for (size_t i = 0; i < array->size(); ++i) {
      std::optional<llvm::StringRef> name = (*array)[i].getAsString();
      static const std::set<std::string> known = {"runtime", "error"};
      if (!name || !known.count(name->str()))
        return reader.error(absl::StrCat("$.objectives[", i, "]"),
                            "expected \"runtime\" or \"error\"");
      spec.objectives.push_back(name->str());
    }
  }
  return spec;
}

absl::StatusOr<WorkloadSpec> loadWorkloadSpec(const std::string &path) {
  std::string specPath = path;
  struct stat info;
  if (::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) {
    llvm::SmallString<256> joined(path);
    llvm::sys::path::append(joined, "workload.json");
    specPath = std::string(joined);
  }
  absl::StatusOr<std::string> text = readFile(specPath, "workload spec");
  if (!text.ok())
    return absl::NotFoundError(absl::StrCat(
        specPath, ": cannot open workload spec (expected a workload.json file "
                  "or a directory holding one)"));
  return parseWorkloadSpec(*text, specPath);
}

absl::StatusOr<DatasetSplit> loadWorkloadData(const WorkloadSpec &spec) {
  GEVO_ASSIGN_OR_RETURN(DatasetSplit data, loadDataSource(spec.data));
  for (const ArgumentBinding &binding : spec.arguments) {
    if (binding.shape.empty())
      continue;
    int64_t values = 1;
    for (int64_t size : binding.shape)
      values *= size;
    if (values != data.train.numFeatures)
      return absl::InvalidArgumentError(absl::StrCat(
          binding.where, ": [", absl::StrJoin(binding.shape, ", "), "] holds ",
          values, " values a row, but the data's rows have ",
          data.train.numFeatures, " features"));
  }
  return data;
}

absl::StatusOr<int64_t> importBatch(const WorkloadSpec &spec,
                                    const DatasetSplit &data) {
  if (spec.batch > 0)
    return spec.batch;
  if (spec.arguments.empty())
    return absl::InvalidArgumentError(absl::StrCat(
        spec.moduleWhere, ": the entry takes no argument to size "
                          "the ONNX model's batch: give \"batch\""));
  switch (spec.arguments.front().split) {
  case SplitRole::Train:
    return data.train.size();
  case SplitRole::Validation:
    return data.validation.size();
  case SplitRole::Test:
    return data.test.size();
  case SplitRole::Eval:
    break;
  }
  if (data.validation.size() != data.test.size())
    return absl::InvalidArgumentError(absl::StrCat(
        spec.moduleWhere,
        ": the ONNX model is imported once, with one batch, "
        "but the validation and test splits that `eval` binds differ in size (",
        data.validation.size(), " vs ", data.test.size(),
        " rows): make them equal"));
  return data.validation.size();
}

const char *toString(SplitRole role) {
  switch (role) {
  case SplitRole::Train:
    return "train";
  case SplitRole::Eval:
    return "eval";
  case SplitRole::Validation:
    return "validation";
  case SplitRole::Test:
    return "test";
  }
  return "?";
}

const char *toString(DataField field) {
  switch (field) {
  case DataField::Features:
    return "features";
  case DataField::Labels:
    return "labels";
  case DataField::LabelsOneHot:
    return "labels_onehot";
  }
  return "?";
}

} // namespace gevo
