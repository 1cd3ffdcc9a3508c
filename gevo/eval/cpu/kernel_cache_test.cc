//===- kernel_cache_test.cc - Loop nests compiled once, same answers ------===//

#include "gevo/eval/cpu/kernel_cache.h"
#include "gevo/eval/cpu/kernel_directory.h"

#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

#include "gevo/eval/cpu/jit.h"
#include "gevo/eval/cpu/lowering.h"
#include "gevo/eval/entry_signature.h"
#include "gevo/eval/training_subject.h"
#include "gevo/eval/workload/bindings.h"
#include "gevo/ir/mlir_support.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

/// Lowers a copy of `module` with the default pipeline, compiles it and
/// runs it on `s`'s arguments.
std::vector<HostTensor> compileAndRun(TrainingSubject &s, mlir::ModuleOp module,
                                      bool cacheKernels, int *compiled,
                                      int *reused,
                                      const std::string &directory = "",
                                      int *loaded = nullptr) {
  mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
  requestCInterface(*copy, s.spec.entry);
  absl::Status lowered = lowerToLLVMDialect(*copy, "");
  EXPECT_TRUE(lowered.ok()) << lowered;
  CodegenOptions options;
  options.cacheKernels = cacheKernels;
  options.kernelDirectory = directory;
  auto entry = JitEntry::compile(*copy, s.signature, options);
  EXPECT_TRUE(entry.ok()) << entry.status();
  if (!entry.ok())
    return {};
  EXPECT_EQ((*entry)->kernelCacheFailure(), "");
  *compiled = (*entry)->compiledKernels();
  *reused = (*entry)->reusedKernels();
  if (loaded)
    *loaded = (*entry)->loadedKernels();
  std::vector<const HostTensor *> pointers;
  for (const HostTensor &t : s.arguments)
    pointers.push_back(&t);
  auto results = (*entry)->run(pointers);
  EXPECT_TRUE(results.ok()) << results.status();
  return results.ok() ? std::move(*results) : std::vector<HostTensor>();
}

/// Multiplies the first non-zero float constant of `module` by `factor`.
void scaleAConstant(mlir::ModuleOp module, double factor) {
  bool changed = false;
  module.walk([&](mlir::arith::ConstantOp op) {
    auto value = llvm::dyn_cast<mlir::FloatAttr>(op.getValue());
    if (changed || !value || value.getValueAsDouble() == 0)
      return;
    op.setValueAttr(mlir::FloatAttr::get(value.getType(),
                                         factor * value.getValueAsDouble()));
    changed = true;
  });
  ASSERT_TRUE(changed);
}

/// Turns the first (or the last) multiplication inside a linalg op's body
/// into an addition: a change inside one kernel (a constant read by a kernel
/// is its argument, so editing one compiles nothing new).
void changeAKernel(mlir::ModuleOp module, bool last = false) {
  std::vector<mlir::arith::MulFOp> found;
  module.walk([&](mlir::arith::MulFOp op) {
    if (llvm::isa<mlir::linalg::LinalgOp>(op->getParentOp()))
      found.push_back(op);
  });
  ASSERT_GE(found.size(), 2u);
  mlir::arith::MulFOp product = last ? found.back() : found.front();
  mlir::OpBuilder builder(product);
  mlir::Value sum = mlir::arith::AddFOp::create(
      builder, product.getLoc(), product.getLhs(), product.getRhs());
  product.getResult().replaceAllUsesWith(sum);
  product.erase();
}

TEST(KernelCacheTest, TrainingLoopGivesTheSameLogitsAndCompilesOnce) {
  TrainingSubject s;
  loadTrainingSubject(s);
  int compiled = 0, reused = 0;
  std::vector<HostTensor> whole =
      compileAndRun(s, *s.module, false, &compiled, &reused);
  EXPECT_EQ(compiled + reused, 0);
  std::vector<HostTensor> first =
      compileAndRun(s, *s.module, true, &compiled, &reused);
  int kernels = compiled + reused;
  // The training loop's tiled ops become a dozen or more nests.
  EXPECT_GE(kernels, 10);
  EXPECT_GT(compiled, 0);
  expectSameResults(first, whole);
  std::vector<HostTensor> again =
      compileAndRun(s, *s.module, true, &compiled, &reused);
  EXPECT_EQ(compiled, 0);
  EXPECT_EQ(reused, kernels);
  expectSameResults(again, whole);
}

