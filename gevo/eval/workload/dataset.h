//===- dataset.h - Labelled data sets and their deterministic splits
//-------===//
//
// A classification data set held in memory (features as float rows, integer
// labels), loaders for CSV and the MNIST IDX format (plain or gzip), and the
// seeded split into train / validation / test that a single-file workload uses.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_DATASET_H
#define GEVO_EVAL_DATASET_H

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace gevo {

/// Rows of `numFeatures` floats, one integer label per row in [0, numClasses).
struct Dataset {
  int64_t numFeatures = 0;
  int64_t numClasses = 0;
  std::vector<float> features; // size() * numFeatures values, row-major.
  std::vector<int32_t> labels;

  int64_t size() const { return static_cast<int64_t>(labels.size()); }
  /// The rows at `indices`, in that order.
  Dataset select(const std::vector<int64_t> &indices) const;
  /// Rows [begin, end), 0 <= begin <= end <= size().
  Dataset slice(int64_t begin, int64_t end) const;
};

struct CsvOptions {
  /// Column holding the label; negative counts from the end (-1: last).
  int64_t labelColumn = -1;
  bool hasHeader = false;
  /// 0: one more than the largest label seen.
  int64_t numClasses = 0;
};

/// Reads a comma-separated file of numbers, gzip-compressed or not. Errors
/// name `path:line:col`.
absl::StatusOr<Dataset> loadCsv(const std::string &path,
                                const CsvOptions &options = {});

/// Reads an MNIST-format pair: an IDX image file (magic 0x00000803, unsigned
/// bytes, N x rows x cols) and an IDX label file (magic 0x00000801, N bytes).
/// Features are the raw byte values as floats. Either file may be
/// gzip-compressed, as MNIST's are distributed.
absl::StatusOr<Dataset> loadIdx(const std::string &imagesPath,
                                const std::string &labelsPath,
                                int64_t numClasses = 0);

/// Writes `data` as an IDX pair (features rounded to bytes, shaped
/// N x rows x cols with rows * cols == numFeatures); a path ending in ".gz"
/// is written gzip-compressed.
absl::Status writeIdx(const Dataset &data, int64_t rows, int64_t cols,
                      const std::string &imagesPath,
                      const std::string &labelsPath);

struct SplitOptions {
  uint64_t seed = 0;
  int64_t validation = 0;
  int64_t test = 0;
  /// At most this many training rows (0: all the rows left).
  int64_t train = 0;
};

struct DatasetSplit {
  Dataset train;
  Dataset validation;
  Dataset test;
};

/// Shuffles the row indices with a seeded Fisher-Yates shuffle (SplitMix64, so
/// the result is the same on every platform and standard library), then takes
/// the first `validation` rows, the next `test` rows, and leaves the rest (or
/// the first `train` of the rest) for training.
absl::StatusOr<DatasetSplit> splitDataset(const Dataset &data,
                                          const SplitOptions &options);

} // namespace gevo

#endif // GEVO_EVAL_DATASET_H
