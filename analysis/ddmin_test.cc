//===- ddmin_test.cc - ddmin on oracles whose minimal sets are known ------===//

#include "analysis/ddmin.h"

#include <algorithm>
#include <random>
#include <set>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

using ::testing::ElementsAre;

/// Interesting when the subset holds every item of `needed`.
SubsetOracle needs(std::set<size_t> needed) {
  return [needed](const std::vector<size_t> &subset) {
    return std::all_of(needed.begin(), needed.end(), [&](size_t item) {
      return std::find(subset.begin(), subset.end(), item) != subset.end();
    });
  };
}

TEST(DdminTest, FindsOneNeededItemAmongMany) {
  Reduction r = ddmin(16, needs({11}));
  EXPECT_THAT(r.kept, ElementsAre(11));
  // Halving: about 2 log2(16) questions, far fewer than 16.
  EXPECT_LE(r.tests, 10);
}

TEST(DdminTest, KeepsAPairThatOnlyWorksTogether) {
  // Items 2 and 9 help only together: neither alone is interesting.
  Reduction r = ddmin(12, needs({2, 9}));
  EXPECT_THAT(r.kept, ElementsAre(2, 9));
}

TEST(DdminTest, ResultIsOneMinimal) {
  for (const std::set<size_t> &needed : std::vector<std::set<size_t>>{
           {0}, {7}, {1, 2}, {0, 5, 6}, {3, 4, 5, 6}}) {
    SubsetOracle oracle = needs(needed);
    Reduction r = ddmin(8, oracle);
    EXPECT_EQ(std::set<size_t>(r.kept.begin(), r.kept.end()), needed);
    for (size_t drop = 0; drop < r.kept.size(); ++drop) {
      std::vector<size_t> smaller = r.kept;
      smaller.erase(smaller.begin() + drop);
      EXPECT_FALSE(oracle(smaller));
    }
  }
}

TEST(DdminTest, EmptyWhenNothingIsNeeded) {
  EXPECT_TRUE(ddmin(5, needs({})).kept.empty());
  EXPECT_TRUE(ddmin(1, needs({})).kept.empty());
  EXPECT_THAT(ddmin(1, needs({0})).kept, ElementsAre(0));
}

TEST(DdminTest, FewerTestsThanGreedyRemovalOnLongPatches) {
  // GEVO's single pass asks once per item; ddmin halves.
  Reduction greedy = greedyRemoval(32, needs({20}));
  Reduction delta = ddmin(32, needs({20}));
  EXPECT_THAT(greedy.kept, ElementsAre(20));
  EXPECT_THAT(delta.kept, ElementsAre(20));
  EXPECT_EQ(greedy.tests, 32);
  EXPECT_LT(delta.tests, greedy.tests / 2);
}

TEST(DdminTest, ExhaustiveFindsTheSmallestSet) {
  // Interesting iff it holds {0, 1, 2} or {5}: the smallest is {5}.
  SubsetOracle oracle = [](const std::vector<size_t> &s) {
    auto has = [&](size_t i) {
      return std::find(s.begin(), s.end(), i) != s.end();
    };
    return (has(0) && has(1) && has(2)) || has(5);
  };
  Reduction r = exhaustiveMinimal(6, oracle);
  EXPECT_THAT(r.kept, ElementsAre(5));
  // Sizes 0 and 1 come first: 1 + 6 subsets at most.
  EXPECT_LE(r.tests, 7);
}

/// Runs `minimiser` on 8 items of which 1 and 6 are needed, checking that no
/// subset is asked about twice and that `tests` counts every question.
void expectEachSubsetAskedOnce(Reduction (*minimiser)(size_t,
                                                      const SubsetOracle &)) {
  std::set<std::vector<size_t>> seen;
  int calls = 0;
  SubsetOracle oracle = [&](const std::vector<size_t> &s) {
    ++calls;
    EXPECT_TRUE(seen.insert(s).second) << "asked twice";
    return needs({1, 6})(s);
  };
  Reduction r = minimiser(8, oracle);
  EXPECT_THAT(r.kept, ElementsAre(1, 6));
  EXPECT_EQ(r.tests, calls);
}

TEST(DdminTest, AsksAboutEachSubsetOnce) { expectEachSubsetAskedOnce(ddmin); }

