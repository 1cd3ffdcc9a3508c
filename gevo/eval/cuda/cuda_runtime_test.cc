//===- cuda_runtime_test.cc - The mgpu* runtime without (or with) a GPU ---===//

#include "gevo/eval/cuda/cuda_runtime.h"

#include <dlfcn.h>
#include <map>
#include <string>

#include "gevo/eval/cuda/cuda_driver.h"
#include "gevo/eval/cuda/cuda_pipeline.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

bool driverInstalled() {
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle)
    dlclose(handle);
  return handle != nullptr;
}

TEST(CudaDriverTest, AMissingLibraryIsAStatusNamingIt) {
  absl::StatusOr<CudaDriver> driver =
      openCudaDriver("libgevo-no-such-driver.so.1");
  ASSERT_FALSE(driver.ok());
  EXPECT_EQ(driver.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(driver.status().message(),
            "no CUDA driver (libgevo-no-such-driver.so.1 not found)");
}

TEST(CudaDriverTest, ALibraryWithoutTheDriverApiIsRefused) {
  absl::StatusOr<CudaDriver> driver = openCudaDriver("libm.so.6");
  ASSERT_FALSE(driver.ok());
  EXPECT_EQ(driver.status().message(),
            "the CUDA driver libm.so.6 lacks cuInit");
}

// Where no driver is installed (CI, the build machines), every entry point
// reports the missing driver instead of crashing; with one, the runtime
// starts and times an empty run.
TEST(CudaRuntimeTest, InitialisationReportsTheDriverOrStarts) {
  absl::Status status = initializeCudaRuntime();
  if (driverInstalled()) {
    ASSERT_TRUE(status.ok()) << status;
    ASSERT_TRUE(beginCudaTiming().ok());
    absl::StatusOr<CudaRunTiming> timing = endCudaTiming();
    ASSERT_TRUE(timing.ok()) << timing.status();
    EXPECT_EQ(timing->launches, 0);
    EXPECT_GE(timing->kernelMs, 0);
    return;
  }
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "no CUDA driver (libcuda.so.1 not found)");
  EXPECT_EQ(beginCudaTiming().message(), status.message());
  EXPECT_EQ(allocateShared(64), nullptr);
  EXPECT_EQ(takeCudaRuntimeError().message(), status.message());
  // A call from compiled code: no crash, the same error kept.
  std::map<std::string, void *> symbols;
  for (const auto &[name, address] : cudaRuntimeSymbols())
    symbols[name] = address;
  auto load =
      reinterpret_cast<void *(*)(void *, size_t)>(symbols.at("mgpuModuleLoad"));
  char image[16] = {0};
  EXPECT_EQ(load(image, sizeof(image)), nullptr);
  EXPECT_EQ(takeCudaRuntimeError().message(), status.message());
  EXPECT_TRUE(takeCudaRuntimeError().ok());
}

// Every external function the lowered prediction workload's LLVM IR
// declares is one the runtime defines, with the arity MLIR calls it with.
TEST(CudaRuntimeTest, DefinesEveryFunctionTheLoweredHostCodeCalls) {
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module = loadModule(
      *context, findRunfile("testdata/digits_mlp_predict/model.mlir"));
  ASSERT_TRUE(module.ok()) << module.status();
  registerCudaPipelinePasses();
  CudaChip target;
  target.format = CudaBinaryFormat::kPtx; // needs no CUDA toolkit
  ASSERT_TRUE(prepareCudaToolkit(target).ok());
  mlir::PassManager pm(context.get(), mlir::ModuleOp::getOperationName());
  ASSERT_TRUE(
      mlir::succeeded(mlir::parsePassPipeline(cudaPipeline(target), pm)));
  ASSERT_TRUE(mlir::succeeded(pm.run(**module)));
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(**module, llvmContext);
  ASSERT_NE(llvmModule, nullptr);

  std::map<std::string, void *> symbols;
  for (const auto &[name, address] : cudaRuntimeSymbols())
    symbols[name] = address;
  std::map<std::string, size_t> declared;
  for (const llvm::Function &function : *llvmModule)
    if (function.isDeclaration() && !function.isIntrinsic())
      declared[function.getName().str()] = function.arg_size();
  EXPECT_EQ(declared.count("mgpuLaunchKernel"), 1u);
  // PTX is compiled by the driver when the module loads.
  EXPECT_EQ(declared.count("mgpuModuleLoadJIT"), 1u);
  for (const auto &[name, arity] : declared)
    EXPECT_EQ(symbols.count(name), 1u) << name << " is not defined";
  EXPECT_EQ(declared["mgpuLaunchKernel"], 12u);
  EXPECT_EQ(declared["mgpuModuleLoadJIT"], 2u);
  EXPECT_EQ(declared["mgpuModuleGetFunction"], 2u);
}

} // namespace
} // namespace gevo
