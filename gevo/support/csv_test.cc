//===- csv_test.cc - CSV fields round-trip --------------------------------===//

#include "gevo/support/csv.h"

#include "gtest/gtest.h"

namespace gevo {
namespace {

TEST(CsvTest, CsvFieldsRoundTrip) {
  std::vector<std::string> fields = {"plain", "a,b", "say \"hi\"", "",
                                     "x\"y,z"};
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i)
    line += (i ? "," : "") + csvField(fields[i]);
  EXPECT_EQ(parseCsvLine(line), fields);
}

} // namespace
} // namespace gevo
