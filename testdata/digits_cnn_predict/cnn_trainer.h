//===- cnn_trainer.h - A small digits CNN trained on the host -------------===//
//
// The CNN that //testdata:make_cnn_model bakes into digits_cnn_predict: 8x8
// pixels -> conv 3x3 (8 channels, ReLU) -> 2x2 max-pool -> dense 72 -> 32
// (ReLU) -> dense 32 -> 10, trained by minibatch SGD on softmax cross-entropy.
// The host forward pass is the reference the generated MLIR is checked by.
//
//===----------------------------------------------------------------------===//
#ifndef TESTDATA_DIGITS_CNN_PREDICT_CNN_TRAINER_H
#define TESTDATA_DIGITS_CNN_PREDICT_CNN_TRAINER_H

#include <cstdint>
#include <vector>

#include "gevo/eval/workload/dataset.h"

namespace gevo {
namespace cnn {

constexpr int kSide = 8;                 // Input image side (one channel).
constexpr int kKernel = 3;               // Convolution window side.
constexpr int kConvSide = kSide - 2;     // 6: a valid convolution.
constexpr int kChannels = 8;             // Convolution output channels.
constexpr int kPoolSide = kConvSide / 2; // 3: 2x2 windows, stride 2.
constexpr int kHidden = 32;              // Dense hidden units.
constexpr int kClasses = 10;
constexpr float kPixelScale = 0.0625f; // Raw pixels 0..16 to 0..1.

/// Trained parameters, in the layouts the MLIR constants use.
struct Weights {
  std::vector<float> conv;      // [kKernel][kKernel][1][kChannels] (HWCF)
  std::vector<float> convBias;  // [kChannels]
  std::vector<float> dense;     // [kPoolSide][kPoolSide][kChannels][kHidden]
  std::vector<float> denseBias; // [kHidden]
  std::vector<float> out;       // [kHidden][kClasses]
  std::vector<float> outBias;   // [kClasses]
};

struct TrainOptions {
  int epochs = 40;
  int batch = 16;
  float learningRate = 0.05f;
  uint64_t seed = 20231018;
};

/// Trains on `train` (64 raw pixel features per row, labels 0..9).
Weights train(const Dataset &train, const TrainOptions &options);

/// The logits of one image of 64 raw pixels.
std::vector<float> logits(const Weights &weights, const float *pixels);

/// The share of `data`'s rows whose argmax logit is their label.
double accuracy(const Weights &weights, const Dataset &data);

} // namespace cnn
} // namespace gevo

#endif // TESTDATA_DIGITS_CNN_PREDICT_CNN_TRAINER_H
