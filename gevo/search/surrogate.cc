//===- surrogate.cc - A cheap guess of a variant's fate, to pre-screen ----===//

#include "gevo/search/surrogate.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/strings/str_cat.h"

namespace gevo {
namespace {

/// How many measurements of an edit weigh as much as its kind's prior.
constexpr double kPriorWeight = 2;

bool isError(const std::string &name) { return name == "error"; }

std::vector<std::string> keysOf(const std::vector<Edit> &edits) {
  std::vector<std::string> keys;
  for (const Edit &edit : edits)
    keys.push_back(editKey(edit));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

/// |a ∩ b| / |a ∪ b| of two sorted lists (1 for two empty ones), `a`
/// holding `aSize` elements of which only those in `a` can be shared.
double jaccard(const std::vector<int> &a, size_t aSize,
               const std::vector<int> &b) {
  if (aSize == 0 && b.empty())
    return 1;
  size_t shared = 0;
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    if (a[i] == b[j]) {
      ++shared, ++i, ++j;
    } else if (a[i] < b[j]) {
      ++i;
    } else {
      ++j;
    }
  }
  return static_cast<double>(shared) / (aSize + b.size() - shared);
}

/// The slope of log(y) on log(x) by least squares over the positive pairs;
/// 0 when fewer than three distinct x.
double logSlope(const std::vector<double> &x, const std::vector<double> &y) {
  std::vector<std::pair<double, double>> points;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] > 0 && y[i] > 0 && std::isfinite(x[i]) && std::isfinite(y[i]))
      points.push_back({std::log(x[i]), std::log(y[i])});
  if (points.size() < 3)
    return 0;
  double mx = 0, my = 0;
  for (auto [px, py] : points)
    mx += px, my += py;
  mx /= points.size(), my /= points.size();
  double sxx = 0, sxy = 0;
  for (auto [px, py] : points)
    sxx += (px - mx) * (px - mx), sxy += (px - mx) * (py - my);
  if (sxx < 1e-12)
    return 0;
  return std::clamp(sxy / sxx, 0.0, 2.0);
}

std::vector<double> ranks(const std::vector<double> &values) {
  std::vector<size_t> order(values.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return values[a] < values[b]; });
  std::vector<double> rank(values.size());
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j + 1 < order.size() && values[order[j + 1]] == values[order[i]])
      ++j;
    for (size_t k = i; k <= j; ++k)
      rank[order[k]] = (i + j) / 2.0;
    i = j + 1;
  }
  return rank;
}

} // namespace

