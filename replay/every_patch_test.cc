//===- every_patch_test.cc - Every patch in the repository still replays --===//
//
// For each .gevo file in the repository (golden patches, label fixtures, the
// build-rule example, any under bench-results/): the text parses and prints
// back byte for byte, and the patch replays onto the model its fingerprint
// names (or fails as its `# ERROR:` lines say it must); a patch made on an
// ONNX model replays onto the import its `source onnx` line names. The files
// come as arguments (BUILD lists them); a .gevo file in the checkout that BUILD
// does not list fails the test, so new patches cannot be forgotten.
//
//===----------------------------------------------------------------------===//

#include <filesystem>
#include <fnmatch.h>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/ir/op_address.h"
#include "gevo/support/file_io.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "replay/apply.h"
#include "replay/patch.h"
#include "gtest/gtest.h"

namespace gevo {
namespace {

std::vector<std::string> patchPaths, modelPaths, onnxPaths;

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The patterns of an ignore file (.gitignore or .bazelignore): one per line,
/// comments and blank lines left out, a trailing '/' dropped.
std::vector<std::string> ignorePatterns(const std::filesystem::path &file) {
  std::vector<std::string> patterns;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#')
      continue;
    if (line.back() == '/')
      line.pop_back();
    patterns.push_back(line);
  }
  return patterns;
}

/// Whether a path of the checkout (`relative`, its last part `name`) is one
/// the patterns ignore, as git reads them: a pattern with a '/' matches the
/// path from the root (a leading '/' only anchors it), one without matches
/// the name at any depth; '*' and '?' are wildcards.
bool isIgnored(const std::vector<std::string> &patterns,
               const std::string &relative, const std::string &name) {
  for (const std::string &pattern : patterns) {
    bool anchored = pattern.find('/') != std::string::npos;
    std::string glob = pattern[0] == '/' ? pattern.substr(1) : pattern;
    if (fnmatch(glob.c_str(), (anchored ? relative : name).c_str(),
                FNM_PATHNAME) == 0)
      return true;
  }
  return false;
}

TEST(EveryPatchTest, IgnoredPathsFollowGitsRules) {
  std::vector<std::string> patterns = {"/bazel-*", "gevo-runs",
                                       "bench-results/minimizer-run*"};
  EXPECT_TRUE(isIgnored(patterns, "bazel-bin", "bazel-bin"));
  EXPECT_FALSE(isIgnored(patterns, "replay/bazel-x", "bazel-x"));
  EXPECT_TRUE(isIgnored(patterns, "gevo-runs", "gevo-runs"));
  EXPECT_TRUE(isIgnored(patterns, "sub/gevo-runs", "gevo-runs"));
  EXPECT_TRUE(
      isIgnored(patterns, "bench-results/minimizer-run3", "minimizer-run3"));
  EXPECT_FALSE(isIgnored(patterns, "bench-results/front", "front"));
}

/// The ONNX models among the inputs, imported as a `source onnx` line says.
void addImports(
    mlir::MLIRContext &context, const OnnxSource &onnx,
    std::map<std::string, mlir::OwningOpRef<mlir::ModuleOp>> &models) {
  ImportSettings import;
  import.batch = onnx.batch;
  import.entry = onnx.entry;
  for (const std::string &path : onnxPaths) {
    auto module = loadLinalgModule(context, path, nullptr, import);
    ASSERT_TRUE(module.ok()) << module.status();
    std::string key = modelFingerprint(**module);
    models[key] = std::move(*module);
  }
}

TEST(EveryPatchTest, ParsesPrintsByteForByteAndReplays) {
  ASSERT_GT(patchPaths.size(), 30u) << "the patches were not passed";
  std::unique_ptr<mlir::MLIRContext> context = createContext();
  std::map<std::string, mlir::OwningOpRef<mlir::ModuleOp>> models;
  for (const std::string &path : modelPaths) {
    absl::StatusOr<std::string> text = readFile(path, "file");
    ASSERT_TRUE(text.ok()) << text.status();
    auto module = parseModule(*context, *text, path);
    ASSERT_TRUE(module.ok()) << module.status();
    std::string key = modelFingerprint(**module);
    models[key] = std::move(*module);
  }
  int replayed = 0, refused = 0;
  for (const std::string &path : patchPaths) {
    SCOPED_TRACE(path);
    absl::StatusOr<std::string> text = readFile(path, "file");
    ASSERT_TRUE(text.ok()) << text.status();
    bool mustFail = text->find("\n# ERROR:") != std::string::npos;
    absl::StatusOr<Patch> patch = parsePatch(*text, path);
    if (!patch.ok()) {
      // Only a patch that documents its own parse error may fail here.
      EXPECT_TRUE(mustFail) << patch.status();
      ++refused;
      continue;
    }
    EXPECT_EQ(printPatch(*patch), *text);
    if (std::optional<OnnxSource> onnx = onnxSource(*patch);
        onnx && !models.count(patch->model))
      addImports(*context, *onnx, models);
    auto model = models.find(patch->model);
    ASSERT_NE(model, models.end())
        << "no model with fingerprint " << patch->model << " among the inputs";
    mlir::OwningOpRef<mlir::ModuleOp> work(model->second->clone());
    absl::StatusOr<ApplyReport> report =
        applyPatch(*work, *patch, path, OnMismatch::Error);
    if (mustFail) {
      EXPECT_FALSE(report.ok()) << "a patch with # ERROR: lines applied";
      ++refused;
    } else {
      EXPECT_TRUE(report.ok()) << report.status();
      ++replayed;
    }
  }
  EXPECT_GT(replayed, 25);
  std::cout << replayed << " patches replayed, " << refused
            << " refused as they document\n";
}

TEST(EveryPatchTest, BuildListsEveryPatchInTheCheckout) {
  // Runfiles are links into the checkout: follow one back to its root.
  ASSERT_FALSE(patchPaths.empty());
  std::filesystem::path first = patchPaths.front();
  std::error_code error;
  std::filesystem::path real = std::filesystem::canonical(first, error);
  ASSERT_FALSE(error) << first;
  std::filesystem::path root = real;
  for (auto part = first.begin(); part != first.end(); ++part)
    root = root.parent_path();
  std::set<std::string> listed(patchPaths.begin(), patchPaths.end());
  // Directories Bazel ignores are other workspaces (examples/client), whose
  // own tests replay their patches; directories git ignores hold what a
  // user's runs leave in the checkout (gevo-runs/), which is not ours.
  std::vector<std::string> ignored = ignorePatterns(root / ".bazelignore");
  for (std::string &pattern : ignorePatterns(root / ".gitignore"))
    ignored.push_back(std::move(pattern));
  int seen = 0;
  for (auto it = std::filesystem::recursive_directory_iterator(root);
       it != std::filesystem::recursive_directory_iterator(); ++it) {
    std::string name = it->path().filename().string();
    std::string relative = std::filesystem::relative(it->path(), root).string();
    if (name == ".git" || isIgnored(ignored, relative, name)) {
      if (it->is_directory())
        it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || !endsWith(name, ".gevo"))
      continue;
    ++seen;
    EXPECT_TRUE(listed.count(relative))
        << relative << " is not listed in //replay:every_patch_test";
  }
  EXPECT_GE(seen, static_cast<int>(patchPaths.size()));
}

} // namespace
} // namespace gevo

int main(int argc, char **argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    std::string path = argv[i];
    if (gevo::endsWith(path, ".gevo"))
      gevo::patchPaths.push_back(path);
    else if (gevo::endsWith(path, ".mlir"))
      gevo::modelPaths.push_back(path);
    else if (gevo::endsWith(path, ".onnx"))
      gevo::onnxPaths.push_back(path);
  }
  return RUN_ALL_TESTS();
}
