//===- workload_test.cc - Reading workload specs --------------------------===//

#include "gevo/eval/workload.h"

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
  EXPECT_EQ(spec->data.path, "dir/d.csv");
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

TEST(WorkloadTest, MissingFileIsReported) {
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec("no/such/dir");
  ASSERT_FALSE(spec.ok());
  EXPECT_THAT(std::string(spec.status().message()),
              HasSubstr("no/such/dir: cannot open workload spec"));
}

} // namespace
} // namespace gevo