double spearman(const std::vector<double> &a, const std::vector<double> &b) {
  if (a.size() != b.size() || a.size() < 3)
    return 0;
  std::vector<double> ra = ranks(a), rb = ranks(b);
  double ma = 0, mb = 0;
  for (size_t i = 0; i < ra.size(); ++i)
    ma += ra[i], mb += rb[i];
  ma /= ra.size(), mb /= rb.size();
  double sab = 0, saa = 0, sbb = 0;
  for (size_t i = 0; i < ra.size(); ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : 0;
}

void Surrogate::fit(const std::vector<const Individual *> &measured) {
  samples.clear(), edits.clear(), kinds.clear();
  size_t n = names.size();
  means.assign(n, 0);
  int ok = 0;
  for (const Individual *individual : measured) {
    Sample sample;
    sample.edits = keysOf(individual->edits);
    sample.staticCost = individual->measurement.staticCost;
    sample.bad = !individual->feasible();
    if (!sample.bad) {
      sample.objectives = objectiveValues(individual->measurement, names);
      for (size_t k = 0; k < n && k < bounds.size(); ++k)
        sample.bad |= sample.objectives[k] > bounds[k];
    }
    std::vector<EditKind> seenKinds;
    for (const Edit &edit : individual->edits)
      if (std::find(seenKinds.begin(), seenKinds.end(), edit.kind) ==
          seenKinds.end())
        seenKinds.push_back(edit.kind);
    for (EditKind kind : seenKinds) {
      ++kinds[kind].first;
      kinds[kind].second += sample.bad;
    }
    for (const std::string &key : sample.edits) {
      auto [it, added] = edits.try_emplace(key);
      EditStats &stats = it->second;
      if (added)
        stats.id = static_cast<int>(edits.size()) - 1;
      sample.ids.push_back(stats.id);
      ++stats.count;
      stats.bad += sample.bad;
    }
    if (!sample.bad) {
      ++ok;
      for (size_t k = 0; k < n; ++k)
        means[k] += sample.objectives[k];
    }
    std::sort(sample.ids.begin(), sample.ids.end());
    samples.push_back(std::move(sample));
  }
  for (double &mean : means)
    mean = ok ? mean / ok : 0;
  for (const Sample &sample : samples) {
    if (sample.bad)
      continue;
    for (const std::string &key : sample.edits) {
      EditStats &stats = edits[key];
      stats.excess.resize(n, 0);
      ++stats.okCount;
      for (size_t k = 0; k < n; ++k)
        stats.excess[k] += sample.objectives[k] - means[k];
    }
  }
  costPower.assign(n, 0);
  for (size_t k = 0; k < n; ++k) {
    if (isError(names[k]))
      continue;
    std::vector<double> cost, value;
    for (const Sample &sample : samples)
      if (!sample.bad) {
        cost.push_back(sample.staticCost);
        value.push_back(sample.objectives[k]);
      }
    costPower[k] = logSlope(cost, value);
  }
}

double Surrogate::failureRate(const std::string &key, EditKind kind) const {
  auto k = kinds.find(kind);
  double prior = k == kinds.end()
                     ? 0.5
                     : (k->second.second + 1.0) / (k->second.first + 2.0);
  auto e = edits.find(key);
  if (e == edits.end())
    return prior;
  return (e->second.bad + kPriorWeight * prior) /
         (e->second.count + kPriorWeight);
}

double Surrogate::effect(const std::string &key, size_t objective) const {
  auto e = edits.find(key);
  if (e == edits.end() || e->second.excess.empty())
    return 0;
  return e->second.excess[objective] / (e->second.okCount + kPriorWeight);
}

Prediction Surrogate::predict(const std::vector<Edit> &editList,
                              double staticCost) const {
  Prediction prediction;
  std::vector<std::string> keys = keysOf(editList);
  std::vector<int> ids; // of the keys some sample holds
  for (const std::string &key : keys)
    if (auto it = edits.find(key); it != edits.end())
      ids.push_back(it->second.id);
  std::sort(ids.begin(), ids.end());
  const Sample *nearest = nullptr;
  double best = -1;
  for (const Sample &sample : samples) {
    if (sample.bad)
      continue;
    double similarity = jaccard(ids, keys.size(), sample.ids);
    if (similarity > best)
      best = similarity, nearest = &sample;
  }
  // The nearest variant that did not fail vouches for the edits it holds;
  // the others are independent risks.
  double survive = 1;
  for (const Edit &edit : editList) {
    std::string key = editKey(edit);
    bool vouched = nearest && std::binary_search(nearest->edits.begin(),
                                                 nearest->edits.end(), key);
    auto first = std::find_if(editList.begin(), editList.end(),
                              [&](const Edit &e) { return e == edit; });
    if (!vouched && &*first == &edit)
      survive *= 1 - failureRate(key, edit.kind);
  }
  prediction.failure = 1 - survive;
  size_t n = names.size();
  if (!nearest) {
    prediction.objectives = means;
    return prediction;
  }
  for (size_t k = 0; k < n; ++k) {
    double value = nearest->objectives[k];
    if (!isError(names[k])) {
      if (costPower[k] > 0 && staticCost > 0 && nearest->staticCost > 0)
        value *= std::pow(staticCost / nearest->staticCost, costPower[k]);
      prediction.objectives.push_back(value);
      continue;
    }
    for (const std::string &key : keys)
      if (!std::binary_search(nearest->edits.begin(), nearest->edits.end(),
                              key))
        value += effect(key, k);
    for (const std::string &key : nearest->edits)
      if (!std::binary_search(keys.begin(), keys.end(), key))
        value -= effect(key, k);
    prediction.objectives.push_back(std::max(0.0, value));
  }
  return prediction;
}

} // namespace gevo
