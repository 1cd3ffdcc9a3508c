//===- dataset_test.cc - CSV/IDX loading and the deterministic split ------===//

#include "gevo/eval/workload/dataset.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include "gevo/eval/workload/data_file.h"
#include "gevo/eval/workload/feature_scaling.h"
#include "gevo/support/tool_paths.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

std::string tempPath(const std::string &name) {
  const char *dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/" + name;
}

std::string writeTemp(const std::string &name, const std::string &text) {
  std::string path = tempPath(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

Dataset loadDigits() {
  absl::StatusOr<Dataset> data =
      loadCsv(findRunfile("testdata/digits/digits.csv"));
  EXPECT_TRUE(data.ok()) << data.status();
  return data.ok() ? *data : Dataset();
}

TEST(DatasetTest, LoadsTheRealDigits) {
  Dataset digits = loadDigits();
  EXPECT_EQ(digits.size(), 1797);
  EXPECT_EQ(digits.numFeatures, 64);
  EXPECT_EQ(digits.numClasses, 10);
  // The first row of the file is a 0 whose third pixel is 5.
  EXPECT_EQ(digits.labels[0], 0);
  EXPECT_EQ(digits.features[2], 5.0f);
  std::vector<int> perClass(10, 0);
  for (int32_t label : digits.labels)
    ++perClass[label];
  for (int count : perClass)
    EXPECT_GT(count, 170);
  for (float pixel : digits.features) {
    EXPECT_GE(pixel, 0.0f);
    EXPECT_LE(pixel, 16.0f);
  }
}

TEST(DatasetTest, CsvErrorsNameLineAndColumn) {
  std::string path = writeTemp("bad.csv", "1,2,3\n4,x,6\n");
  absl::StatusOr<Dataset> data = loadCsv(path);
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(std::string(data.status().message()),
              HasSubstr("bad.csv:2:3: expected a finite number, found 'x'"));

  path = writeTemp("ragged.csv", "1,2,3\n4,5\n");
  data = loadCsv(path);
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(std::string(data.status().message()),
              HasSubstr("ragged.csv:2:1: expected 3 columns"));

  path = writeTemp("label.csv", "1,2,3.5\n");
  data = loadCsv(path);
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(std::string(data.status().message()),
              HasSubstr("label.csv:1:5: expected a non-negative integer"));

  data = loadCsv(tempPath("does-not-exist.csv"));
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(std::string(data.status().message()),
              HasSubstr("does-not-exist.csv: cannot open"));
}

TEST(DatasetTest, CsvHeaderAndLabelColumn) {
  std::string path =
      writeTemp("header.csv", "label,a,b\n2,0.5,1.5\n0,2.5,3.5\n");
  absl::StatusOr<Dataset> data =
      loadCsv(path, CsvOptions{/*labelColumn=*/0, /*hasHeader=*/true, 3});
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->size(), 2);
  EXPECT_EQ(data->numClasses, 3);
  EXPECT_EQ(data->labels, (std::vector<int32_t>{2, 0}));
  EXPECT_EQ(data->features, (std::vector<float>{0.5f, 1.5f, 2.5f, 3.5f}));
}

TEST(DatasetTest, IdxRoundTripsTheDigits) {
  Dataset digits = loadDigits();
  std::string images = tempPath("digits-images.idx3-ubyte");
  std::string labels = tempPath("digits-labels.idx1-ubyte");
  ASSERT_TRUE(writeIdx(digits, 8, 8, images, labels).ok());
  absl::StatusOr<Dataset> read = loadIdx(images, labels);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->numFeatures, 64);
  EXPECT_EQ(read->numClasses, 10);
  EXPECT_EQ(read->labels, digits.labels);
  EXPECT_EQ(read->features, digits.features);
}