/// Interesting when it holds every item of `needed`, and buildable only when
/// each item of `prerequisites` (later -> earlier) comes with the one it needs.
SubsetOracle
needsWithOrder(std::set<size_t> needed,
               std::vector<std::pair<size_t, size_t>> prerequisites) {
  return [needed, prerequisites](const std::vector<size_t> &subset) {
    auto has = [&](size_t i) {
      return std::find(subset.begin(), subset.end(), i) != subset.end();
    };
    for (auto [later, earlier] : prerequisites)
      if (has(later) && !has(earlier))
        return false;
    return needs(needed)(subset);
  };
}

TEST(BinarySplittingTest, FindsExactlyTheNeededItems) {
  for (size_t count : {1, 2, 5, 8, 13})
    for (const std::set<size_t> &needed : std::vector<std::set<size_t>>{
             {}, {0}, {count - 1}, {0, count - 1}, {count / 2}}) {
      Reduction r = binarySplitting(count, needs(needed));
      EXPECT_EQ(std::set<size_t>(r.kept.begin(), r.kept.end()), needed)
          << count << " items";
    }
}

TEST(BinarySplittingTest, EveryCombinationOfSixIsFoundAndOneMinimal) {
  for (unsigned mask = 0; mask < 64; ++mask) {
    std::set<size_t> needed;
    for (size_t i = 0; i < 6; ++i)
      if (mask & (1u << i))
        needed.insert(i);
    SubsetOracle oracle = needs(needed);
    Reduction r = binarySplitting(6, oracle);
    EXPECT_EQ(std::set<size_t>(r.kept.begin(), r.kept.end()), needed) << mask;
    for (size_t drop = 0; drop < r.kept.size(); ++drop) {
      std::vector<size_t> smaller = r.kept;
      smaller.erase(smaller.begin() + drop);
      EXPECT_FALSE(oracle(smaller));
    }
  }
}

TEST(BinarySplittingTest, DropsAnEditThatNeedsAnEarlierOneBeforeIt) {
  // Item 4 applies only with item 1; only item 6 matters. Greedy in order
  // cannot drop 1 while 4 is there, and never comes back to it.
  SubsetOracle oracle = needsWithOrder({6}, {{4, 1}});
  EXPECT_THAT(binarySplitting(8, oracle).kept, ElementsAre(6));
  EXPECT_THAT(greedyRemoval(8, oracle).kept, ElementsAre(1, 6));
}

TEST(BinarySplittingTest, FewerTestsThanGreedyAndDdminWhenFewItemsMatter) {
  // Search results mostly come down to one or two edits of up to a dozen:
  // over every such case, splitting asks fewer questions than both.
  int split = 0, greedy = 0, delta = 0;
  for (size_t count = 2; count <= 12; ++count)
    for (size_t a = 0; a < count; ++a)
      for (size_t b = a; b < count; ++b) {
        SubsetOracle oracle = needs({a, b});
        split += binarySplitting(count, oracle).tests;
        greedy += greedyRemoval(count, oracle).tests;
        delta += ddmin(count, oracle).tests;
      }
  EXPECT_LT(split, greedy);
  EXPECT_LT(split, delta);
  // Greedy asks exactly once per item; one needed item of 32 takes splitting
  // about log2(32) questions plus the groups around it.
  EXPECT_LE(binarySplitting(32, needs({20})).tests, 12);
}

TEST(BinarySplittingTest, OneMinimalEvenWhenTheOracleIsNotMonotone) {
  // Random answers for every subset of six items (the full set interesting):
  // supersets of interesting subsets need not be interesting, as with noisy
  // measurements or edits that cancel out. The result must still lose its
  // interest without any one of its items.
  std::mt19937_64 rng(7);
  for (int table = 0; table < 200; ++table) {
    std::vector<bool> answer(64);
    for (size_t mask = 0; mask < 63; ++mask)
      answer[mask] = rng() % 3 == 0;
    answer[63] = true;
    auto maskOf = [](const std::vector<size_t> &subset) {
      size_t mask = 0;
      for (size_t item : subset)
        mask |= size_t(1) << item;
      return mask;
    };
    SubsetOracle oracle = [&](const std::vector<size_t> &subset) {
      return bool(answer[maskOf(subset)]);
    };
    Reduction r = binarySplitting(6, oracle);
    EXPECT_TRUE(oracle(r.kept)) << table;
    for (size_t drop = 0; drop < r.kept.size(); ++drop) {
      std::vector<size_t> smaller = r.kept;
      smaller.erase(smaller.begin() + drop);
      EXPECT_FALSE(oracle(smaller)) << "table " << table << " drop " << drop;
    }
  }
}

