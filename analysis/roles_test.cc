//===- roles_test.cc - Roles of the digits workloads' ops -----------------===//

#include "analysis/roles.h"

#include <fstream>
#include <map>

#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

struct Loaded {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  WorkloadSpec spec;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

std::unique_ptr<Loaded> load(const std::string &workload) {
  auto loaded = std::make_unique<Loaded>();
  absl::StatusOr<WorkloadSpec> spec = loadWorkloadSpec(findRunfile(workload));
  EXPECT_TRUE(spec.ok()) << spec.status();
  loaded->spec = *spec;
  auto module = loadModule(*loaded->context, spec->modulePath);
  EXPECT_TRUE(module.ok()) << module.status();
  loaded->module = std::move(*module);
  return loaded;
}

/// The role of the op that defines SSA name `name` in the printed source
/// (found through its location: line of `%name =`).
std::map<std::string, std::string> rolesByLine(const Loaded &loaded,
                                               const RoleMap &roles) {
  std::map<std::string, std::string> out;
  AddressIndex index(*loaded.module);
  for (mlir::Operation *op : index.ops()) {
    auto loc = llvm::dyn_cast<mlir::FileLineColLoc>(op->getLoc());
    if (loc)
      out[std::to_string(loc.getLine())] = toString(roles.roleOf(op));
  }
  return out;
}

int lineOf(const std::string &path, const std::string &needle) {
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n)
    if (line.find(needle) != std::string::npos)
      return n;
  return -1;
}

TEST(RolesTest, TrainingWorkload) {
  auto loaded = load("testdata/digits_mlp_train");
  RoleMap roles(*loaded->module, loaded->spec);
  std::map<std::string, std::string> byLine = rolesByLine(*loaded, roles);
  auto roleAt = [&](const std::string &needle) {
    int line = lineOf(loaded->spec.modulePath, needle);
    EXPECT_GT(line, 0) << needle;
    return byLine[std::to_string(line)];
  };
  EXPECT_EQ(roleAt("%lr          = arith.constant"), "update");
  EXPECT_EQ(roleAt("%num_epochs  = arith.constant"), "schedule");
  EXPECT_EQ(roleAt("%num_batches = arith.constant"), "schedule");
  EXPECT_EQ(roleAt("%W1_init = linalg.generic"), "parameter");
  EXPECT_EQ(roleAt("%xW1 = linalg.matmul"), "forward");
  EXPECT_EQ(roleAt("%h = linalg.generic"), "forward");
  EXPECT_EQ(roleAt("%p = linalg.generic"), "forward");
  EXPECT_EQ(roleAt("%dl = linalg.generic"), "loss");
  EXPECT_EQ(roleAt("%hT = linalg.transpose"), "gradient");
  EXPECT_EQ(roleAt("%W2T = linalg.transpose"), "gradient");
  EXPECT_EQ(roleAt("%dW1 = linalg.matmul"), "gradient");
  EXPECT_EQ(roleAt("%W1_new = linalg.generic"), "update");
  EXPECT_EQ(roleAt("%eval_xW1 = linalg.matmul"), "prediction");
  EXPECT_EQ(roleAt("%eval_logits = linalg.generic"), "prediction");
  EXPECT_EQ(roleAt("%e32x32 = tensor.empty"), "plumbing");
}

TEST(RolesTest, PredictionWorkload) {
  auto loaded = load("testdata/digits_mlp_predict");
  RoleMap roles(*loaded->module, loaded->spec);
  std::map<Role, int> counts = roles.histogram();
  EXPECT_EQ(counts[Role::Update], 0);
  EXPECT_EQ(counts[Role::Gradient], 0);
  EXPECT_GT(counts[Role::Prediction], 5);
  std::map<std::string, std::string> byLine = rolesByLine(*loaded, roles);
  int w1 = lineOf(loaded->spec.modulePath, "%W1 = arith.constant");
  EXPECT_EQ(byLine[std::to_string(w1)], "parameter");
}

} // namespace
} // namespace gevo
