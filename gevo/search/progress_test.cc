//===- progress_test.cc - A log gets a progress line at most every 10 s ---===//
//
// The search's progress calls, driven by a fake clock, into a file: at most
// one line per 10 s in every phase, plus each phase's last line.
//
//===----------------------------------------------------------------------===//

#include "gevo/search/progress.h"

#include <atomic>
#include <cstdio>
#include <regex>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gevo/support/file_lines_testing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

/// The seconds a line says were spent: "...  [1m05s" or "...  [42s".
int secondsOf(const std::string &line) {
  std::smatch m;
  if (std::regex_search(line, m, std::regex(R"(\[(?:(\d+)m)?(\d+)s)")))
    return (m[1].matched ? 60 * std::stoi(m[1]) : 0) + std::stoi(m[2]);
  return -1;
}

/// Whole seconds on a clock the test moves.
class FakeClock {
public:
  StatusLine::Now now() {
    return [this] {
      return StatusLine::Clock::time_point(std::chrono::seconds(seconds));
    };
  }
  void advance(int by) { seconds += by; }
  int elapsed() const { return seconds - 1000; }

private:
  std::atomic<int> seconds{1000};
};

TEST(ProgressTest, ALogGetsAtMostOneLinePerPeriodInEveryPhase) {
  std::FILE *file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  FakeClock clock;
  {
    ProgressLine progress(file, /*live=*/false, std::chrono::seconds(10),
                          clock.now());
    progress.phase("measuring the unmodified program");
    clock.advance(2);
    ProgressState state;
    state.generations = 40;
    for (int g = 0; g <= 40; ++g) { // A generation every 3 s.
      state.generation = g;
      for (int e = 0; e < 3; ++e) {
        progress.update(state);
        clock.advance(1);
      }
      progress.generationDone(state);
    }
    progress.finish();
    // The front's re-measurement: 75 runs, five a second.
    for (int done = 0; done <= 75; ++done) {
      progress.phase(
          absl::StrCat("re-measuring the front: ", done, " of 75 runs done"),
          75 - done);
      if (done % 5 == 4)
        clock.advance(1);
    }
    progress.finish();
  }
  std::vector<std::string> lines = linesOf(file);
  std::fclose(file);
  ASSERT_GE(lines.size(), 3u);
  // At most one line per 10 s, plus the last line of each of three phases.
  EXPECT_LE(static_cast<int>(lines.size()), clock.elapsed() / 10 + 1 + 3);
  EXPECT_THAT(lines.front(), StartsWith("measuring the unmodified program"));
  EXPECT_THAT(lines.back(), StartsWith("re-measuring the front: 75 of 75"));
  int lastGeneration = -1;
  for (size_t i = 0; i < lines.size(); ++i)
    if (lines[i].rfind("gen ", 0) == 0)
      lastGeneration = static_cast<int>(i);
  ASSERT_GE(lastGeneration, 0);
  EXPECT_THAT(lines[lastGeneration], StartsWith("gen 40/40"));
  for (size_t i = 1; i < lines.size(); ++i) {
    int gap = secondsOf(lines[i]) - secondsOf(lines[i - 1]);
    bool phaseEnd =
        static_cast<int>(i) == lastGeneration || i + 1 == lines.size();
    if (!phaseEnd)
      EXPECT_GE(gap, 10) << lines[i - 1] << "\n" << lines[i];
  }
}

TEST(ProgressTest, ATerminalIsRedrawnAtEveryGeneration) {
  std::FILE *file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  FakeClock clock;
  {
    ProgressLine progress(file, /*live=*/true, std::chrono::seconds(10),
                          clock.now());
    ProgressState state;
    state.generations = 3;
    for (int g = 1; g <= 3; ++g) {
      state.generation = g;
      progress.generationDone(state);
      clock.advance(1);
    }
    progress.finish();
  }
  std::vector<std::string> lines = linesOf(file);
  std::fclose(file);
  ASSERT_EQ(lines.size(), 1u); // Carriage returns, no newline.
  for (int g = 1; g <= 3; ++g)
    EXPECT_THAT(lines[0], HasSubstr(absl::StrCat("\rgen ", g, "/3")));
}

TEST(ProgressTest, AComputedStateIsComputedAtMostOncePerRefresh) {
  FakeClock clock;
  ProgressLine progress(nullptr, /*live=*/false, std::chrono::seconds(10),
                        clock.now());
  int computed = 0;
  auto state = [&] {
    ++computed;
    return ProgressState();
  };
  progress.update(state);
  progress.update(state); // the same instant: not computed again
  EXPECT_EQ(computed, 1);
  clock.advance(1); // past ProgressLine::kRefresh
  progress.update(state);
  EXPECT_EQ(computed, 2);
}

} // namespace
} // namespace gevo