TEST(BinarySplittingTest, AsksAboutEachSubsetOnce) {
  expectEachSubsetAskedOnce(binarySplitting);
}

/// Counts calls of `oracle` (the costly answers).
SubsetOracle counted(SubsetOracle oracle, int &calls) {
  return [oracle, &calls](const std::vector<size_t> &subset) {
    ++calls;
    return oracle(subset);
  };
}

TEST(BinarySplittingWithFreeCheckTest,
     OneCostlyQuestionWhenTheFreeCheckNeedsAll) {
  // A front patch whose kept edits all lower the static cost: the free check
  // alone finds them, and one run confirms that the error is kept too.
  int calls = 0;
  Reduction r = binarySplitting(40, counted(needs({3, 17, 18, 30}), calls),
                                needs({3, 17, 18, 30}));
  EXPECT_THAT(r.kept, ElementsAre(3, 17, 18, 30));
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(r.tests - r.freeTests, 1);
}

TEST(BinarySplittingWithFreeCheckTest, FindsItemsOnlyTheCostlyOracleNeeds) {
  // 5 and 9 lower the static cost; 22 keeps the error down. Every needed set
  // over 24 items whose free part is a subset: found exactly, 1-minimal,
  // and never with more costly questions than without the free check.
  std::mt19937_64 rng(11);
  int withFree = 0, without = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::set<size_t> needed, cheap;
    for (size_t i = 0; i < 24; ++i)
      if (rng() % 6 == 0) {
        needed.insert(i);
        if (rng() % 2)
          cheap.insert(i);
      }
    int calls = 0, plainCalls = 0;
    SubsetOracle oracle = needs(needed);
    Reduction r = binarySplitting(24, counted(oracle, calls), needs(cheap));
    EXPECT_EQ(std::set<size_t>(r.kept.begin(), r.kept.end()), needed);
    for (size_t drop = 0; drop < r.kept.size(); ++drop) {
      std::vector<size_t> smaller = r.kept;
      smaller.erase(smaller.begin() + drop);
      EXPECT_FALSE(oracle(smaller));
    }
    EXPECT_EQ(r.tests - r.freeTests, calls);
    binarySplitting(24, counted(oracle, plainCalls));
    withFree += calls;
    without += plainCalls;
  }
  EXPECT_LT(withFree, without);
}

TEST(BinarySplittingWithFreeCheckTest, OneMinimalWithNonMonotoneOracles) {
  // Random tables for both, the free one true wherever the costly one is.
  std::mt19937_64 rng(5);
  auto maskOf = [](const std::vector<size_t> &subset) {
    size_t mask = 0;
    for (size_t item : subset)
      mask |= size_t(1) << item;
    return mask;
  };
  for (int table = 0; table < 200; ++table) {
    std::vector<bool> costly(64), cheap(64);
    for (size_t mask = 0; mask < 63; ++mask) {
      costly[mask] = rng() % 3 == 0;
      cheap[mask] = costly[mask] || rng() % 2 == 0;
    }
    costly[63] = cheap[63] = true;
    std::set<size_t> asked;
    SubsetOracle oracle = [&](const std::vector<size_t> &subset) {
      EXPECT_TRUE(cheap[maskOf(subset)]) << "passed on a subset the free "
                                            "check rejects";
      EXPECT_TRUE(asked.insert(maskOf(subset)).second) << "asked twice";
      return bool(costly[maskOf(subset)]);
    };
    SubsetOracle free = [&](const std::vector<size_t> &subset) {
      return bool(cheap[maskOf(subset)]);
    };
    Reduction r = binarySplitting(6, oracle, free);
    EXPECT_TRUE(costly[maskOf(r.kept)]) << table;
    for (size_t drop = 0; drop < r.kept.size(); ++drop) {
      std::vector<size_t> smaller = r.kept;
      smaller.erase(smaller.begin() + drop);
      EXPECT_FALSE(costly[maskOf(smaller)])
          << "table " << table << " drop " << drop;
    }
  }
}

} // namespace
} // namespace gevo
