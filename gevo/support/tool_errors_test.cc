//===- tool_errors_test.cc - Error lines: prefix and length ---------------===//

#include "gevo/support/tool_errors.h"

#include "gtest/gtest.h"

namespace gevo {
namespace {

TEST(ElideMiddle, ShortLinesStayAsTheyAre) {
  std::string line(kMaxErrorLineChars, 'x');
  EXPECT_EQ(elideMiddle(line), line);
  EXPECT_EQ(elideMiddle(""), "");
}

// Issue #33: an error quoting a megabyte of offending text is one line of at
// most 500 characters that keeps where and what at its start and the end.
TEST(ElideMiddle, LongLinesKeepTheirStartAndEnd) {
  std::string line = "p.gevo:3:12: error: expected an op address, found '" +
                     std::string(1 << 20, 'a') + "' at the end";
  std::string cut = elideMiddle(line);
  EXPECT_LE(cut.size(), kMaxErrorLineChars);
  EXPECT_EQ(cut.rfind("p.gevo:3:12: error: expected an op address", 0), 0u);
  EXPECT_EQ(cut.substr(cut.size() - 12), "' at the end");
  EXPECT_NE(cut.find(" characters elided ...] "), std::string::npos);
  // The count says how much went: what is left plus it is the whole line.
  size_t open = cut.find(" [... "), close = cut.find(" characters elided");
  size_t elided = std::stoul(cut.substr(open + 6, close - open - 6));
  size_t marker = cut.find("...] ") + 5 - open;
  EXPECT_EQ(cut.size() - marker + elided, line.size());
}

TEST(ElideMiddle, NeverSplitsAUtf8Character) {
  std::string line;
  for (int i = 0; i < 1000; ++i)
    line += "\xc3\xa9"; // é
  std::string cut = elideMiddle(line, 101);
  EXPECT_LE(cut.size(), 101u);
  size_t open = cut.find(" [... ");
  ASSERT_NE(open, std::string::npos);
  EXPECT_EQ(open % 2, 0u); // whole characters before the marker
  size_t after = cut.find("...] ") + 5;
  EXPECT_EQ((cut.size() - after) % 2, 0u);
  EXPECT_NE(static_cast<unsigned char>(cut[after]) & 0xC0, 0x80);
}

} // namespace
} // namespace gevo
