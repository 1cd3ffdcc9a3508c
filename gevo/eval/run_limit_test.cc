//===- run_limit_test.cc - Racing's run limit ends a child on CPU time ----===//

#include "gevo/eval/run_limit.h"

#include <sys/wait.h>
#include <unistd.h>

#include "gevo/eval/race.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// Spins on the CPU for `ms` of process CPU time.
void spin(double ms) {
  double until = processCpuMs() + ms;
  volatile double sink = 0;
  while (processCpuMs() < until)
    for (int i = 0; i < 1000; ++i)
      sink = sink + i;
}

TEST(RunLimit, EndsAChildThatRunsPastIt) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    RunLimit limit(30, /*stop=*/true);
    spin(2000);
    _exit(0); // not reached when the limit acts
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), kRunLimitExitCode);
}

TEST(RunLimit, LeavesAChildUnderItAlone) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    {
      RunLimit limit(500, /*stop=*/true);
      spin(20);
    }
    spin(700); // past the limit, but after it was disarmed
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST(RunLimit, ADryRunOnlySaysItPassed) {
  RunLimit limit(20, /*stop=*/false);
  EXPECT_FALSE(limit.passed());
  spin(40);
  EXPECT_TRUE(limit.passed());
  RunLimit none(0, /*stop=*/false);
  spin(5);
  EXPECT_FALSE(none.passed());
}

} // namespace
} // namespace gevo
