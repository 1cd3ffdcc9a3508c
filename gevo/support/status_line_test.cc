//===- status_line_test.cc - The heartbeat of a status line ---------------===//

#include "gevo/support/status_line.h"

#include <atomic>
#include <cstdio>
#include <sstream>
#include <thread>
#include <vector>

#include "gevo/support/file_lines_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;

TEST(StatusLineTest, AFileGetsALineEveryPeriodWhileTheWorkIsSilent) {
  std::FILE *file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    StatusLine status(file, /*live=*/false, std::chrono::milliseconds(100));
    status.set("generation 1/3");
    // Nothing else happens: the heartbeat alone must speak, again and again.
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
  }
  std::vector<std::string> lines = linesOf(file);
  ASSERT_GE(lines.size(), 3u);
  for (const std::string &line : lines)
    EXPECT_THAT(line, HasSubstr("generation 1/3  ["));
  std::fclose(file);
}

TEST(StatusLineTest, AnEstimateCountsDown) {
  std::FILE *file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    StatusLine status(file, false, std::chrono::hours(1));
    status.set("re-measuring the front: 2 of 5", 130);
    status.print();
    status.set("re-measuring the front: 5 of 5", 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    status.print();
  }
  std::vector<std::string> lines = linesOf(file);
  ASSERT_EQ(lines.size(), 2u); // The heartbeat's period has not passed.
  EXPECT_THAT(lines[0], HasSubstr("2 of 5  [0s, about 2m10s left]"));
  EXPECT_THAT(lines[1], HasSubstr("5 of 5  [0s, over its estimate]"));
  std::fclose(file);
}

TEST(StatusLineTest, ATerminalLineIsRedrawnInPlace) {
  std::FILE *file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  {
    StatusLine status(file, /*live=*/true);
    status.set("evals 10");
    std::this_thread::sleep_for(std::chrono::milliseconds(120));
    status.set("evals 200");
    status.clear();
  }
  std::vector<std::string> lines = linesOf(file);
  ASSERT_EQ(lines.size(), 1u); // No newline: carriage returns only.
  EXPECT_THAT(lines[0], HasSubstr("\revals 10  [0s]"));
  EXPECT_THAT(lines[0], HasSubstr("\revals 200  [0s]"));
  std::fclose(file);
}

TEST(StatusLineTest, PrintDueWaitsForThePeriodAndFlushPrintsTheLast) {
  std::FILE *file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  std::atomic<int> seconds{100};
  {
    StatusLine status(file, /*live=*/false, std::chrono::seconds(10), [&] {
      return StatusLine::Clock::time_point(std::chrono::seconds(seconds));
    });
    for (int step = 0; step < 25; ++step) { // 25 steps, 1 s apart.
      status.set("step " + std::to_string(step));
      status.printDue();
      ++seconds;
    }
    status.flush();
    status.flush(); // Printed already: nothing more.
  }
  // Lines at 0, 10 and 20 s (the heartbeat may say one of them), and the
  // last at 25 s.
  std::vector<std::string> lines = linesOf(file);
  std::fclose(file);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_THAT(lines[0], HasSubstr("step 0  [0s]"));
  EXPECT_THAT(lines[1], HasSubstr("  [10s]"));
  EXPECT_THAT(lines[2], HasSubstr("  [20s]"));
  EXPECT_THAT(lines[3], HasSubstr("step 24  [25s]"));
}

TEST(StatusLineTest, WithoutAStreamItSaysNothing) {
  StatusLine status(nullptr, false, std::chrono::milliseconds(1));
  status.set("nothing");
  status.print();
  status.clear();
}

TEST(StatusLineTest, FormatsDurations) {
  EXPECT_EQ(StatusLine::formatSeconds(42.4), "42s");
  EXPECT_EQ(StatusLine::formatSeconds(185), "3m05s");
  EXPECT_EQ(StatusLine::formatSeconds(3725), "1h02m");
  EXPECT_EQ(StatusLine::formatSeconds(-3), "0s");
}

} // namespace
} // namespace gevo
