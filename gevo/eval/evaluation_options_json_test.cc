//===- evaluation_options_json_test.cc - run.json / MPI evaluation fields -===//

#include "gevo/eval/evaluation_options_json.h"

#include "gtest/gtest.h"

namespace gevo {
namespace {

TEST(EvaluationOptionsJson, RoundTripsEveryFieldIncludingTheTarget) {
  EvaluationOptions options;
  options.pipeline = "plain";
  options.codegen.llvmPipeline = "default<O1>";
  options.codegen.optLevel = 1;
  options.warmup = 3;
  options.repeats = 7;
  options.target = "cuda";
  llvm::json::Object object;
  writeEvaluationOptions(options, object);
  EvaluationOptions read;
  ASSERT_TRUE(readEvaluationOptions(object, read, /*strict=*/true).ok());
  EXPECT_EQ(read.pipeline, "plain");
  EXPECT_EQ(read.codegen.llvmPipeline, "default<O1>");
  EXPECT_EQ(read.codegen.optLevel, 1);
  EXPECT_EQ(read.warmup, 3);
  EXPECT_EQ(read.repeats, 7);
  EXPECT_EQ(read.target, "cuda");
}

TEST(EvaluationOptionsJson, AnOlderRunJsonReadsLenientlyAsTheCpuTarget) {
  llvm::json::Object object{{"pipeline", "vector"}, {"warmup", 2}};
  EvaluationOptions read;
  read.repeats = 9;
  ASSERT_TRUE(readEvaluationOptions(object, read, /*strict=*/false).ok());
  EXPECT_EQ(read.pipeline, "vector");
  EXPECT_EQ(read.warmup, 2);
  EXPECT_EQ(read.repeats, 9); // absent: kept
  EXPECT_EQ(read.target, "cpu");
  absl::Status strict = readEvaluationOptions(object, read, /*strict=*/true);
  EXPECT_FALSE(strict.ok());
  EXPECT_NE(strict.message().find("\"llvm_pipeline\""), std::string::npos)
      << strict.message();
}

TEST(EvaluationOptionsJson, AnUnknownTargetIsAnError) {
  llvm::json::Object object{{"target", "tpu"}};
  EvaluationOptions read;
  absl::Status status = readEvaluationOptions(object, read, false);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("'tpu'"), std::string::npos);
}

} // namespace
} // namespace gevo
