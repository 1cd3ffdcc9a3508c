//===- training_roles_test.cc - The analyzer reads generated training -----===//
//
// The analyzer's op roles (analysis/roles.h) on generated training programs
// match those of the hand-written digits training: learning rates and
// momentum are update constants, epochs and batches the schedule, and so on,
// so its labels (learning-rate change, epochs...) name edits to them.
//
//===----------------------------------------------------------------------===//

#include <fstream>
#include <map>

#include "analysis/roles.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// Role of the op defined on the first line of the workload's module that
/// holds `needle`, for every needle.
std::map<std::string, std::string>
rolesAt(const std::string &workload, const std::vector<std::string> &needles) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(workload);
  EXPECT_TRUE(spec.ok()) << spec.status();
  if (!spec.ok())
    return {};
  auto module = loadModule(*context, spec->modulePath);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok())
    return {};
  RoleMap roles(**module, *spec);
  std::map<int, std::string> byLine;
  AddressIndex index(**module);
  for (mlir::Operation *op : index.ops())
    if (auto loc = llvm::dyn_cast<mlir::FileLineColLoc>(op->getLoc()))
      byLine[loc.getLine()] = toString(roles.roleOf(op));
  std::map<std::string, std::string> out;
  for (const std::string &needle : needles) {
    std::ifstream in(spec->modulePath);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n)
      if (line.find(needle) != std::string::npos) {
        out[needle] = byLine[n];
        break;
      }
  }
  return out;
}

TEST(TrainingRoles, GeneratedDigitsTrainingReadsAsTheHandWrittenOne) {
  std::map<std::string, std::string> roles = rolesAt(
      "testdata/digits_mlp_train_generated",
      {"%lr1 = arith.constant", "%lr2 = arith.constant",
       "%num_epochs = arith.constant", "%num_batches = arith.constant",
       "%W1_init = linalg.generic", "%mm = linalg.matmul",
       "%relu = linalg.generic", "%dl = linalg.generic", "%dW1 = linalg.matmul",
       "%W1_new = linalg.generic", "%mm_3 = linalg.matmul"});
  std::map<std::string, std::string> want = {
      {"%lr1 = arith.constant", "update"},
      {"%lr2 = arith.constant", "update"},
      {"%num_epochs = arith.constant", "schedule"},
      {"%num_batches = arith.constant", "schedule"},
      {"%W1_init = linalg.generic", "parameter"},
      {"%mm = linalg.matmul", "forward"},
      {"%relu = linalg.generic", "forward"},
      {"%dl = linalg.generic", "loss"},
      {"%dW1 = linalg.matmul", "gradient"},
      {"%W1_new = linalg.generic", "update"},
      {"%mm_3 = linalg.matmul", "prediction"}};
  EXPECT_EQ(roles, want);
}

TEST(TrainingRoles, MomentumAndConvolutionRoles) {
  std::map<std::string, std::string> roles =
      rolesAt("testdata/fashion_cnn_train_generated",
              {"%momentum = arith.constant", "%lr1 = arith.constant",
               "%conv = linalg.conv_2d_nchw_fchw", "%dW1 = linalg.generic",
               "%vW1_new = linalg.generic", "%W1_new = linalg.generic"});
  std::map<std::string, std::string> want = {
      {"%momentum = arith.constant", "update"},
      {"%lr1 = arith.constant", "update"},
      {"%conv = linalg.conv_2d_nchw_fchw", "forward"},
      {"%dW1 = linalg.generic", "gradient"},
      {"%vW1_new = linalg.generic", "update"},
      {"%W1_new = linalg.generic", "update"}};
  EXPECT_EQ(roles, want);
}

} // namespace
} // namespace gevo
