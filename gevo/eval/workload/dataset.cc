//===- dataset.cc - Labelled data sets and their deterministic splits
//------===//

#include "gevo/eval/workload/dataset.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <numeric>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"
#include "gevo/eval/workload/data_file.h"
#include "gevo/support/file_io.h"

namespace gevo {
namespace {

absl::Status checkLabels(const Dataset &data, const std::string &where) {
  for (int64_t i = 0; i < data.size(); ++i) {
    if (data.labels[i] < 0 || data.labels[i] >= data.numClasses)
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": label ", data.labels[i], " of row ", i + 1,
                       " is outside [0, ", data.numClasses, ")"));
  }
  return absl::OkStatus();
}

uint32_t readBigEndian32(const std::string &bytes, size_t offset) {
  auto byteAt = [&](size_t i) {
    return static_cast<uint32_t>(static_cast<unsigned char>(bytes[offset + i]));
  };
  return byteAt(0) << 24 | byteAt(1) << 16 | byteAt(2) << 8 | byteAt(3);
}

void appendBigEndian32(std::string &bytes, uint32_t value) {
  for (int shift = 24; shift >= 0; shift -= 8)
    bytes.push_back(static_cast<char>((value >> shift) & 0xff));
}

/// SplitMix64: a tiny, well-mixed generator whose output is fixed by its seed.
uint64_t splitMix64(uint64_t &state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

} // namespace

Dataset Dataset::select(const std::vector<int64_t> &indices) const {
  Dataset out;
  out.numFeatures = numFeatures;
  out.numClasses = numClasses;
  out.features.reserve(indices.size() * numFeatures);
  out.labels.reserve(indices.size());
  for (int64_t row : indices) {
    auto begin = features.begin() + row * numFeatures;
    out.features.insert(out.features.end(), begin, begin + numFeatures);
    out.labels.push_back(labels[row]);
  }
  return out;
}

Dataset Dataset::slice(int64_t begin, int64_t end) const {
  Dataset out;
  out.numFeatures = numFeatures;
  out.numClasses = numClasses;
  out.features.assign(features.begin() + begin * numFeatures,
                      features.begin() + end * numFeatures);
  out.labels.assign(labels.begin() + begin, labels.begin() + end);
  return out;
}

absl::StatusOr<Dataset> loadCsv(const std::string &path,
                                const CsvOptions &options) {
  absl::StatusOr<std::string> text = readDataFile(path, "data file");
  if (!text.ok())
    return text.status();
  Dataset data;
  int64_t lineNo = 0;
  int32_t maxLabel = -1;
  for (absl::string_view line : absl::StrSplit(*text, '\n')) {
    ++lineNo;
    line = absl::StripTrailingAsciiWhitespace(line);
    if (line.empty() || (options.hasHeader && lineNo == 1))
      continue;
    std::vector<absl::string_view> cells = absl::StrSplit(line, ',');
    int64_t numCells = static_cast<int64_t>(cells.size());
    if (numCells < 2)
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", lineNo,
                       ":1: expected at least two comma-separated "
                       "columns (features and a label)"));
    int64_t labelColumn = options.labelColumn < 0
                              ? numCells + options.labelColumn
                              : options.labelColumn;
    if (labelColumn < 0 || labelColumn >= numCells)
      return absl::InvalidArgumentError(absl::StrCat(
          path, ":", lineNo, ":1: label column ", options.labelColumn,
          " does not exist in a row of ", numCells, " columns"));
    if (data.numFeatures == 0)
      data.numFeatures = numCells - 1;
    else if (numCells - 1 != data.numFeatures)
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", lineNo, ":1: expected ", data.numFeatures + 1,
                       " columns as in the first row, found ", numCells));
    size_t column = 1;
    for (int64_t c = 0; c < numCells; ++c) {
      std::string cell(absl::StripAsciiWhitespace(cells[c]));
      char *end = nullptr;
      errno = 0;
      double value = std::strtod(cell.c_str(), &end);
      if (cell.empty() || *end != '\0' || errno == ERANGE ||
          !std::isfinite(value))
        return absl::InvalidArgumentError(
            absl::StrCat(path, ":", lineNo, ":", column,
                         ": expected a finite number, found '", cell, "'"));
      if (c == labelColumn) {
        if (value != std::floor(value) || value < 0 || value > 1e6)
          return absl::InvalidArgumentError(absl::StrCat(
              path, ":", lineNo, ":", column,
              ": expected a non-negative integer class label, found '", cell,
              "'"));
        data.labels.push_back(static_cast<int32_t>(value));
        maxLabel = std::max(maxLabel, data.labels.back());
      } else {
        data.features.push_back(static_cast<float>(value));
      }
      column += cells[c].size() + 1;
    }
  }
  if (data.size() == 0)
    return absl::InvalidArgumentError(absl::StrCat(path, ": no data rows"));
  data.numClasses = options.numClasses > 0 ? options.numClasses : maxLabel + 1;
  if (absl::Status status = checkLabels(data, path); !status.ok())
    return status;
  return data;
}

