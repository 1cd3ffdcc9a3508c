//===- ddmin.cc - Delta debugging over a list of items (Zeller's ddmin) ---===//

#include "analysis/ddmin.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace gevo {

std::vector<size_t> allItems(size_t count) {
  std::vector<size_t> all(count);
  for (size_t i = 0; i < count; ++i)
    all[i] = i;
  return all;
}

namespace {

/// The oracle with memoisation and a count of distinct questions.
class CountingOracle {
public:
  CountingOracle(const SubsetOracle &oracle, size_t count) : oracle(oracle) {
    answers[allItems(count)] =
        true; // the full set is interesting by assumption
  }
  bool operator()(const std::vector<size_t> &subset) {
    auto [it, inserted] = answers.try_emplace(subset, false);
    if (inserted) {
      ++tests;
      it->second = oracle(subset);
    }
    return it->second;
  }
  int tests = 0;

private:
  const SubsetOracle &oracle;
  std::map<std::vector<size_t>, bool> answers;
};

std::vector<std::vector<size_t>> split(const std::vector<size_t> &items,
                                       size_t n) {
  std::vector<std::vector<size_t>> chunks;
  size_t start = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t end = start + (items.size() - start) / (n - i);
    chunks.emplace_back(items.begin() + start, items.begin() + end);
    start = end;
  }
  return chunks;
}

std::vector<size_t> without(const std::vector<size_t> &items,
                            const std::vector<size_t> &removed) {
  std::vector<size_t> out;
  for (size_t item : items)
    if (!std::binary_search(removed.begin(), removed.end(), item))
      out.push_back(item);
  return out;
}

/// Hwang's group size for finding `needed` of `open` items: one at a time
/// when they are dense, else the power of two near (open - needed + 1) /
/// needed.
size_t groupSize(size_t open, double needed) {
  if (needed <= 0 || open <= 2 * needed - 2)
    return 1;
  double ratio = (open - needed + 1) / needed;
  size_t size = size_t(1) << std::max(0, int(std::floor(std::log2(ratio))));
  return std::min(size, open);
}

} // namespace

Reduction ddmin(size_t count, const SubsetOracle &interesting) {
  CountingOracle ask(interesting, count);
  std::vector<size_t> current = allItems(count);
  size_t n = 2;
  while (current.size() >= 2) {
    n = std::min(n, current.size());
    std::vector<std::vector<size_t>> chunks = split(current, n);
    bool reduced = false;
    // At the finest granularity the chunks are single items. Only their
    // complements are asked about: that is what 1-minimality needs, and an
    // item that would do alone is still reached by removing the others,
    // without a test per item alone.
    bool singletons = n == current.size() && current.size() > 2;
    for (const std::vector<size_t> &chunk : chunks)
      if (!singletons && ask(chunk)) {
        current = chunk;
        n = 2;
        reduced = true;
        break;
      }
    if (!reduced && (n > 2 || singletons)) {
      for (const std::vector<size_t> &chunk : chunks) {
        std::vector<size_t> complement = without(current, chunk);
        if (ask(complement)) {
          current = complement;
          n = std::max<size_t>(n - 1, 2);
          reduced = true;
          break;
        }
      }
    }
    if (reduced)
      continue;
    if (n >= current.size())
      break; // every single item tested as a complement: 1-minimal
    n = std::min(current.size(), 2 * n);
  }
  // With two items left, the loop tested each alone (the chunks) but not
  // the complements beyond them; a single item may still be removable from
  // the one left only if the empty set is interesting.
  if (current.size() == 1 && ask({}))
    current.clear();
  Reduction result;
  result.kept = current;
  result.tests = ask.tests;
  return result;
}

