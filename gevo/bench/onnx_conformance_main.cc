//===- onnx_conformance_main.cc - The ONNX importer against the backend suite
//
//   bazel run //gevo/bench:onnx_conformance --
//   --json=bench-results/onnx_conformance.json
//
// Runs every test of Debian's ONNX backend test suite (libonnx-testdata)
// through the importer and the evaluator's compile path, each in a forked
// child with a time limit (a crash or a hang is that test's, not the
// bench's), and reports per op type: tests in scope, passed, failed with the
// largest error, and how many tests are out of scope and why.
//
//===----------------------------------------------------------------------===//

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sys/wait.h>
#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gevo/bench/figures.h"
#include "gevo/frontend/backend_test.h"
#include "gevo/frontend/onnx_import.h"
#include "gevo/support/tool_errors.h"
#include "llvm/Support/CommandLine.h"

namespace {

namespace fs = std::filesystem;

llvm::cl::OptionCategory category("onnx_conformance options");
llvm::cl::opt<std::string>
    suite("suite", llvm::cl::desc("The backend test suite's data folder"),
          llvm::cl::init("/usr/share/libonnx-testdata/data"),
          llvm::cl::cat(category));
llvm::cl::opt<std::string> json("json",
                                llvm::cl::desc("Write the figures here"),
                                llvm::cl::cat(category));
llvm::cl::opt<std::string>
    filter("filter", llvm::cl::desc("Only tests whose path contains this"),
           llvm::cl::cat(category));
llvm::cl::opt<int>
    timeoutSeconds("timeout",
                   llvm::cl::desc("Seconds a test may take in its child"),
                   llvm::cl::init(120), llvm::cl::cat(category));
llvm::cl::opt<bool> verbose("verbose",
                            llvm::cl::desc("Print every test's result"),
                            llvm::cl::cat(category));

struct Outcome {
  std::string kind; // passed, failed, out of scope, crashed, timeout
  double maxError = 0;
  std::vector<std::string> opTypes;
  std::string detail;
};

/// Runs one test in a child; its result comes back as lines on a pipe.
Outcome runInChild(const std::string &directory) {
  int fds[2];
  if (pipe(fds) != 0)
    return {"crashed", 0, {}, "pipe failed"};
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    alarm(timeoutSeconds);
    gevo::BackendTestResult result = gevo::runBackendTest(directory);
    std::string text = absl::StrCat(
        gevo::toString(result.kind), "\n", result.maxError, "\n",
        absl::StrJoin(result.opTypes, ","), "\n", result.detail, "\n");
    (void)!write(fds[1], text.data(), text.size());
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof buffer)) > 0;)
    text.append(buffer, n);
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  std::vector<std::string> lines = absl::StrSplit(text, '\n');
  if (lines.size() < 4) {
    bool hung = WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM;
    return {hung ? "timeout" : "crashed",
            0,
            {},
            WIFSIGNALED(status) ? absl::StrCat("signal ", WTERMSIG(status))
                                : "no result"};
  }
  Outcome outcome{lines[0], std::stod(lines[1]), {}, lines[3]};
  if (!lines[2].empty())
    outcome.opTypes = absl::StrSplit(lines[2], ',');
  return outcome;
}

std::vector<std::string> testFolders() {
  std::vector<std::string> folders;
  if (!fs::is_directory(suite.getValue()))
    return folders;
  for (const auto &group : fs::directory_iterator(suite.getValue()))
    if (group.is_directory())
      for (const auto &test : fs::directory_iterator(group.path()))
        if (fs::exists(test.path() / "model.onnx") &&
            test.path().string().find(filter.getValue()) != std::string::npos)
          folders.push_back(test.path().string());
  std::sort(folders.begin(), folders.end());
  return folders;
}

/// Why a test is out of scope, in a few words: the importer's error after
/// the node's name.
std::string reasonOf(const std::string &detail) {
  size_t colon = detail.rfind("): ");
  std::string reason =
      colon == std::string::npos ? detail : detail.substr(colon + 3);
  if (reason.rfind("unsupported ONNX op", 0) == 0) {
    size_t open = detail.find("' (");
    size_t comma = detail.find(", opset", open);
    if (open != std::string::npos && comma != std::string::npos)
      return absl::StrCat("unsupported op ",
                          detail.substr(open + 3, comma - open - 3));
  }
  size_t model = reason.find("model.onnx: ");
  return model == std::string::npos ? reason : reason.substr(model + 12);
}

