//===- data_source.cc - A workload's data: files, splits, scaling ---------===//

#include "gevo/eval/workload/data_source.h"

#include <algorithm>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "gevo/eval/workload/spec_reader.h"
#include "gevo/support/status_macros.h"

namespace gevo {
namespace {

const char *const kSplitNames[] = {"train", "validation", "test"};

/// Reads `rows: [begin, end]` or `limit: n` of a split object.
absl::Status parseRows(const SpecReader &reader, const llvm::json::Object &obj,
                       const std::string &at, SplitFile &file) {
  const llvm::json::Value *rows = obj.get("rows");
  if (rows && obj.get("limit"))
    return reader.error(at, "give either 'rows' or 'limit', not both",
                        at + ".limit");
  if (rows) {
    const llvm::json::Array *range = rows->getAsArray();
    std::optional<int64_t> begin, end;
    if (range && range->size() == 2) {
      begin = (*range)[0].getAsInteger();
      end = (*range)[1].getAsInteger();
    }
    if (!begin || !end || *begin < 0 || *end <= *begin)
      return reader.error(at + ".rows",
                          "expected [begin, end]: the rows begin..end-1, "
                          "counted from 0, with 0 <= begin < end");
    file.begin = *begin;
    file.end = *end;
  }
  int64_t limit = 0;
  GEVO_RETURN_IF_ERROR(reader.integer(obj, at, "limit", limit, 1));
  if (limit > 0)
    file.end = limit;
  return absl::OkStatus();
}

/// One split's entry: a CSV path, or an object naming its file(s) and rows.
absl::Status parseSplitFile(const SpecReader &reader,
                            const llvm::json::Value &value,
                            const std::string &at, bool idx, SplitFile &file) {
  file.where = reader.location(at);
  if (std::optional<llvm::StringRef> path = value.getAsString()) {
    if (idx)
      return reader.error(at, "an IDX split needs an object with \"images\" "
                              "and \"labels\"");
    file.path = reader.resolve(path->str());
    return absl::OkStatus();
  }
  std::set<std::string> keys =
      idx ? std::set<std::string>{"images", "labels", "rows", "limit"}
          : std::set<std::string>{"path", "rows", "limit"};
  GEVO_ASSIGN_OR_RETURN(const llvm::json::Object *obj,
                        reader.object(&value, at, keys));
  if (idx) {
    GEVO_RETURN_IF_ERROR(
        reader.string(*obj, at, "images", file.imagesPath, true));
    GEVO_RETURN_IF_ERROR(
        reader.string(*obj, at, "labels", file.labelsPath, true));
    file.imagesPath = reader.resolve(file.imagesPath);
    file.labelsPath = reader.resolve(file.labelsPath);
  } else {
    GEVO_RETURN_IF_ERROR(reader.string(*obj, at, "path", file.path, true));
    file.path = reader.resolve(file.path);
  }
  return parseRows(reader, *obj, at, file);
}

absl::Status parseScaling(const SpecReader &reader,
                          const llvm::json::Object &obj, DataSource &data) {
  GEVO_RETURN_IF_ERROR(
      reader.number(obj, "$.data", "scale", data.scaling.divideBy));
  std::string normalize = "none";
  GEVO_RETURN_IF_ERROR(
      reader.string(obj, "$.data", "normalize", normalize, false));
  if (normalize == "none")
    data.scaling.normalize = Normalization::None;
  else if (normalize == "per_feature")
    data.scaling.normalize = Normalization::PerFeature;
  else if (normalize == "global")
    data.scaling.normalize = Normalization::Global;
  else
    return reader.error("$.data.normalize",
                        absl::StrCat("expected \"none\", \"per_feature\" or "
                                     "\"global\", found \"",
                                     normalize, "\""));
  return absl::OkStatus();
}

absl::Status parseWholeFile(const SpecReader &reader,
                            const llvm::json::Object &obj, DataSource &data) {
  SplitFile &whole = data.whole;
  whole.where = reader.location("$.data");
  if (data.format == DataSource::Format::Csv) {
    GEVO_RETURN_IF_ERROR(
        reader.string(obj, "$.data", "path", whole.path, true));
    whole.path = reader.resolve(whole.path);
  } else {
    GEVO_RETURN_IF_ERROR(
        reader.string(obj, "$.data", "images", whole.imagesPath, true));
    GEVO_RETURN_IF_ERROR(
        reader.string(obj, "$.data", "labels", whole.labelsPath, true));
    whole.imagesPath = reader.resolve(whole.imagesPath);
    whole.labelsPath = reader.resolve(whole.labelsPath);
  }
  GEVO_ASSIGN_OR_RETURN(const llvm::json::Object *split,
                        reader.object(obj.get("split"), "$.data.split",
                                      {"seed", "validation", "test", "train"}));
  GEVO_RETURN_IF_ERROR(
      reader.integer(*split, "$.data.split", "seed", data.split.seed, 0));
  GEVO_RETURN_IF_ERROR(reader.integer(*split, "$.data.split", "validation",
                                      data.split.validation, 1, true));
  GEVO_RETURN_IF_ERROR(
      reader.integer(*split, "$.data.split", "test", data.split.test, 1, true));
  return reader.integer(*split, "$.data.split", "train", data.split.train, 1);
}

/// The file a split reads, as a key shared by splits reading the same one.
std::string fileKey(const SplitFile &file) {
  return file.path.empty() ? file.imagesPath + "\n" + file.labelsPath
                           : file.path;
}

absl::StatusOr<Dataset> loadFile(const DataSource &data,
                                 const SplitFile &file) {
  if (data.format == DataSource::Format::Csv)
    return loadCsv(file.path, data.csv);
  return loadIdx(file.imagesPath, file.labelsPath, data.numClasses);
}

/// Reads each distinct file once and takes every split's rows of it.
absl::StatusOr<DatasetSplit> loadFilePerSplit(const DataSource &data) {
  std::map<std::string, Dataset> files;
  const SplitFile *entries[] = {&data.train, &data.validation, &data.test};
  DatasetSplit split;
  Dataset *outputs[] = {&split.train, &split.validation, &split.test};
  std::pair<int64_t, int64_t> taken[3];
  for (int i = 0; i < 3; ++i) {
    const SplitFile &entry = *entries[i];
    std::string key = fileKey(entry);
    if (!files.count(key)) {
      GEVO_ASSIGN_OR_RETURN(Dataset loaded, loadFile(data, entry));
      files[key] = std::move(loaded);
    }
    const Dataset &file = files[key];
    int64_t end = entry.end < 0 ? file.size() : entry.end;
    if (end > file.size() || entry.begin >= end)
      return absl::InvalidArgumentError(absl::StrCat(
          entry.where, ": rows [", entry.begin, ", ", end, ") are not inside ",
          entry.path.empty() ? entry.imagesPath : entry.path, " (", file.size(),
          " rows)"));
    taken[i] = {entry.begin, end};
    for (int j = 0; j < i; ++j)
      if (fileKey(*entries[j]) == key && taken[j].first < end &&
          entry.begin < taken[j].second)
        return absl::InvalidArgumentError(absl::StrCat(
            entry.where, ": rows [", entry.begin, ", ", end,
            ") overlap the rows [", taken[j].first, ", ", taken[j].second,
            ") that the ", kSplitNames[j],
            " split takes from the same file; a split must not see another's "
            "rows"));
    *outputs[i] = file.slice(entry.begin, end);
  }
  int64_t classes = data.numClasses;
  for (Dataset *out : outputs)
    classes = std::max(classes, out->numClasses);
  for (int i = 0; i < 3; ++i) {
    outputs[i]->numClasses = classes;
    if (outputs[i]->numFeatures != split.train.numFeatures)
      return absl::InvalidArgumentError(absl::StrCat(
          entries[i]->where, ": its rows have ", outputs[i]->numFeatures,
          " features but the train split's have ", split.train.numFeatures));
  }
  return split;
}

} // namespace

absl::Status parseDataSource(const SpecReader &reader,
                             const llvm::json::Value *value, DataSource &data) {
  GEVO_ASSIGN_OR_RETURN(
      const llvm::json::Object *obj,
      reader.object(value, "$.data",
                    {"format", "path", "images", "labels", "classes",
                     "label_column", "has_header", "split", "train",
                     "validation", "test", "scale", "normalize"}));
  std::string format = "csv";
  GEVO_RETURN_IF_ERROR(reader.string(*obj, "$.data", "format", format, false));
  if (format == "csv")
    data.format = DataSource::Format::Csv;
  else if (format == "idx")
    data.format = DataSource::Format::Idx;
  else
    return reader.error(
        "$.data.format",
        absl::StrCat("expected \"csv\" or \"idx\", found \"", format, "\""));
  if (const llvm::json::Value *column = obj->get("label_column")) {
    std::optional<int64_t> number = column->getAsInteger();
    if (!number)
      return reader.error("$.data.label_column",
                          "expected an integer (negative counts from the end)");
    data.csv.labelColumn = *number;
  }
  if (const llvm::json::Value *header = obj->get("has_header")) {
    std::optional<bool> flag = header->getAsBoolean();
    if (!flag)
      return reader.error("$.data.has_header", "expected true or false");
    data.csv.hasHeader = *flag;
  }
  GEVO_RETURN_IF_ERROR(
      reader.integer(*obj, "$.data", "classes", data.numClasses, 2));
  data.csv.numClasses = data.numClasses;
  GEVO_RETURN_IF_ERROR(parseScaling(reader, *obj, data));

  int perSplit = 0;
  for (const char *name : kSplitNames)
    perSplit += obj->get(name) ? 1 : 0;
  if (perSplit == 0)
    return parseWholeFile(reader, *obj, data);
  for (const char *key : {"path", "images", "labels", "split"})
    if (obj->get(key))
      return reader.error("$.data",
                          absl::StrCat("'", key,
                                       "' belongs to a single data file; with "
                                       "a file per split, give each split its "
                                       "own"),
                          absl::StrCat("$.data.", key));
  data.filePerSplit = true;
  SplitFile *files[] = {&data.train, &data.validation, &data.test};
  bool idx = data.format == DataSource::Format::Idx;
  for (int i = 0; i < 3; ++i) {
    const llvm::json::Value *entry = obj->get(kSplitNames[i]);
    if (!entry)
      return reader.error(
          "$.data",
          absl::StrCat("missing '", kSplitNames[i],
                       "': with a file per split, give train, validation and "
                       "test"));
    GEVO_RETURN_IF_ERROR(parseSplitFile(reader, *entry,
                                        absl::StrCat("$.data.", kSplitNames[i]),
                                        idx, *files[i]));
  }
  return absl::OkStatus();
}

absl::StatusOr<DatasetSplit> loadDataSource(const DataSource &data) {
  DatasetSplit split;
  if (data.filePerSplit) {
    GEVO_ASSIGN_OR_RETURN(split, loadFilePerSplit(data));
  } else {
    GEVO_ASSIGN_OR_RETURN(Dataset whole, loadFile(data, data.whole));
    GEVO_ASSIGN_OR_RETURN(split, splitDataset(whole, data.split));
  }
  scaleFeatures(split, data.scaling);
  return split;
}

} // namespace gevo
