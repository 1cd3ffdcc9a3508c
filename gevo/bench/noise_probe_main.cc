//===- noise_probe_main.cc - How stable is an interleaved run-time ratio? -===//
//
//   bazel run //gevo/bench:noise_probe -- --workload=W P1.gevo P2.gevo ...
//
// Measures each patch (and the unmodified program against itself) against
// the unmodified program, interleaved in one child, --rounds times, and
// prints every round's medians and ratio: the spread is the noise the
// search's re-measurement has.
//
//===----------------------------------------------------------------------===//

#include <cstdio>

#include "gevo/bench/bench_workbench.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/workbench.h"
#include "replay/patch.h"
#include "llvm/Support/CommandLine.h"

namespace {
namespace cl = llvm::cl;
cl::OptionCategory category("noise probe options");
cl::opt<std::string> workload("workload", cl::desc("Workload directory"),
                              cl::Required, cl::cat(category));
cl::list<std::string> patches(cl::Positional, cl::desc("<patch.gevo>..."),
                              cl::cat(category));
cl::opt<int> rounds("rounds", cl::desc("Rounds (default 5)"), cl::init(5),
                    cl::cat(category));
cl::opt<int> pairs("pairs", cl::desc("Pairs per round (default 10)"),
                   cl::init(10), cl::cat(category));
cl::opt<int> children("children",
                      cl::desc("Children per round, whose median ratio is "
                               "printed (default 3; 1: each child's own)"),
                      cl::init(3), cl::cat(category));
cl::opt<int> workers("workers", cl::desc("Workers (default 2)"), cl::init(2),
                     cl::cat(category));
cl::opt<std::string> pipeline("pipeline", cl::desc("Pipeline"),
                              cl::init("vector"), cl::cat(category));
} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv, "noise probe\n");
  absl::StatusOr<gevo::WorkloadSpec> spec =
      gevo::loadWorkloadSpec(gevo::resolveUserPath(workload));
  if (!spec.ok())
    return gevo::reportBadInput(std::string(spec.status().message()));
  std::vector<std::vector<gevo::Edit>> lists;
  for (const std::string &path : patches) {
    absl::StatusOr<gevo::Patch> patch =
        gevo::loadPatch(gevo::resolveUserPath(path));
    if (!patch.ok())
      return gevo::reportBadInput(std::string(patch.status().message()));
    lists.push_back(patch->edits());
  }
  gevo::WorkbenchOptions options;
  options.workers = workers;
  options.evaluation.pipeline = pipeline;
  auto bench = gevo::openMeasuredWorkbench(*spec, options);
  if (!bench.ok())
    return gevo::reportBadInput(std::string(bench.status().message()));
  for (int r = 0; r < rounds; ++r) {
    gevo::Workbench::AgainstUnmodified m =
        (*bench)->measureAgainstUnmodified(lists, pairs, false, children);
    for (size_t i = 0; i <= lists.size(); ++i) {
      const gevo::Measurement &x =
          i < lists.size() ? m.variants[i] : m.unmodified;
      std::printf(
          "round %d %-40s variant %8.3f ms  unmodified %8.3f ms  "
          "ratio %.3f  %s\n",
          r, i < lists.size() ? patches[i].c_str() : "(unmodified)",
          x.medianRunMs, x.baselineMedianRunMs,
          x.baselineMedianRunMs > 0 ? x.medianRunMs / x.baselineMedianRunMs : 0,
          gevo::toString(x.outcome));
    }
  }
  return 0;
}
