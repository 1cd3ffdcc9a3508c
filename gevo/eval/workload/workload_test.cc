//===- workload_test.cc - Reading workload specs --------------------------===//

#include "gevo/eval/workload/workload.h"

#include "gevo/support/tool_paths.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

constexpr const char kMinimal[] = R"({
  "name": "w",
  "module": "m.mlir",
  "data": {"path": "d.csv", "classes": 3,
           "split": {"seed": 5, "validation": 2, "test": 2}},
  "arguments": [{"split": "train", "field": "features"},
                {"split": "eval", "field": "labels"}],
  "results": ["other", "logits"]
})";

std::string errorOf(const std::string &json) {
  absl::StatusOr<WorkloadSpec> spec = parseWorkloadSpec(json, "dir/w.json");
  EXPECT_FALSE(spec.ok());
  return spec.ok() ? "" : std::string(spec.status().message());
}

TEST(WorkloadTest, ParsesAMinimalSpecWithDefaults) {
  absl::StatusOr<WorkloadSpec> spec = parseWorkloadSpec(kMinimal, "dir/w.json");
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->name, "w");
  EXPECT_EQ(spec->modulePath, "dir/m.mlir");
  EXPECT_EQ(spec->data.whole.path, "dir/d.csv");
  EXPECT_EQ(spec->entry, "main");
  EXPECT_EQ(spec->data.numClasses, 3);
  EXPECT_EQ(spec->data.split.seed, 5u);
  ASSERT_EQ(spec->arguments.size(), 2u);
  EXPECT_EQ(spec->arguments[1].split, SplitRole::Eval);
  EXPECT_EQ(spec->arguments[1].field, DataField::Labels);
  EXPECT_EQ(spec->logitsResult(), 1);
  EXPECT_EQ(spec->warmup, 1);
  EXPECT_EQ(spec->repeats, 5);
  EXPECT_EQ(spec->objectives, (std::vector<std::string>{"runtime", "error"}));
}

TEST(WorkloadTest, LoadsTheShippedWorkloads) {
  for (const char *path :
       {"testdata/digits_mlp_train", "testdata/digits_mlp_predict"}) {
    absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(findRunfile(path));
    ASSERT_TRUE(spec.ok()) << spec.status();
    absl::StatusOr<DatasetSplit> data = loadWorkloadData(*spec);
    ASSERT_TRUE(data.ok()) << data.status();
    EXPECT_EQ(data->train.size(), 1077);
    EXPECT_EQ(data->validation.size(), 360);
    EXPECT_EQ(data->test.size(), 360);
  }
}

TEST(WorkloadTest, MalformedJsonNamesLineAndColumn) {
  EXPECT_THAT(errorOf("{\n  \"name\": \"w\",,\n}"),
              HasSubstr("dir/w.json:2:15: error: malformed JSON"));
}

TEST(WorkloadTest, WrongFieldsNameTheirPath) {
  std::string json = kMinimal;
  EXPECT_THAT(errorOf(std::string(json).replace(json.find("\"eval\""), 6,
                                                "\"holdout\"")),
              HasSubstr("at $.arguments[1].split: expected \"train\""));
  EXPECT_THAT(errorOf(std::string(json).replace(json.find("\"module\""), 8,
                                                "\"modul\"")),
              HasSubstr("at $: unknown key 'modul'"));
  EXPECT_THAT(errorOf(std::string(json).replace(json.find("\"other\""), 7,
                                                "\"logits\"")),
              HasSubstr("expected exactly one \"logits\" result, found 2"));
  EXPECT_THAT(errorOf(std::string(json).replace(json.find("\"classes\": 3"), 12,
                                                "\"classes\": 1")),
              HasSubstr("at $.data.classes: expected an integer >= 2"));
  EXPECT_THAT(errorOf(std::string(json).replace(json.find("\"test\": 2"), 9,
                                                "\"tset\": 2")),
              HasSubstr("at $.data.split: unknown key 'tset'"));
  EXPECT_THAT(errorOf("[1, 2]"), HasSubstr("at $: expected an object"));
}