absl::StatusOr<Dataset> loadIdx(const std::string &imagesPath,
                                const std::string &labelsPath,
                                int64_t numClasses) {
  absl::StatusOr<std::string> images = readDataFile(imagesPath, "IDX images");
  if (!images.ok())
    return images.status();
  absl::StatusOr<std::string> labels = readDataFile(labelsPath, "IDX labels");
  if (!labels.ok())
    return labels.status();
  if (images->size() < 16 || readBigEndian32(*images, 0) != 0x00000803)
    return absl::InvalidArgumentError(absl::StrCat(
        imagesPath, ": not an IDX image file (expected magic 0x00000803: "
                    "unsigned bytes, 3 dimensions)"));
  if (labels->size() < 8 || readBigEndian32(*labels, 0) != 0x00000801)
    return absl::InvalidArgumentError(absl::StrCat(
        labelsPath, ": not an IDX label file (expected magic 0x00000801: "
                    "unsigned bytes, 1 dimension)"));
  uint64_t count = readBigEndian32(*images, 4);
  uint64_t rows = readBigEndian32(*images, 8);
  uint64_t cols = readBigEndian32(*images, 12);
  uint64_t labelCount = readBigEndian32(*labels, 4);
  if (count != labelCount)
    return absl::InvalidArgumentError(
        absl::StrCat(imagesPath, " holds ", count, " images but ", labelsPath,
                     " holds ", labelCount, " labels"));
  if (images->size() != 16 + count * rows * cols)
    return absl::InvalidArgumentError(absl::StrCat(
        imagesPath, ": header says ", count, "x", rows, "x", cols,
        " bytes of pixels after 16 header bytes, file has ", images->size()));
  if (labels->size() != 8 + count)
    return absl::InvalidArgumentError(absl::StrCat(
        labelsPath, ": header says ", count,
        " labels after 8 header bytes, file has ", labels->size()));
  Dataset data;
  data.numFeatures = static_cast<int64_t>(rows * cols);
  data.features.reserve(count * rows * cols);
  for (size_t i = 16; i < images->size(); ++i)
    data.features.push_back(static_cast<unsigned char>((*images)[i]));
  int32_t maxLabel = -1;
  for (size_t i = 8; i < labels->size(); ++i) {
    data.labels.push_back(static_cast<unsigned char>((*labels)[i]));
    maxLabel = std::max(maxLabel, data.labels.back());
  }
  data.numClasses = numClasses > 0 ? numClasses : maxLabel + 1;
  if (absl::Status status = checkLabels(data, labelsPath); !status.ok())
    return status;
  return data;
}

absl::Status writeIdx(const Dataset &data, int64_t rows, int64_t cols,
                      const std::string &imagesPath,
                      const std::string &labelsPath) {
  if (rows * cols != data.numFeatures)
    return absl::InvalidArgumentError(absl::StrCat(
        "cannot shape ", data.numFeatures, " features as ", rows, "x", cols));
  std::string images;
  appendBigEndian32(images, 0x00000803);
  appendBigEndian32(images, static_cast<uint32_t>(data.size()));
  appendBigEndian32(images, static_cast<uint32_t>(rows));
  appendBigEndian32(images, static_cast<uint32_t>(cols));
  for (float value : data.features)
    images.push_back(static_cast<char>(static_cast<unsigned char>(
        std::lround(std::clamp(value, 0.f, 255.f)))));
  std::string labels;
  appendBigEndian32(labels, 0x00000801);
  appendBigEndian32(labels, static_cast<uint32_t>(data.size()));
  for (int32_t label : data.labels)
    labels.push_back(static_cast<char>(label & 0xff));
  if (absl::Status status = writeDataFile(imagesPath, images); !status.ok())
    return status;
  return writeDataFile(labelsPath, labels);
}

absl::StatusOr<DatasetSplit> splitDataset(const Dataset &data,
                                          const SplitOptions &options) {
  if (options.validation < 0 || options.test < 0 ||
      options.validation + options.test >= data.size())
    return absl::InvalidArgumentError(
        absl::StrCat("cannot split ", data.size(), " rows into ",
                     options.validation, " validation and ", options.test,
                     " test rows and keep any for training"));
  std::vector<int64_t> order(data.size());
  std::iota(order.begin(), order.end(), 0);
  uint64_t state = options.seed;
  for (int64_t i = data.size() - 1; i > 0; --i) {
    int64_t j = static_cast<int64_t>(splitMix64(state) % (i + 1));
    std::swap(order[i], order[j]);
  }
  auto rowsFrom = [&](int64_t begin, int64_t end) {
    return data.select(
        std::vector<int64_t>(order.begin() + begin, order.begin() + end));
  };
  DatasetSplit split;
  split.validation = rowsFrom(0, options.validation);
  split.test = rowsFrom(options.validation, options.validation + options.test);
  int64_t trainBegin = options.validation + options.test;
  int64_t trainEnd = options.train > 0
                         ? std::min(data.size(), trainBegin + options.train)
                         : data.size();
  split.train = rowsFrom(trainBegin, trainEnd);
  return split;
}

} // namespace gevo
