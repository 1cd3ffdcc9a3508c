//===- idx_workload_test.cc - A workload over MNIST-format .gz files ------===//
//
// The data as users have it: an IDX train file and a separate "t10k" file,
// both gzip-compressed and unmodified, pixel values on a byte scale. The
// workload takes row ranges of them, scales and normalises the features, and
// the digits training module evaluates on them end to end.
//
//===----------------------------------------------------------------------===//

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gevo/eval/evaluator.h"
#include "gevo/eval/workload/dataset.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/eval/workload/workload_check.h"
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

/// The digits with every pixel times 15 (0..240, as bytes), written as an
/// MNIST-style pair of gzip'd IDX files: rows 0..1436 as "train", the last
/// 360 as "t10k".
Dataset writeFixture() {
  absl::StatusOr<Dataset> digits =
      loadCsv(findRunfile("testdata/digits/digits.csv"));
  EXPECT_TRUE(digits.ok()) << digits.status();
  for (float &pixel : digits->features)
    pixel *= 15;
  Dataset train = digits->slice(0, 1437), t10k = digits->slice(1437, 1797);
  EXPECT_TRUE(writeIdx(train, 8, 8, tempPath("train-images-idx3-ubyte.gz"),
                       tempPath("train-labels-idx1-ubyte.gz"))
                  .ok());
  EXPECT_TRUE(writeIdx(t10k, 8, 8, tempPath("t10k-images-idx3-ubyte.gz"),
                       tempPath("t10k-labels-idx1-ubyte.gz"))
                  .ok());
  return *digits;
}

/// A spec for the digits training module over the fixture: 1077 training
/// rows, validation from t10k, test from the training file's unused rows.
std::string specText(const std::string &scaling) {
  std::string model = std::filesystem::absolute(
                          findRunfile("testdata/digits_mlp_train/model.mlir"))
                          .string();
  return R"({
  "name": "digits_from_idx_gz",
  "module": ")" +
         model + R"(",
  "data": {
    "format": "idx",
    "classes": 10,
    "train": {"images": "train-images-idx3-ubyte.gz",
              "labels": "train-labels-idx1-ubyte.gz", "limit": 1077},
    "validation": {"images": "t10k-images-idx3-ubyte.gz",
                   "labels": "t10k-labels-idx1-ubyte.gz"},
    "test": {"images": "train-images-idx3-ubyte.gz",
             "labels": "train-labels-idx1-ubyte.gz", "rows": [1077, 1437]})" +
         scaling + R"(
  },
  "arguments": [{"split": "train", "field": "features"},
                {"split": "train", "field": "labels_onehot"},
                {"split": "eval", "field": "features"}],
  "results": ["logits"],
  "timing": {"warmup": 0, "repeats": 1}
})";
}

WorkloadSpec writeSpec(const std::string &scaling) {
  std::string path = tempPath("workload.json");
  std::ofstream(path) << specText(scaling);
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(path);
  EXPECT_TRUE(spec.ok()) << spec.status();
  return spec.ok() ? *spec : WorkloadSpec();
}

TEST(IdxWorkloadTest, RowRangesOfGzipFilesScaledBack) {
  Dataset digits = writeFixture();
  WorkloadSpec spec = writeSpec(R"(, "scale": 15)");
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(spec);
  ASSERT_TRUE(data.ok()) << data.status();
  EXPECT_EQ(data->train.size(), 1077);
  EXPECT_EQ(data->validation.size(), 360);
  EXPECT_EQ(data->test.size(), 360);
  // Dividing by 15 gives back the digits' own 0..16 pixels, row for row.
  EXPECT_EQ(data->train.features[2], 5.0f); // The first row's third pixel.
  EXPECT_EQ(data->validation.labels, digits.slice(1437, 1797).labels);
  EXPECT_EQ(data->test.labels, digits.slice(1077, 1437).labels);
  for (size_t i = 0; i < data->test.features.size(); ++i)
    ASSERT_EQ(data->test.features[i] * 15, digits.features[1077 * 64 + i]);
}