TEST(WorkloadTest, WrongFieldsNameTheirLine) {
  std::string json = kMinimal;
  // kMinimal's line 4 holds data's "classes"; line 6 the second binding.
  EXPECT_THAT(errorOf(std::string(json).replace(json.find("\"classes\": 3"), 12,
                                                "\"classes\": 1")),
              HasSubstr("dir/w.json:4:29: error: at $.data.classes"));
  EXPECT_THAT(errorOf(std::string(json).replace(json.find("\"eval\""), 6,
                                                "\"holdout\"")),
              HasSubstr("dir/w.json:7:18: error: at $.arguments[1].split"));
  EXPECT_THAT(errorOf(std::string(json).replace(json.find("\"module\""), 8,
                                                "\"modul\"")),
              HasSubstr("dir/w.json:3:3: error: at $: unknown key 'modul'"));
}

constexpr const char kPerSplit[] = R"({
  "name": "w",
  "module": "m.mlir",
  "data": {"format": "idx", "classes": 10, "scale": 255,
           "normalize": "global",
           "train": {"images": "tr-i.gz", "labels": "tr-l.gz", "limit": 100},
           "validation": {"images": "te-i.gz", "labels": "te-l.gz",
                          "rows": [0, 50]},
           "test": {"images": "te-i.gz", "labels": "te-l.gz",
                    "rows": [50, 100]}},
  "arguments": [{"split": "eval", "field": "features"}],
  "results": ["logits"]
})";

TEST(WorkloadTest, ParsesAFilePerSplitWithRowsAndScaling) {
  absl::StatusOr<WorkloadSpec> spec =
      parseWorkloadSpec(kPerSplit, "dir/w.json");
  ASSERT_TRUE(spec.ok()) << spec.status();
  const DataSource &data = spec->data;
  EXPECT_TRUE(data.filePerSplit);
  EXPECT_EQ(data.format, DataSource::Format::Idx);
  EXPECT_EQ(data.train.imagesPath, "dir/tr-i.gz");
  EXPECT_EQ(data.train.begin, 0);
  EXPECT_EQ(data.train.end, 100);
  EXPECT_EQ(data.validation.labelsPath, "dir/te-l.gz");
  EXPECT_EQ(data.validation.end, 50);
  EXPECT_EQ(data.test.begin, 50);
  EXPECT_EQ(data.test.end, 100);
  EXPECT_THAT(data.test.where, HasSubstr("dir/w.json:9:12: error: at "
                                         "$.data.test"));
  EXPECT_EQ(data.scaling.divideBy, 255);
  EXPECT_EQ(data.scaling.normalize, Normalization::Global);
  // The shipped workloads keep their defaults: no scaling, one file.
  spec = parseWorkloadSpec(kMinimal, "dir/w.json");
  ASSERT_TRUE(spec.ok());
  EXPECT_FALSE(spec->data.filePerSplit);
  EXPECT_EQ(spec->data.scaling.divideBy, 1);
  EXPECT_EQ(spec->data.scaling.normalize, Normalization::None);
}

TEST(WorkloadTest, FilePerSplitErrors) {
  std::string json = kPerSplit;
  auto replaced = [&](const std::string &from, const std::string &to) {
    return std::string(json).replace(json.find(from), from.size(), to);
  };
  EXPECT_THAT(errorOf(replaced("\"test\": {", "\"tst\": {")),
              HasSubstr("unknown key 'tst'"));
  EXPECT_THAT(errorOf(replaced("[50, 100]", "[50, 50]")),
              HasSubstr(":10:21: error: at $.data.test.rows: expected [begin, "
                        "end]"));
  EXPECT_THAT(errorOf(replaced("\"limit\": 100", "\"limit\": 100, "
                                                 "\"rows\": [0, 1]")),
              HasSubstr("give either 'rows' or 'limit'"));
  EXPECT_THAT(errorOf(replaced("\"scale\": 255", "\"scale\": 0")),
              HasSubstr("at $.data.scale: expected a positive number"));
  EXPECT_THAT(errorOf(replaced("\"global\"", "\"minmax\"")),
              HasSubstr("at $.data.normalize: expected \"none\", "
                        "\"per_feature\" or \"global\""));
  EXPECT_THAT(errorOf(replaced("\"scale\": 255", "\"path\": \"d.csv\"")),
              HasSubstr("'path' belongs to a single data file"));
  EXPECT_THAT(
      errorOf(replaced("{\"images\": \"tr-i.gz\", \"labels\": \"tr-l.gz\", "
                       "\"limit\": 100}",
                       "\"tr-i.gz\"")),
      HasSubstr("at $.data.train: an IDX split needs an object"));
}

TEST(WorkloadTest, MissingFileIsReported) {
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec("no/such/dir");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(std::string(spec.status().message()),
              HasSubstr("no/such/dir: cannot open workload spec"));
}

} // namespace
} // namespace gevo