struct OpRow {
  int inScope = 0, passed = 0, failed = 0;
  double maxError = 0;
};

} // namespace

int main(int argc, char **argv) {
  llvm::cl::HideUnrelatedOptions(category);
  if (!llvm::cl::ParseCommandLineOptions(
          argc, argv,
          "The ONNX importer against Debian's ONNX backend test suite\n"))
    return gevo::kBadInputExitCode;
  std::vector<std::string> folders = testFolders();
  if (folders.empty())
    return gevo::reportBadInput(
        absl::StrCat("no tests under ", suite.getValue(),
                     " (install libonnx-testdata, or give --suite)"));
  std::map<std::string, OpRow> ops;
  std::map<std::string, int> kinds, reasons;
  llvm::json::Array failures;
  for (size_t i = 0; i < folders.size(); ++i) {
    Outcome outcome = runInChild(folders[i]);
    ++kinds[outcome.kind];
    std::string name = fs::relative(folders[i], suite.getValue()).string();
    if (verbose || (outcome.kind != "passed" && outcome.kind != "out of scope"))
      std::printf("%-60s %s %s\n", name.c_str(), outcome.kind.c_str(),
                  outcome.detail.c_str());
    if (outcome.kind == "out of scope") {
      ++reasons[reasonOf(outcome.detail)];
      continue;
    }
    if (outcome.kind != "passed")
      failures.push_back(llvm::json::Object{
          {"test", name}, {"kind", outcome.kind}, {"detail", outcome.detail}});
    for (const std::string &op : outcome.opTypes) {
      OpRow &row = ops[op];
      ++row.inScope;
      (outcome.kind == "passed" ? row.passed : row.failed) += 1;
      row.maxError = std::max(row.maxError, outcome.maxError);
    }
  }
  int inScope = folders.size() - kinds["out of scope"];
  std::printf("\n%-24s %8s %7s %7s %12s\n", "op", "in scope", "passed",
              "failed", "max error");
  llvm::json::Array opRows;
  for (const auto &[op, row] : ops) {
    std::printf("%-24s %8d %7d %7d %12.3g\n", op.c_str(), row.inScope,
                row.passed, row.failed, row.maxError);
    opRows.push_back(llvm::json::Object{{"op", op},
                                        {"in_scope", row.inScope},
                                        {"passed", row.passed},
                                        {"failed", row.failed},
                                        {"max_error", row.maxError}});
  }
  llvm::json::Object reasonRows;
  for (const auto &[reason, count] : reasons)
    reasonRows[reason] = count;
  double share = inScope ? 100.0 * kinds["passed"] / inScope : 0;
  std::printf("\n%zu tests: %d out of scope, %d in scope; passed %d (%.1f%%), "
              "failed %d, crashed %d, timed out %d; %zu op types importable\n",
              folders.size(), kinds["out of scope"], inScope, kinds["passed"],
              share, kinds["failed"], kinds["crashed"], kinds["timeout"],
              gevo::supportedOnnxOpCount());
  if (!json.empty()) {
    llvm::json::Object figures{
        {"suite", suite.getValue()},
        {"tests", static_cast<int64_t>(folders.size())},
        {"out_of_scope", kinds["out of scope"]},
        {"in_scope", inScope},
        {"passed", kinds["passed"]},
        {"failed", kinds["failed"]},
        {"crashed", kinds["crashed"]},
        {"timeout", kinds["timeout"]},
        {"passed_percent", share},
        {"supported_op_types",
         static_cast<int64_t>(gevo::supportedOnnxOpCount())},
        {"ops", std::move(opRows)},
        {"out_of_scope_reasons", std::move(reasonRows)},
        {"failures", std::move(failures)}};
    if (absl::Status status = gevo::writeFigures(json, std::move(figures));
        !status.ok())
      return gevo::reportBadInput(std::string(status.message()));
  }
  return 0;
}
