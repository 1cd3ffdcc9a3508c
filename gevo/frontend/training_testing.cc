//===- training_testing.cc - Run a generated module in the training tests -===//
//
// makeTarget, lower, compile once; place and run per call. The gradient
// check compares the reverse pass with central differences.
//
//===----------------------------------------------------------------------===//

#include "gevo/frontend/training_testing.h"

#include <cmath>
#include <random>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gevo/frontend/training.h"
#include "gtest/gtest.h"

#include "gevo/eval/entry_signature.h"
#include "gevo/eval/target.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/status_macros.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

namespace gevo {
namespace {

class TargetModule : public CompiledModule {
public:
  absl::StatusOr<std::vector<HostTensor>>
  run(const std::vector<HostTensor> &inputs) override {
    GEVO_ASSIGN_OR_RETURN(std::unique_ptr<PlacedInputs> placed,
                          target->place(inputs));
    GEVO_ASSIGN_OR_RETURN(TimedRun result, variant->run(*placed));
    return std::move(result.results);
  }

  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<Target> target;
  std::unique_ptr<CompiledVariant> variant;
};

HostTensor randomTensor(const std::vector<int64_t> &shape, std::mt19937 &rng) {
  HostTensor t(ElementType::F64, shape);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  for (int64_t i = 0; i < t.numElements(); ++i)
    t.as<double>()[i] = uniform(rng);
  return t;
}

double lossOf(CompiledModule &forward, const std::vector<HostTensor> &inputs,
              const HostTensor &dy) {
  absl::StatusOr<std::vector<HostTensor>> y = forward.run(inputs);
  EXPECT_TRUE(y.ok()) << y.status();
  double loss = 0;
  for (int64_t i = 0; y.ok() && i < dy.numElements(); ++i)
    loss += (*y)[0].as<double>()[i] * dy.as<double>()[i];
  return loss;
}

} // namespace

// x is 4x3; every case writes its ops after "%mm = x @ W" ([4, N]).
std::string forwardModule(int64_t n, const std::string &body,
                          const std::string &out, const std::string &outType) {
  return absl::StrReplaceAll(
      R"(#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%x: tensor<4x3xf64>) -> $T {
    %zero = arith.constant 0.0 : f64
    %one = arith.constant 1.0 : f64
    %W = arith.constant dense<0.0> : tensor<3x$Nxf64>
    %e = tensor.empty() : tensor<4x$Nxf64>
    %z = linalg.fill ins(%zero : f64) outs(%e : tensor<4x$Nxf64>) -> tensor<4x$Nxf64>
    %mm = linalg.matmul ins(%x, %W : tensor<4x3xf64>, tensor<3x$Nxf64>) outs(%z : tensor<4x$Nxf64>) -> tensor<4x$Nxf64>
$BODY    return $OUT : $T
  }
}
)",
      {{"$N", absl::StrCat(n)},
       {"$BODY", body},
       {"$OUT", out},
       {"$T", outType}});
}

void checkGradients(const std::string &forwardText) {
  absl::StatusOr<GradientCheckModules> modules =
      generateGradientCheck(forwardText);
  ASSERT_TRUE(modules.ok()) << modules.status();
  auto forward = CompiledModule::compile(modules->forward, "forward");
  ASSERT_TRUE(forward.ok()) << forward.status() << "\n" << modules->forward;
  auto gradient = CompiledModule::compile(modules->gradient, "gradient");
  ASSERT_TRUE(gradient.ok()) << gradient.status() << "\n" << modules->gradient;
  std::mt19937 rng(35);
  std::vector<HostTensor> inputs = {randomTensor(modules->inputShape, rng)};
  for (const std::vector<int64_t> &shape : modules->paramShapes)
    inputs.push_back(randomTensor(shape, rng));
  HostTensor dy = randomTensor(modules->outputShape, rng);
  std::vector<HostTensor> withDy = inputs;
  withDy.push_back(dy);
  absl::StatusOr<std::vector<HostTensor>> grads = (*gradient)->run(withDy);
  ASSERT_TRUE(grads.ok()) << grads.status();
  ASSERT_EQ(grads->size(), modules->paramShapes.size());
  const double eps = 1e-6;
  for (size_t k = 0; k < grads->size(); ++k) {
    double largest = 0;
    for (int64_t i = 0; i < (*grads)[k].numElements(); ++i) {
      double &p = inputs[k + 1].as<double>()[i];
      double saved = p;
      p = saved + eps;
      double up = lossOf(**forward, inputs, dy);
      p = saved - eps;
      double down = lossOf(**forward, inputs, dy);
      p = saved;
      double numeric = (up - down) / (2 * eps);
      double analytic = (*grads)[k].as<double>()[i];
      largest = std::max(largest, std::fabs(analytic));
      EXPECT_NEAR(analytic, numeric, 1e-7 + 1e-6 * std::fabs(numeric))
          << modules->paramNames[k] << "[" << i << "]\n"
          << modules->gradient;
    }
    EXPECT_GT(largest, 1e-3) << modules->paramNames[k] << " is all zeros";
  }
}

absl::StatusOr<std::unique_ptr<CompiledModule>>
CompiledModule::compile(const std::string &text, const std::string &entry) {
  auto compiled = std::make_unique<TargetModule>();
  GEVO_ASSIGN_OR_RETURN(compiled->target, makeTarget(EvaluationOptions()));
  GEVO_RETURN_IF_ERROR(compiled->target->start());
  compiled->context = createContext();
  GEVO_RETURN_IF_ERROR(compiled->target->prepare(*compiled->context));
  GEVO_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                        parseModule(*compiled->context, text, entry));
  GEVO_ASSIGN_OR_RETURN(EntrySignature signature,
                        readEntrySignature(*module, entry));
  GEVO_RETURN_IF_ERROR(compiled->target->lower(*module, entry, nullptr));
  GEVO_ASSIGN_OR_RETURN(compiled->variant,
                        compiled->target->compile(*module, signature));
  return std::unique_ptr<CompiledModule>(std::move(compiled));
}

} // namespace gevo