TEST(KernelCacheTest, AVariantRecompilesOnlyTheNestsItChanged) {
  TrainingSubject s;
  loadTrainingSubject(s);
  int compiled = 0, reused = 0;
  compileAndRun(s, *s.module, true, &compiled, &reused);
  int kernels = compiled + reused;
  // Double one float constant (a learning rate or an initial scale): the
  // kernels take it as an argument and the code around them, which holds
  // it, is not a kernel, so nothing is compiled again.
  mlir::OwningOpRef<mlir::ModuleOp> variant = s.module->clone();
  scaleAConstant(*variant, 2);
  std::vector<HostTensor> cached =
      compileAndRun(s, *variant, true, &compiled, &reused);
  EXPECT_EQ(reused, kernels);
  EXPECT_EQ(compiled, 0);
  int ignored = 0;
  expectSameResults(cached,
                    compileAndRun(s, *variant, false, &ignored, &ignored));
  // Change the arithmetic inside one kernel: that kernel is compiled again
  // (as is any op equal to it), the others are not.
  mlir::OwningOpRef<mlir::ModuleOp> changed = s.module->clone();
  changeAKernel(*changed);
  cached = compileAndRun(s, *changed, true, &compiled, &reused);
  EXPECT_GE(compiled, 1);
  EXPECT_LE(compiled, 3);
  EXPECT_EQ(compiled + reused, kernels);
  expectSameResults(cached,
                    compileAndRun(s, *changed, false, &ignored, &ignored));
}

TEST(KernelCacheTest, AForkedChildSharesWhatItCompiledThroughTheDirectory) {
  TrainingSubject s;
  loadTrainingSubject(s);
  std::string directory = makeKernelDirectory();
  ASSERT_FALSE(directory.empty());
  int compiled = 0, reused = 0, loaded = 0;
  compileAndRun(s, *s.module, true, &compiled, &reused, directory);
  mlir::OwningOpRef<mlir::ModuleOp> variant = s.module->clone();
  // Not a variant an earlier test compiled in this process.
  changeAKernel(*variant, /*last=*/true);
  // A child compiles the variant's new nests and leaves them behind.
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int c = 0, r = 0;
    compileAndRun(s, *variant, true, &c, &r, directory);
    _exit(c > 0 ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  // The parent links them instead of compiling, and gets the same logits.
  std::vector<HostTensor> shared =
      compileAndRun(s, *variant, true, &compiled, &reused, directory, &loaded);
  EXPECT_EQ(compiled, 0);
  EXPECT_GT(loaded, 0);
  int ignored = 0;
  expectSameResults(shared,
                    compileAndRun(s, *variant, false, &ignored, &ignored));
  // Every object left there was counted against the directory's cap.
  int64_t objects = 0;
  for (const auto &entry : std::filesystem::directory_iterator(directory))
    objects += entry.path().extension() == ".o";
  EXPECT_GT(objects, 0);
  EXPECT_EQ(
      static_cast<int64_t>(std::filesystem::file_size(directory + "/count")),
      objects);
  std::error_code error;
  std::filesystem::remove_all(directory, error);
}

TEST(KernelDirectoryTest, RemovesTheDirectoriesOfProcessesThatAreGone) {
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0)
    _exit(0);
  ASSERT_EQ(waitpid(child, nullptr, 0), child);
  std::filesystem::path base = std::filesystem::temp_directory_path();
  std::filesystem::path gone =
      base / ("gevo-kernels-" + std::to_string(child) + "-left");
  std::filesystem::path alive =
      base / ("gevo-kernels-" + std::to_string(getpid()) + "-mine");
  std::filesystem::create_directories(gone);
  std::filesystem::create_directories(alive);
  std::string made = makeKernelDirectory();
  EXPECT_FALSE(made.empty());
  EXPECT_FALSE(std::filesystem::exists(gone));
  EXPECT_TRUE(std::filesystem::exists(alive));
  EXPECT_TRUE(std::filesystem::is_directory(made));
  std::filesystem::remove_all(alive);
  std::filesystem::remove_all(made);
}

} // namespace
} // namespace gevo
