//===- corpus_heldout_test.cc - The labeller on programs kept apart ------===//
//
// analysis/testdata/corpus_heldout: measured only (README.md there). Prints
// every verdict and the share of edits that get the person's label.

#include <iostream>

#include "analysis/corpus_labels.h"
#include "gevo/support/tool_paths.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

TEST(CorpusHeldoutTest, AtLeastNinetyPercentOfEditsGetThePersonsLabel) {
  absl::StatusOr<std::vector<CorpusVerdict>> verdicts =
      checkCorpusDirectory(findRunfile("analysis/testdata/corpus_heldout"));
  ASSERT_TRUE(verdicts.ok()) << verdicts.status();
  ASSERT_FALSE(verdicts->empty());
  int matched = 0;
  for (const CorpusVerdict &v : *verdicts) {
    matched += v.matches;
    std::cout << (v.matches ? "ok   " : "MISS ") << v.file << ":" << v.line
              << ": " << v.got << "\n";
    if (!v.matches)
      std::cout << "     expected: " << v.expected << "\n";
  }
  double share = static_cast<double>(matched) / verdicts->size();
  std::cout << "held-out: " << matched << " of " << verdicts->size()
            << " edits labelled as a person would (" << share * 100 << "%)\n";
  EXPECT_GE(share, 0.9);
}

} // namespace
} // namespace gevo
