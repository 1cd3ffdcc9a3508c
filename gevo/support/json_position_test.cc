//===- json_position_test.cc - Finding a JSON path's line and column ------===//

#include "gevo/support/json_position.h"

#include "gtest/gtest.h"

namespace gevo {
namespace {

constexpr const char kText[] = R"({
  "a": {"b": [10, {"c": "x,]}"}, 30]},
  "d": "e",
  "f": [[1, 2], {"g": null}]
})";

std::pair<int, int> find(const std::string &path) {
  std::optional<TextPosition> position = findJsonPath(kText, path);
  EXPECT_TRUE(position.has_value()) << path;
  return position ? std::pair{position->line, position->column}
                  : std::pair{0, 0};
}

TEST(JsonPositionTest, FindsMembersAndElements) {
  EXPECT_EQ(find("$"), (std::pair{1, 1}));
  EXPECT_EQ(find("$.a"), (std::pair{2, 3}));
  EXPECT_EQ(find("$.a.b"), (std::pair{2, 9}));
  EXPECT_EQ(find("$.a.b[0]"), (std::pair{2, 15}));
  EXPECT_EQ(find("$.a.b[1].c"), (std::pair{2, 20}));
  // The string "x,]}" holds delimiters; skipping it must not stop there.
  EXPECT_EQ(find("$.a.b[2]"), (std::pair{2, 34}));
  EXPECT_EQ(find("$.d"), (std::pair{3, 3}));
  EXPECT_EQ(find("$.f[1].g"), (std::pair{4, 18}));
}

TEST(JsonPositionTest, AMissingPartGivesTheDeepestThatExists) {
  EXPECT_EQ(find("$.a.nothing"), (std::pair{2, 3}));
  EXPECT_EQ(find("$.f[7]"), (std::pair{4, 3}));
  EXPECT_FALSE(findJsonPath("", "$").has_value());
  EXPECT_FALSE(findJsonPath(kText, "a.b").has_value());
}

} // namespace
} // namespace gevo
