//===- scaled_mlp.h - The scaling benchmark's generated model -------------===//
//
// The prediction workload's MLP (64 -> 256 -> 128 -> 10, ReLU) with its
// hidden widths multiplied by a factor, as MLIR text whose weights are drawn
// inside the module by the training workload's hash initialisation (so the
// text stays small at any width).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_SCALED_MLP_H
#define GEVO_BENCH_SCALED_MLP_H

#include <string>

namespace gevo {

/// The prediction MLP 64 -> 256k -> 128k -> 10 over `rows` inputs, k =
/// `factor`, as a module with one function @main.
std::string scaledModel(int factor, int rows);

} // namespace gevo

#endif // GEVO_BENCH_SCALED_MLP_H
