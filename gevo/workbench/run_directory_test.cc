//===- run_directory_test.cc - A run's files written and read back --------===//

#include "gevo/workbench/run_directory.h"

#include "gevo/workbench/history_writer.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gtest/gtest.h"

namespace gevo {
namespace {

std::string scratch(const std::string &name) {
  const char *root = std::getenv("TEST_TMPDIR");
  std::string dir = std::string(root ? root : "/tmp") + "/" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(RunDirectoryTest, RunAndFrontRoundTrip) {
  RunDirectory dir(scratch("round_trip"));
  ASSERT_TRUE(dir.create().ok());
  EXPECT_FALSE(dir.hasCheckpoint());
  llvm::json::Object run{
      {"status", "finished"},
      {"config", llvm::json::Object{{"workload", "testdata/w"}}},
      {"objectives", llvm::json::Array{"runtime", "error"}}};
  ASSERT_TRUE(dir.writeRun(std::move(run)).ok());
  absl::StatusOr<RunInfo> info = dir.readRun();
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->workloadPath, "testdata/w");
  EXPECT_EQ(info->objectives, (std::vector<std::string>{"runtime", "error"}));

  Patch patch;
  patch.model = "0123456789abcdef";
  std::string name = RunDirectory::frontPatchName(0);
  EXPECT_EQ(name, "front/01.gevo");
  ASSERT_TRUE(dir.writeFrontPatch(name, patch).ok());
  llvm::json::Array members;
  members.push_back(llvm::json::Object{{"patch", name}, {"key", "k1"}});
  ASSERT_TRUE(
      dir.writeFront(llvm::json::Object{{"members", std::move(members)}}).ok());
  absl::StatusOr<std::vector<FrontEntry>> front = dir.readFront();
  ASSERT_TRUE(front.ok()) << front.status();
  ASSERT_EQ(front->size(), 1u);
  EXPECT_EQ((*front)[0].patchPath, name);
  EXPECT_EQ((*front)[0].key, "k1");
  absl::StatusOr<Patch> back = dir.readPatch(name);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->model, "0123456789abcdef");

  ASSERT_TRUE(dir.writeCheckpoint("{}").ok());
  EXPECT_TRUE(dir.hasCheckpoint());
  EXPECT_EQ(*dir.readCheckpoint(), "{}");
}

TEST(RunDirectoryTest, ReadsFilesWrittenBefore) {
  // As a run of an earlier version left them: no keys in front.json, CSV
  // fields quoted where they hold commas.
  std::string path = scratch("old_run");
  std::filesystem::create_directories(path);
  std::ofstream(path + "/run.json")
      << "{\"config\": {\"workload\": \"w\", \"seed\": 1}, "
         "\"objectives\": [\"static_cost\", \"error\"]}\n";
  std::ofstream(path + "/front.json")
      << "{\"members\": [{\"patch\": \"front/01.gevo\"}]}\n";
  std::ofstream(path + "/history.csv")
      << "generation,key,outcome,edits,kinds,static_cost,error\n"
         "0,abc,ok,1,delete,10,0.5\n1,def,crash,2,\"a,b\",,\n";
  RunDirectory dir(path);
  absl::StatusOr<RunInfo> info = dir.readRun();
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->workloadPath, "w");
  absl::StatusOr<std::vector<FrontEntry>> front = dir.readFront();
  ASSERT_TRUE(front.ok()) << front.status();
  ASSERT_EQ(front->size(), 1u);
  EXPECT_EQ((*front)[0].key, "");
  CsvTable history = dir.readHistory();
  ASSERT_EQ(history.rows.size(), 2u);
  EXPECT_EQ(history.column("error"), 6u);
  EXPECT_EQ(history.column("missing"), history.header.size());
  EXPECT_EQ(history.rows[1][4], "a,b");
  EXPECT_TRUE(dir.readOperators().header.empty());
  EXPECT_FALSE(RunDirectory(path + "/none").readRun().ok());
}

TEST(RunDirectoryTest, ResumedHistoryKeepsFinishedGenerations) {
  RunDirectory dir(scratch("history"));
  ASSERT_TRUE(dir.create().ok());
  std::string path = dir.historyPath();
  std::vector<std::string> objectives = {"runtime", "error"};
  std::string header = historyHeader(objectives);
  std::ofstream(path) << header << "\n0,a,ok\n1,b,ok\n2,c,crash\n";
  HistoryWriter writer;
  ASSERT_TRUE(writer.open(path, objectives, 1).ok());
  writer.flush();
  CsvTable kept = dir.readHistory();
  ASSERT_EQ(kept.rows.size(), 2u);
  EXPECT_EQ(kept.rows[1][1], "b");
  EXPECT_EQ(kept.column("child_ms"), 11u);

  // A run of a version without child_ms: appending to it would shift the
  // columns after codegen_ms, so resuming is refused with both headers.
  std::string old = header;
  old.erase(old.find(",child_ms"), 9);
  std::ofstream(path) << old << "\n0,a,ok\n";
  absl::Status status = HistoryWriter().open(path, objectives, 0);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find(path + ":1:"), std::string::npos);
  EXPECT_NE(status.message().find("expected: " + header), std::string::npos);
  EXPECT_EQ(dir.readHistory().rows.size(), 1u)
      << "the old file is left as it was";
}

} // namespace
} // namespace gevo
