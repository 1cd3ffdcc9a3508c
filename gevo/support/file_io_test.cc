//===- file_io_test.cc - Outputs are written whole and never through a link
#include "gevo/support/file_io.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace gevo {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string &name) {
  const char *tmp = std::getenv("TEST_TMPDIR");
  fs::path dir = fs::path(tmp ? tmp : "/tmp") / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(FileIoTest, WriteOutputReplacesAFileWholeAndLeavesNoTemporary) {
  fs::path dir = scratch("whole");
  std::string path = (dir / "out.txt").string();
  ASSERT_TRUE(writeOutput(path, "first").ok());
  ASSERT_TRUE(writeOutput(path, "second, longer").ok());
  EXPECT_EQ(*readFile(path, "output"), "second, longer");
  EXPECT_EQ(
      std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  struct stat info;
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0644u);
}

TEST(FileIoTest, WriteOutputReplacesASymlinkInsteadOfWritingThroughIt) {
  fs::path dir = scratch("symlink");
  std::string victim = (dir / "victim.txt").string();
  std::string link = (dir / "out.txt").string();
  ASSERT_TRUE(writeOutput(victim, "keep me").ok());
  fs::create_symlink(victim, link);
  ASSERT_TRUE(writeOutput(link, "new output").ok());
  EXPECT_EQ(*readFile(victim, "victim"), "keep me");
  EXPECT_FALSE(fs::is_symlink(link));
  EXPECT_EQ(*readFile(link, "output"), "new output");
}

TEST(FileIoTest, WriteOutputWritesADeviceAsItIs) {
  EXPECT_TRUE(writeOutput("/dev/null", "discarded").ok());
}

TEST(FileIoTest, WriteOutputNamesThePathItCannotWrite) {
  absl::Status status = writeOutput("/nonexistent-dir/out.txt", "x");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message().rfind("/nonexistent-dir/out.txt: cannot write", 0),
            0u)
      << status.message();
}

} // namespace
} // namespace gevo