TEST(DatasetTest, IdxRejectsWrongFiles) {
  Dataset digits = loadDigits();
  std::string images = tempPath("i.idx");
  std::string labels = tempPath("l.idx");
  ASSERT_TRUE(writeIdx(digits, 8, 8, images, labels).ok());
  // Swapped files: the magic numbers say which is which.
  absl::StatusOr<Dataset> read = loadIdx(labels, images);
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(std::string(read.status().message()),
              HasSubstr("not an IDX image file"));
  // A truncated image file.
  std::ifstream in(images, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  std::string truncated = writeTemp("t.idx", bytes.substr(0, bytes.size() - 7));
  read = loadIdx(truncated, labels);
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(std::string(read.status().message()),
              HasSubstr("header says 1797x8x8 bytes"));
  // A gzip file cut short is named as corrupt, not read as a short file.
  std::string gz = writeTemp("g.idx.gz", std::string("\x1f\x8b\x08\x00", 4));
  read = loadIdx(gz, labels);
  ASSERT_FALSE(read.ok());
  EXPECT_THAT(std::string(read.status().message()),
              HasSubstr("g.idx.gz: corrupt gzip data"));
}

TEST(DatasetTest, IdxAndCsvReadGzipAsDistributed) {
  Dataset digits = loadDigits();
  std::string images = tempPath("digits-images-idx3-ubyte.gz");
  std::string labels = tempPath("digits-labels-idx1-ubyte.gz");
  ASSERT_TRUE(writeIdx(digits, 8, 8, images, labels).ok());
  // Really compressed: gzip's magic bytes, and smaller than the 16-byte header
  // plus one byte per pixel.
  std::ifstream in(images, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(bytes[1]), 0x8b);
  EXPECT_LT(bytes.size(), 16u + 1797u * 64u / 2);
  absl::StatusOr<Dataset> read = loadIdx(images, labels);
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->labels, digits.labels);
  EXPECT_EQ(read->features, digits.features);

  std::string csv = tempPath("small.csv.gz");
  ASSERT_TRUE(writeDataFile(csv, "1,2,0\n3,4,1\n").ok());
  absl::StatusOr<Dataset> table = loadCsv(csv);
  ASSERT_TRUE(table.ok()) << table.status();
  EXPECT_EQ(table->features, (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(table->labels, (std::vector<int32_t>{0, 1}));
}

TEST(DatasetTest, ScalingTakesStatisticsFromTrainingOnly) {
  DatasetSplit split;
  for (Dataset *data : {&split.train, &split.validation, &split.test}) {
    data->numFeatures = 2;
    data->numClasses = 2;
  }
  // Feature 0 is 0, 10, 20 in training (mean 10, std sqrt(200/3)); feature 1
  // is constant 5 there, so it is only centred.
  split.train.features = {0, 5, 10, 5, 20, 5};
  split.train.labels = {0, 1, 0};
  split.validation.features = {30, 7};
  split.validation.labels = {1};
  split.test.features = {10, 5};
  split.test.labels = {0};
  scaleFeatures(split, {/*divideBy=*/10, Normalization::PerFeature});
  double std0 = std::sqrt(2.0 / 3.0); // Of 0, 1, 2 after dividing by 10.
  EXPECT_NEAR(split.train.features[0], -1 / std0, 1e-5);
  EXPECT_NEAR(split.train.features[4], 1 / std0, 1e-5);
  EXPECT_NEAR(split.train.features[1], 0, 1e-6);
  EXPECT_NEAR(split.validation.features[0], 2 / std0, 1e-5);
  EXPECT_NEAR(split.validation.features[1], 0.2, 1e-6);
  EXPECT_NEAR(split.test.features[0], 0, 1e-6);

  DatasetSplit global;
  global.train.numFeatures = global.validation.numFeatures = 2;
  global.test.numFeatures = 2;
  global.train.features = {1, 3, 1, 3}; // Mean 2, std 1 over all values.
  global.validation.features = {4, 0};
  global.test.features = {2, 2};
  scaleFeatures(global, {1, Normalization::Global});
  EXPECT_EQ(global.train.features, (std::vector<float>{-1, 1, -1, 1}));
  EXPECT_EQ(global.validation.features, (std::vector<float>{2, -2}));
  EXPECT_EQ(global.test.features, (std::vector<float>{0, 0}));
}

TEST(DatasetTest, SplitIsDisjointCompleteAndDeterministic) {
  Dataset digits = loadDigits();
  SplitOptions options{/*seed=*/20231018, /*validation=*/360, /*test=*/360};
  absl::StatusOr<DatasetSplit> first = splitDataset(digits, options);
  absl::StatusOr<DatasetSplit> second = splitDataset(digits, options);
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(first->train.size(), 1077);
  EXPECT_EQ(first->validation.size(), 360);
  EXPECT_EQ(first->test.size(), 360);
  EXPECT_EQ(first->validation.features, second->validation.features);
  EXPECT_EQ(first->test.labels, second->test.labels);
  EXPECT_EQ(first->train.labels, second->train.labels);

  // Every row lands in exactly one split: compare multisets of rows.
  auto rows = [](const Dataset &d) {
    std::multiset<std::vector<float>> out;
    for (int64_t i = 0; i < d.size(); ++i) {
      std::vector<float> row(d.features.begin() + i * d.numFeatures,
                             d.features.begin() + (i + 1) * d.numFeatures);
      row.push_back(static_cast<float>(d.labels[i]));
      out.insert(row);
    }
    return out;
  };
  std::multiset<std::vector<float>> all = rows(first->train);
  for (const auto &row : rows(first->validation))
    all.insert(row);
  for (const auto &row : rows(first->test))
    all.insert(row);
  EXPECT_EQ(all, rows(digits));

  // The split is shuffled (not the file order) and depends on the seed.
  EXPECT_NE(
      first->validation.labels,
      std::vector<int32_t>(digits.labels.begin(), digits.labels.begin() + 360));
  absl::StatusOr<DatasetSplit> other =
      splitDataset(digits, SplitOptions{7, 360, 360});
  ASSERT_TRUE(other.ok());
  EXPECT_NE(other->validation.labels, first->validation.labels);

  // A training limit keeps the first rows of the same training split.
  options.train = 1000;
  absl::StatusOr<DatasetSplit> limited = splitDataset(digits, options);
  ASSERT_TRUE(limited.ok());
  EXPECT_EQ(limited->train.size(), 1000);
  EXPECT_EQ(limited->validation.labels, first->validation.labels);
  EXPECT_EQ(limited->train.features, first->train.slice(0, 1000).features);
}

TEST(DatasetTest, SplitRejectsImpossibleSizes) {
  Dataset digits = loadDigits();
  absl::StatusOr<DatasetSplit> split =
      splitDataset(digits, SplitOptions{1, 1000, 797});
  ASSERT_FALSE(split.ok());
  EXPECT_THAT(std::string(split.status().message()),
              HasSubstr("keep any for training"));
}

} // namespace
} // namespace gevo
