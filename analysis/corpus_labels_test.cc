//===- corpus_labels_test.cc - Every hand-made label of the corpus holds --===//
//
// analysis/testdata/corpus: training and prediction programs in several
// styles, each with edits and the label a person gives them (README.md).

#include "analysis/corpus_labels.h"

#include <iostream>

#include "gevo/support/tool_paths.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

TEST(CorpusLabelsTest, EveryEditGetsThePersonsLabel) {
  absl::StatusOr<std::vector<CorpusVerdict>> verdicts =
      checkCorpusDirectory(findRunfile("analysis/testdata/corpus"));
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  EXPECT_GE(verdicts->size(), 6u);
  for (const CorpusVerdict &v : *verdicts) {
    std::cout << v.file << ":" << v.line << ": " << v.got
              << "\n  path: " << v.path << "\n";
    EXPECT_TRUE(v.matches) << v.file << ":" << v.line << ": " << v.edit
                           << "\n  expected: " << v.expected
                           << "\n  got:      " << v.got
                           << "\n  path:     " << v.path;
  }
}

TEST(CorpusLabelsTest, LabelsShowTheirDataFlowPath) {
  absl::StatusOr<std::vector<CorpusVerdict>> verdicts =
      checkCorpusDirectory(findRunfile("analysis/testdata/corpus"));
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  for (const CorpusVerdict &v : *verdicts)
    if (v.matches && v.expected.rfind("other", 0) != 0) {
      // A constant's path starts at it; an op edit's at the op it changes.
      if (v.edit.rfind("constant ", 0) == 0)
        EXPECT_NE(v.path.find("arith.constant -> "), std::string::npos)
            << v.file << ":" << v.line << ": " << v.path;
      else
        EXPECT_NE(v.path.find(" -> "), std::string::npos)
            << v.file << ":" << v.line << ": " << v.path;
      // Roles come from data flow, not from the program's shape.
      EXPECT_NE(v.roles, "plumbing") << v.file << ":" << v.line;
    }
}

} // namespace
} // namespace gevo
