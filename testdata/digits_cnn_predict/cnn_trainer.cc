//===- cnn_trainer.cc - Forward and backward passes of the digits CNN -----===//

#include "testdata/digits_cnn_predict/cnn_trainer.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace gevo {
namespace cnn {
namespace {

constexpr int kFlat = kPoolSide * kPoolSide * kChannels; // 72

/// Every activation of one image, kept for the backward pass.
struct Activations {
  float x[kSide][kSide];
  float conv[kConvSide][kConvSide][kChannels]; // After ReLU.
  float pool[kFlat];                           // [p][q][f]
  int poolFrom[kFlat];                         // Flat conv index of the max.
  float hidden[kHidden];                       // After ReLU.
  float logits[kClasses];
};

void forward(const Weights &w, const float *pixels, Activations &a) {
  for (int i = 0; i < kSide; ++i)
    for (int j = 0; j < kSide; ++j)
      a.x[i][j] = pixels[i * kSide + j] * kPixelScale;
  for (int i = 0; i < kConvSide; ++i)
    for (int j = 0; j < kConvSide; ++j)
      for (int f = 0; f < kChannels; ++f) {
        float sum = 0;
        for (int u = 0; u < kKernel; ++u)
          for (int v = 0; v < kKernel; ++v)
            sum +=
                a.x[i + u][j + v] * w.conv[(u * kKernel + v) * kChannels + f];
        a.conv[i][j][f] = std::max(sum + w.convBias[f], 0.0f);
      }
  for (int p = 0; p < kPoolSide; ++p)
    for (int q = 0; q < kPoolSide; ++q)
      for (int f = 0; f < kChannels; ++f) {
        int k = (p * kPoolSide + q) * kChannels + f;
        a.pool[k] = -INFINITY;
        for (int u = 0; u < 2; ++u)
          for (int v = 0; v < 2; ++v) {
            float value = a.conv[2 * p + u][2 * q + v][f];
            if (value > a.pool[k]) {
              a.pool[k] = value;
              a.poolFrom[k] =
                  ((2 * p + u) * kConvSide + 2 * q + v) * kChannels + f;
            }
          }
      }
  for (int o = 0; o < kHidden; ++o) {
    float sum = 0;
    for (int k = 0; k < kFlat; ++k)
      sum += a.pool[k] * w.dense[k * kHidden + o];
    a.hidden[o] = std::max(sum + w.denseBias[o], 0.0f);
  }
  for (int c = 0; c < kClasses; ++c) {
    float sum = 0;
    for (int o = 0; o < kHidden; ++o)
      sum += a.hidden[o] * w.out[o * kClasses + c];
    a.logits[c] = sum + w.outBias[c];
  }
}

/// Adds the gradient of softmax cross-entropy at `label` to `g`.
void backward(const Weights &w, const Activations &a, int label, Weights &g) {
  float top = *std::max_element(a.logits, a.logits + kClasses);
  float dz[kClasses], total = 0;
  for (int c = 0; c < kClasses; ++c)
    total += dz[c] = std::exp(a.logits[c] - top);
  for (int c = 0; c < kClasses; ++c)
    dz[c] = dz[c] / total - (c == label ? 1.0f : 0.0f);
  float dh[kHidden] = {};
  for (int o = 0; o < kHidden; ++o) {
    for (int c = 0; c < kClasses; ++c) {
      g.out[o * kClasses + c] += a.hidden[o] * dz[c];
      dh[o] += w.out[o * kClasses + c] * dz[c];
    }
    if (a.hidden[o] <= 0)
      dh[o] = 0;
  }
  for (int c = 0; c < kClasses; ++c)
    g.outBias[c] += dz[c];
  float dconv[kConvSide * kConvSide * kChannels] = {};
  for (int k = 0; k < kFlat; ++k) {
    float dp = 0;
    for (int o = 0; o < kHidden; ++o) {
      g.dense[k * kHidden + o] += a.pool[k] * dh[o];
      dp += w.dense[k * kHidden + o] * dh[o];
    }
    dconv[a.poolFrom[k]] += dp;
  }
  for (int o = 0; o < kHidden; ++o)
    g.denseBias[o] += dh[o];
  for (int i = 0; i < kConvSide; ++i)
    for (int j = 0; j < kConvSide; ++j)
      for (int f = 0; f < kChannels; ++f) {
        float d = dconv[(i * kConvSide + j) * kChannels + f];
        if (a.conv[i][j][f] <= 0 || d == 0)
          continue;
        g.convBias[f] += d;
        for (int u = 0; u < kKernel; ++u)
          for (int v = 0; v < kKernel; ++v)
            g.conv[(u * kKernel + v) * kChannels + f] += a.x[i + u][j + v] * d;
      }
}

Weights zeros() {
  Weights w;
  w.conv.assign(kKernel * kKernel * kChannels, 0);
  w.convBias.assign(kChannels, 0);
  w.dense.assign(kFlat * kHidden, 0);
  w.denseBias.assign(kHidden, 0);
  w.out.assign(kHidden * kClasses, 0);
  w.outBias.assign(kClasses, 0);
  return w;
}

/// The parameter vectors of a Weights, in one order, for loops over all.
std::vector<std::vector<float> *> parts(Weights &w) {
  return {&w.conv, &w.convBias, &w.dense, &w.denseBias, &w.out, &w.outBias};
}

} // namespace

Weights train(const Dataset &data, const TrainOptions &options) {
  std::mt19937_64 rng(options.seed);
  // He-uniform initialisation by fan-in; biases start at zero.
  Weights w = zeros();
  auto init = [&](std::vector<float> &values, int fanIn) {
    float limit = std::sqrt(6.0f / fanIn);
    std::uniform_real_distribution<float> draw(-limit, limit);
    for (float &value : values)
      value = draw(rng);
  };
  init(w.conv, kKernel * kKernel);
  init(w.dense, kFlat);
  init(w.out, kHidden);

  std::vector<int64_t> order(data.size());
  std::iota(order.begin(), order.end(), 0);
  Activations a;
  for (int epoch = 0; epoch < options.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t start = 0; start < order.size(); start += options.batch) {
      size_t end = std::min(order.size(), start + options.batch);
      Weights g = zeros();
      for (size_t r = start; r < end; ++r) {
        const float *pixels = &data.features[order[r] * data.numFeatures];
        forward(w, pixels, a);
        backward(w, a, data.labels[order[r]], g);
      }
      float step = options.learningRate / static_cast<float>(end - start);
      std::vector<std::vector<float> *> ws = parts(w), gs = parts(g);
      for (size_t p = 0; p < ws.size(); ++p)
        for (size_t i = 0; i < ws[p]->size(); ++i)
          (*ws[p])[i] -= step * (*gs[p])[i];
    }
  }
  return w;
}

std::vector<float> logits(const Weights &weights, const float *pixels) {
  Activations a;
  forward(weights, pixels, a);
  return std::vector<float>(a.logits, a.logits + kClasses);
}

double accuracy(const Weights &weights, const Dataset &data) {
  int64_t correct = 0;
  for (int64_t r = 0; r < data.size(); ++r) {
    std::vector<float> z =
        logits(weights, &data.features[r * data.numFeatures]);
    int best =
        static_cast<int>(std::max_element(z.begin(), z.end()) - z.begin());
    correct += best == data.labels[r];
  }
  return data.size() == 0 ? 0.0 : static_cast<double>(correct) / data.size();
}

} // namespace cnn
} // namespace gevo