TEST(IdxWorkloadTest, NormalisedFeaturesTrainAndScore) {
  writeFixture();
  WorkloadSpec spec =
      writeSpec(R"(, "scale": 255, "normalize": "per_feature")");
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(spec);
  ASSERT_TRUE(data.ok()) << data.status();
  // Pixel 20 varies in training: mean 0 and std 1 there after normalising.
  double sum = 0, squares = 0;
  for (int64_t row = 0; row < data->train.size(); ++row) {
    double value = data->train.features[row * 64 + 20];
    sum += value;
    squares += value * value;
  }
  EXPECT_NEAR(sum / 1077, 0, 1e-4);
  EXPECT_NEAR(squares / 1077, 1, 1e-3);

  absl::StatusOr<std::string> check = checkWorkload(spec);
  ASSERT_TRUE(check.ok()) << check.status();
  EXPECT_THAT(*check, HasSubstr("train 1077 rows, validation 360, test 360"));

  absl::StatusOr<EvaluationReport> report = evaluateWorkload(spec, {});
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->validation.total, 360);
  EXPECT_EQ(report->test.total, 360);
  // The loop's learning rate was chosen for the raw 0..16 pixels, so it learns
  // less from inputs of unit variance in its 5 epochs, but it learns: chance
  // is 0.1.
  EXPECT_GT(report->validation.accuracy(), 0.5);
  EXPECT_GT(report->test.accuracy(), 0.5);
}

TEST(IdxWorkloadTest, ScaledBackItScoresAsTheSameRowsFromCsv) {
  writeFixture();
  absl::StatusOr<EvaluationReport> fromIdx =
      evaluateWorkload(writeSpec(R"(, "scale": 15)"), {});
  ASSERT_TRUE(fromIdx.ok()) << fromIdx.status();
  // The same rows of the digits' own CSV file, by row range.
  std::string csv =
      std::filesystem::absolute(findRunfile("testdata/digits/digits.csv"))
          .string();
  std::string text = specText("");
  size_t begin = text.find("\"format\": \"idx\"");
  size_t end = text.find("\n  },\n  \"arguments\"");
  ASSERT_NE(end, std::string::npos);
  text.replace(begin, end - begin,
               "\"format\": \"csv\", \"classes\": 10,\n"
               "    \"train\": {\"path\": \"" +
                   csv +
                   "\", \"limit\": 1077},\n"
                   "    \"validation\": {\"path\": \"" +
                   csv +
                   "\", \"rows\": [1437, 1797]},\n"
                   "    \"test\": {\"path\": \"" +
                   csv + "\", \"rows\": [1077, 1437]}");
  std::string path = tempPath("csv.json");
  std::ofstream(path) << text;
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(path);
  ASSERT_TRUE(spec.ok()) << spec.status();
  absl::StatusOr<EvaluationReport> fromCsv = evaluateWorkload(*spec, {});
  ASSERT_TRUE(fromCsv.ok()) << fromCsv.status();
  // The training in the IR is deterministic: the same data, the same answers.
  EXPECT_EQ(fromIdx->validation.correct, fromCsv->validation.correct);
  EXPECT_EQ(fromIdx->test.correct, fromCsv->test.correct);
  EXPECT_GT(fromIdx->validation.accuracy(), 0.75); // Chance is 0.1.
}

TEST(IdxWorkloadTest, RowsOutsideTheFileOrOverlappingArePointedAt) {
  writeFixture();
  std::string text = specText("");
  std::string path = tempPath("bad.json");
  std::ofstream(path) << std::string(text).replace(text.find("[1077, 1437]"),
                                                   12, "[1077, 1500]");
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(path);
  ASSERT_TRUE(spec.ok()) << spec.status();
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(*spec);
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(std::string(data.status().message()),
              HasSubstr("bad.json:11:5: error: at $.data.test: rows [1077, "
                        "1500) are not inside"));
  std::ofstream(path) << std::string(text).replace(text.find("[1077, 1437]"),
                                                   12, "[1000, 1437]");
  spec = loadWorkloadSpec(path);
  ASSERT_TRUE(spec.ok()) << spec.status();
  data = loadWorkloadData(*spec);
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(std::string(data.status().message()),
              HasSubstr("overlap the rows [0, 1077) that the train split"));
}

} // namespace
} // namespace gevo
