//===- ddmin.cc - Delta debugging over a list of items (Zeller's ddmin) ---===//

#include "analysis/ddmin.h"

#include <algorithm>
#include <map>

namespace gevo {
namespace {

/// The oracle with memoisation and a count of distinct questions.
class CountingOracle {
public:
  CountingOracle(const SubsetOracle &oracle, size_t count) : oracle(oracle) {
    std::vector<size_t> all(count);
    for (size_t i = 0; i < count; ++i)
      all[i] = i;
    answers[all] = true; // the full set is interesting by assumption
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

} // namespace

Reduction ddmin(size_t count, const SubsetOracle &interesting) {
  CountingOracle ask(interesting, count);
  std::vector<size_t> current(count);
  for (size_t i = 0; i < count; ++i)
    current[i] = i;
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

Reduction greedyRemoval(size_t count, const SubsetOracle &interesting) {
  CountingOracle ask(interesting, count);
  std::vector<size_t> current(count);
  for (size_t i = 0; i < count; ++i)
    current[i] = i;
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
  std::vector<size_t> all(count);
  for (size_t i = 0; i < count; ++i)
    all[i] = i;
  return Reduction{all, ask.tests};
}

} // namespace gevo