namespace {

/// Group testing over `open` (a part of `current`, in order): removes from
/// `current` every open item whose removal keeps it interesting, settling
/// items from the back (see binarySplitting).
template <typename Ask>
void settleOpenItems(std::vector<size_t> &current, std::vector<size_t> open,
                     Ask &ask) {
  int needed = 0, settled = 0;
  auto removeAll = [&](const std::vector<size_t> &group) {
    std::vector<size_t> candidate = without(current, group);
    if (!ask(candidate))
      return false;
    current = std::move(candidate);
    open = without(open, group);
    settled += static_cast<int>(group.size());
    return true;
  };
  while (!open.empty()) {
    // The share of needed items seen so far, starting from a prior of 0.3
    // worth two items: front patches mostly come down to few edits.
    double density = (needed + 0.6) / (settled + 2);
    size_t size = groupSize(open.size(), density * open.size());
    std::vector<size_t> group(open.end() - size, open.end());
    if (removeAll(group))
      continue;
    // The group holds a needed item: halve it, removing the later half when
    // the rest keeps the effect (then the needed item is in the earlier
    // half), else looking into the later half (the earlier half stays open).
    while (group.size() > 1) {
      size_t half = group.size() / 2;
      std::vector<size_t> earlier(group.begin(), group.begin() + half);
      std::vector<size_t> later(group.begin() + half, group.end());
      group = removeAll(later) ? std::move(earlier) : std::move(later);
    }
    // Removing this one item alone loses the effect.
    open = without(open, group);
    ++needed;
    ++settled;
  }
}

/// Each kept item was needed in a superset of the result; an oracle that is
/// not monotone (noise, edits that cancel out) may let it go now. Asks once
/// more, from the back, until no single item can be removed: 1-minimal
/// whatever the oracle. An item decided last, after which nothing was
/// removed, is answered from memory.
template <typename Ask>
void makeOneMinimal(std::vector<size_t> &current, Ask &ask) {
  for (bool removed = true; removed;) {
    removed = false;
    for (size_t i = current.size(); i-- > 0;) {
      std::vector<size_t> candidate = without(current, {current[i]});
      if (ask(candidate)) {
        current = std::move(candidate);
        removed = true;
      }
    }
  }
}

} // namespace

Reduction binarySplitting(size_t count, const SubsetOracle &interesting) {
  CountingOracle ask(interesting, count);
  std::vector<size_t> current = allItems(count);
  settleOpenItems(current, current, ask);
  makeOneMinimal(current, ask);
  return Reduction{current, ask.tests};
}

Reduction binarySplitting(size_t count, const SubsetOracle &interesting,
                          const SubsetOracle &necessary) {
  // What the free condition alone needs, found for free.
  CountingOracle askNecessary(necessary, count);
  std::vector<size_t> enough = allItems(count);
  settleOpenItems(enough, enough, askNecessary);
  makeOneMinimal(enough, askNecessary);
  // Every question goes to the free condition first; only the subsets it
  // lets through cost an `interesting` answer.
  int costly = 0;
  SubsetOracle both = [&](const std::vector<size_t> &subset) {
    if (!askNecessary(subset))
      return false;
    ++costly;
    return interesting(subset);
  };
  CountingOracle ask(both, count);
  std::vector<size_t> current;
  if (ask(enough)) {
    // Every item of `enough` is needed by the free condition: the last pass
    // below asks nothing that costs.
    current = enough;
  } else {
    // Some items beyond it are needed too: group testing among those, with
    // the free condition's items held (the last pass still tries them).
    current = allItems(count);
    settleOpenItems(current, without(current, enough), ask);
  }
  makeOneMinimal(current, ask);
  // The free condition saw every subset asked about.
  Reduction result{current, askNecessary.tests};
  result.freeTests = askNecessary.tests - costly;
  return result;
}

Reduction greedyRemoval(size_t count, const SubsetOracle &interesting) {
  CountingOracle ask(interesting, count);
  std::vector<size_t> current = allItems(count);
  for (size_t item = 0; item < count; ++item) {
    std::vector<size_t> candidate = without(current, {item});
    if (candidate.size() < current.size() && ask(candidate))
      current = candidate;
  }
  return Reduction{current, ask.tests};
}

Reduction exhaustiveMinimal(size_t count, const SubsetOracle &interesting) {
  CountingOracle ask(interesting, count);
  for (size_t size = 0; size < count; ++size) {
    // All subsets of `size` items, in lexicographic order.
    std::vector<bool> chosen(count, false);
    std::fill(chosen.begin(), chosen.begin() + size, true);
    do {
      std::vector<size_t> subset;
      for (size_t i = 0; i < count; ++i)
        if (chosen[i])
          subset.push_back(i);
      if (ask(subset))
        return Reduction{subset, ask.tests};
    } while (std::prev_permutation(chosen.begin(), chosen.end()));
  }
  return Reduction{allItems(count), ask.tests};
}

} // namespace gevo
