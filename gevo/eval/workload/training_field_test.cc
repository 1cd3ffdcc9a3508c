// A workload's "training" field: the program generated on load is the very
// text //:make_training writes (the shipped model.mlir files), what its
// patches record, and bad fields located at their line in the spec.
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/eval/workload/workload_module.h"
#include "gevo/ir/frontend.h"
#include "gevo/support/file_io.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

const char kDigits[] = "testdata/digits_mlp_train_generated";

std::string readText(const std::string &path) {
  absl::StatusOr<std::string> text = readFile(path, "test file");
  EXPECT_TRUE(text.ok()) << text.status();
  return text.ok() ? *text : "";
}

/// The digits spec with `from` replaced by `to`, written beside a copy of
/// its forward module (the data path made absolute); returns its path.
std::string writeDigitsVariant(const std::string &name, const std::string &from,
                               const std::string &to) {
  std::filesystem::path dir =
      std::filesystem::path(std::getenv("TEST_TMPDIR")) / name;
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(absl::StrCat(kDigits, "/forward.mlir"),
                             dir / "forward.mlir",
                             std::filesystem::copy_options::overwrite_existing);
  std::string text = readText(absl::StrCat(kDigits, "/training.json"));
  EXPECT_TRUE(absl::StrContains(text, from)) << from;
  std::string data =
      std::filesystem::absolute("testdata/digits/digits.csv").string();
  text =
      absl::StrReplaceAll(text, {{from, to}, {"../digits/digits.csv", data}});
  std::ofstream(dir / "workload.json") << text;
  return (dir / "workload.json").string();
}

/// The 1-based line of the first line of `path` that holds `needle`.
int lineOf(const std::string &path, const std::string &needle) {
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (absl::StrContains(line, needle))
      return n;
  return 0;
}

absl::StatusOr<std::string> generated(const std::string &path,
                                      SourceForm *form = nullptr) {
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(path);
  if (!spec.ok())
    return spec.status();
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(*spec);
  if (!data.ok())
    return data.status();
  return readWorkloadModuleText(*spec, *data, form);
}

TEST(TrainingFieldTest, LoadsTheProgramMakeTrainingWrites) {
  // make_training_test checks that //:make_training writes these files.
  for (const char *dir : {"testdata/digits_mlp_train_generated",
                          "testdata/fashion_mlp_train",
                          "testdata/fashion_cnn_train_generated"}) {
    SourceForm form = SourceForm::Linalg;
    absl::StatusOr<std::string> text =
        generated(absl::StrCat(dir, "/training.json"), &form);
    ASSERT_TRUE(text.ok()) << dir << ": " << text.status();
    EXPECT_EQ(form, SourceForm::Training) << dir;
    EXPECT_TRUE(*text == readText(absl::StrCat(dir, "/model.mlir")))
        << dir << ": the generated program differs from model.mlir";
  }
}

TEST(TrainingFieldTest, PatchesRecordTheForwardModuleAndTheSpecsHash) {
  absl::StatusOr<WorkloadSpec> spec =
      loadWorkloadSpec(absl::StrCat(kDigits, "/training.json"));
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->entry, "train_eval");
  EXPECT_EQ(spec->forwardEntry, "main");
  absl::StatusOr<DatasetSplit> data = loadWorkloadData(*spec);
  ASSERT_TRUE(data.ok()) << data.status();
  absl::StatusOr<ImportSettings> import = workloadImport(*spec, *data);
  ASSERT_TRUE(import.ok()) << import.status();
  std::string line = sourceLine(SourceForm::Training, *import);
  EXPECT_EQ(line, absl::StrCat("training forward=forward.mlir spec=",
                               spec->trainingHash));
  ASSERT_EQ(spec->trainingHash.size(), 16u);

  // The hash is the field's, not its layout's: keys reordered and spaced
  // differently give the same; another learning rate another.
  std::string reordered =
      writeDigitsVariant("reordered", "\"batch\": 32,\n    \"epochs\": 5,",
                         "\"epochs\":5,   \"batch\":32,");
  absl::StatusOr<WorkloadSpec> same = loadWorkloadSpec(reordered);
  ASSERT_TRUE(same.ok()) << same.status();
  EXPECT_EQ(same->trainingHash, spec->trainingHash);
  absl::StatusOr<WorkloadSpec> other = loadWorkloadSpec(writeDigitsVariant(
      "lr", "\"learning_rate\": 0.01", "\"learning_rate\": 0.02"));
  ASSERT_TRUE(other.ok()) << other.status();
  EXPECT_NE(other->trainingHash, spec->trainingHash);
}

TEST(TrainingFieldTest, BadFieldsNameTheirLine) {
  std::string path =
      writeDigitsVariant("adam", "\"kind\": \"sgd\"", "\"kind\": \"adam\"");
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(path);
  ASSERT_FALSE(spec.ok());
  EXPECT_TRUE(absl::StartsWith(
      spec.status().message(),
      absl::StrCat(path, ":", lineOf(path, "adam"),
                   ":19: error: at $.training.optimizer.kind: ")))
      << spec.status();

  path = writeDigitsVariant("unknown", "\"epochs\": 5,",
                            "\"epochs\": 5,\n    \"speed\": 2,");
  spec = loadWorkloadSpec(path);
  ASSERT_FALSE(spec.ok());
  EXPECT_TRUE(absl::StartsWith(
      spec.status().message(),
      absl::StrCat(path, ":", lineOf(path, "speed"),
                   ":5: error: at $.training.speed: unknown field")))
      << spec.status();

  // Found only when the data is loaded: a batch larger than the rows.
  path = writeDigitsVariant("batch", "\"batch\": 32", "\"batch\": 5000");
  absl::StatusOr<std::string> text = generated(path);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message(),
            absl::StrCat(path, ":", lineOf(path, "5000"),
                         ":5: error: at $.training.batch: 5000 is larger than "
                         "the 1077 training rows"));

  path = writeDigitsVariant("import_batch", "\"entry\": \"main\",",
                            "\"entry\": \"main\", \"batch\": 4,");
  spec = loadWorkloadSpec(path);
  ASSERT_FALSE(spec.ok());
  EXPECT_TRUE(absl::StrContains(spec.status().message(), "at $.batch: "))
      << spec.status();
}

} // namespace
} // namespace gevo
