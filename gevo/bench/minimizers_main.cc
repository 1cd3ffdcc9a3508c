//===- minimizers_main.cc - ddmin vs GEVO's greedy pass vs exhaustive -----===//
//
//   bazel run //gevo/bench:minimizers -- --run=gevo-runs/<run>
//
// Minimises every front patch of a search run three ways with the same
// oracle (deterministic objectives, so that the three see the same answers):
// ddmin, GEVO's one greedy pass, and exhaustive search by increasing size
// (patches of at most --exhaustive-limit edits). Each method starts with an
// empty cache, so its evaluations are its own. Prints a row per patch and the
// totals last; writes the figures as JSON (--json).
//
//===----------------------------------------------------------------------===//

#include <cstdio>
#include <fstream>
#include <thread>

#include "absl/strings/str_split.h"
#include "analysis/minimize.h"
#include "gevo/support/file_io.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("minimizer benchmark options");
cl::opt<std::string> runDir("run", cl::desc("Search run directory"),
                            cl::Required, cl::cat(category));
cl::opt<std::string>
    objectives("objectives",
               cl::desc("Objectives the minimal patches keep (default "
                        "static_cost,error: deterministic)"),
               cl::init("static_cost,error"), cl::cat(category));
cl::opt<int> exhaustiveLimit(
    "exhaustive-limit",
    cl::desc("Largest patch searched exhaustively (default 10)"), cl::init(10),
    cl::cat(category));
cl::opt<std::string>
    jsonPath("json", cl::desc("Figures file (default minimizers.json)"),
             cl::init("minimizers.json"), cl::cat(category));

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "ddmin vs greedy vs exhaustive patch "
                                   "minimisation on a run's front.\n",
                                   &llvm::errs()))
    return 2;
  std::string dir = gevo::resolveUserPath(runDir);
  absl::StatusOr<std::string> runText =
      gevo::readFile(dir + "/run.json", "run file");
  absl::StatusOr<std::string> frontText =
      gevo::readFile(dir + "/front.json", "front file");
  if (!runText.ok() || !frontText.ok())
    return gevo::reportBadInput(std::string(
        (!runText.ok() ? runText.status() : frontText.status()).message()));
  llvm::Expected<llvm::json::Value> run = llvm::json::parse(*runText);
  llvm::Expected<llvm::json::Value> front = llvm::json::parse(*frontText);
  if (!run || !front) {
    if (!run)
      llvm::consumeError(run.takeError());
    if (!front)
      llvm::consumeError(front.takeError());
    return gevo::reportBadInput(dir + ": malformed run.json or front.json");
  }
  std::string workload = run->getAsObject()
                             ->getObject("config")
                             ->getString("workload")
                             .value_or("")
                             .str();
  absl::StatusOr<gevo::WorkloadSpec> spec = gevo::loadWorkloadSpec(workload);
  if (!spec.ok())
    return gevo::reportBadInput(std::string(spec.status().message()));
  auto session =
      gevo::EvaluationSession::create(*spec, gevo::EvaluationOptions());
  if (!session.ok())
    return gevo::reportBadInput(std::string(session.status().message()));
  gevo::SandboxPool pool(
      static_cast<int>(std::max(1u, std::thread::hardware_concurrency())),
      gevo::SandboxLimits{60, int64_t(4) << 30});
  gevo::EffectOptions options;
  for (absl::string_view name : absl::StrSplit(objectives.getValue(), ','))
    options.objectives.emplace_back(name);

  const char *names[] = {"ddmin", "greedy", "exhaustive"};
  gevo::Minimizer methods[] = {gevo::Minimizer::Ddmin, gevo::Minimizer::Greedy,
                               gevo::Minimizer::Exhaustive};
  int64_t totalTests[3] = {0, 0, 0}, totalKept[3] = {0, 0, 0};
  int compared = 0;
  llvm::json::Array rows;
  std::printf("%-16s %5s | %-12s | %-12s | %-12s\n", "patch", "edits", "ddmin",
              "greedy", "exhaustive");
  std::printf("%-16s %5s | %-12s | %-12s | %-12s\n", "", "", "kept/tests",
              "kept/tests", "kept/tests");
  for (const llvm::json::Value &member :
       *front->getAsObject()->getArray("members")) {
    std::string name =
        member.getAsObject()->getString("patch").value_or("").str();
    absl::StatusOr<gevo::Patch> patch = gevo::loadPatch(dir + "/" + name);
    if (!patch.ok())
      continue;
    std::vector<gevo::Edit> edits = patch->edits();
    int kept[3] = {-1, -1, -1}, tests[3] = {0, 0, 0};
    for (int m = 0; m < 3; ++m) {
      if (m == 2 && static_cast<int>(edits.size()) > exhaustiveLimit)
        continue;
      gevo::FitnessCache cache; // each method pays for its own evaluations
      gevo::PatchEffect effect(**session, pool, cache, edits, options);
      absl::StatusOr<gevo::MinimizeResult> result =
          gevo::minimizePatch(effect, methods[m]);
      if (!result.ok())
        break;
      kept[m] = static_cast<int>(result->kept.size());
      tests[m] = result->tests;
    }
    if (kept[0] < 0)
      continue;
    std::string cells[3];
    for (int m = 0; m < 3; ++m)
      cells[m] =
          kept[m] < 0 ? "-" : llvm::formatv("{0}/{1}", kept[m], tests[m]).str();
    std::printf("%-16s %5zu | %-12s | %-12s | %-12s\n", name.c_str(),
                edits.size(), cells[0].c_str(), cells[1].c_str(),
                cells[2].c_str());
    std::fflush(stdout);
    if (kept[2] >= 0) {
      ++compared;
      for (int m = 0; m < 3; ++m) {
        totalTests[m] += tests[m];
        totalKept[m] += kept[m];
      }
    }
    rows.push_back(
        llvm::json::Object{{"patch", name},
                           {"edits", static_cast<int64_t>(edits.size())},
                           {"ddmin_kept", kept[0]},
                           {"ddmin_tests", tests[0]},
                           {"greedy_kept", kept[1]},
                           {"greedy_tests", tests[1]},
                           {"exhaustive_kept", kept[2]},
                           {"exhaustive_tests", tests[2]}});
  }
  llvm::json::Object figures{{"run", dir},
                             {"objectives", objectives.getValue()},
                             {"patches", std::move(rows)}};
  for (int m = 0; m < 3; ++m) {
    figures[std::string(names[m]) + "_tests"] = totalTests[m];
    figures[std::string(names[m]) + "_kept"] = totalKept[m];
  }
  std::ofstream(gevo::resolveUserPath(jsonPath))
      << llvm::formatv("{0:2}", llvm::json::Value(std::move(figures))).str()
      << "\n";
  std::printf("minimizers on %d patches: ddmin %lld tests -> %lld edits, "
              "greedy %lld tests -> %lld edits, exhaustive %lld tests -> "
              "%lld edits\n",
              compared, static_cast<long long>(totalTests[0]),
              static_cast<long long>(totalKept[0]),
              static_cast<long long>(totalTests[1]),
              static_cast<long long>(totalKept[1]),
              static_cast<long long>(totalTests[2]),
              static_cast<long long>(totalKept[2]));
  return 0;
}
