//===- stress_main.cc - The search's parent under hostile variants --------===//
//
//   bazel run //gevo/bench:stress -- [--mutants=10000] [--json=stress.json]
//       [--workloads=testdata/digits_mlp_predict] [--operators=shrink]
//
// Draws random edit lists (1..4 edits of every kind, as random search does)
// on each workload and measures them through the workbench and its sandbox
// pool, batch after batch, as a search would. Reports the outcomes by kind,
// the parent's resident memory and malloc's bytes in use over time (both
// must stay flat: nothing is kept per variant but its measurement), and
// children left behind (zombies or live ones after each batch: must be 0).
// Finishing at all means 0 parent crashes. A program that prints figures,
// never a timed test.
//
//===----------------------------------------------------------------------===//

#include <dirent.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gevo/bench/bench_tool.h"
#include "gevo/bench/bench_workbench.h"
#include "gevo/bench/figures.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/search/variation.h"
#include "gevo/support/stopwatch.h"
#include "gevo/support/tool_errors.h"
#include "gevo/support/tool_paths.h"
#include "gevo/workbench/workbench.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"

namespace {

namespace cl = llvm::cl;
cl::OptionCategory category("stress benchmark options");
cl::opt<std::string>
    workloads("workloads",
              cl::desc("Comma-separated workloads (default: both digits)"),
              cl::init("testdata/digits_mlp_train,testdata/digits_mlp_predict"),
              cl::cat(category));
cl::opt<int> mutants("mutants",
                     cl::desc("Random variants in all, split over the "
                              "workloads (default 10000)"),
                     cl::init(10000), cl::cat(category));
cl::opt<int> batch("batch", cl::desc("Variants per batch (default 64)"),
                   cl::init(64), cl::cat(category));
cl::opt<int> workers("workers", cl::desc("Workers (default: cores)"),
                     cl::init(0), cl::cat(category));
cl::opt<uint64_t> seed("seed", cl::desc("Random seed (default 1)"), cl::init(1),
                       cl::cat(category));
cl::opt<std::string>
    operators("operators",
              cl::desc("Comma-separated operators to draw edits from "
                       "(default: all), e.g. shrink"),
              cl::init(""), cl::cat(category));
cl::opt<int64_t> recycleEvery(
    "recycle-every",
    cl::desc("Variants built in one context before a fresh one replaces "
             "it; 0: never (the parent keeps everything edits unique: for "
             "comparison). Default: the workbench's"),
    cl::init(gevo::WorkbenchOptions().recycleContextEvery), cl::cat(category));
cl::opt<std::string> jsonPath("json",
                              cl::desc("Figures file (default stress.json)"),
                              cl::init("stress.json"), cl::cat(category));

/// The parent's resident memory in MiB (VmRSS).
double residentMiB() {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("VmRSS:", 0) == 0)
      return std::atof(line.c_str() + 6) / 1024;
  return 0;
}

/// The bytes malloc has handed out and not had back, in MiB: unlike VmRSS,
/// blind to freed memory malloc keeps for reuse, so a leak shows here alone.
double heapInUseMiB() {
  struct mallinfo2 info = mallinfo2();
  return info.uordblks / 1048576.0;
}

/// Processes whose parent is this one (zombies included).
int childrenLeft() {
  int count = 0;
  pid_t self = getpid();
  DIR *proc = opendir("/proc");
  if (!proc)
    return -1;
  while (dirent *entry = readdir(proc)) {
    if (entry->d_name[0] < '0' || entry->d_name[0] > '9')
      continue;
    std::ifstream stat(std::string("/proc/") + entry->d_name + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)),
                     std::istreambuf_iterator<char>());
    size_t close = text.rfind(')');
    if (close == std::string::npos)
      continue;
    std::istringstream rest(text.substr(close + 2));
    char state;
    int parent;
    if ((rest >> state >> parent) && parent == self)
      ++count;
  }
  closedir(proc);
  return count;
}

/// Everything measured so far.
struct StressFigures {
  std::map<std::string, int64_t> outcomes;
  llvm::json::Array memory;
  int64_t measured = 0, maxLeft = 0;
  double firstMiB = 0, lastMiB = 0, peakMiB = 0;
  gevo::SteadyClock::time_point started = gevo::SteadyClock::now();

  /// The figures so far, rewritten after every batch: a run stopped early
  /// still leaves what it measured.
  absl::Status write() const {
    llvm::json::Object byKind;
    for (const auto &[kind, count] : outcomes)
      byKind[kind] = count;
    return gevo::writeFigures(
        jsonPath, llvm::json::Object{{"variants", measured},
                                     {"seconds", gevo::secondsSince(started)},
                                     {"outcomes", std::move(byKind)},
                                     {"parent_crashes", 0},
                                     {"first_batch_rss_mib", firstMiB},
                                     {"last_rss_mib", lastMiB},
                                     {"peak_rss_mib", peakMiB},
                                     {"max_children_left", maxLeft},
                                     {"memory", llvm::json::Array(memory)}});
  }

  /// After a batch of `size` variants of `workload`: the parent's memory and
  /// the children left, recorded and shown on stderr.
  void afterBatch(const std::string &workload, int size) {
    measured += size;
    lastMiB = residentMiB();
    if (firstMiB == 0)
      firstMiB = lastMiB;
    peakMiB = std::max(peakMiB, lastMiB);
    int left = childrenLeft();
    maxLeft = std::max<int64_t>(maxLeft, left);
    memory.push_back(llvm::json::Object{{"variants", measured},
                                        {"rss_mib", lastMiB},
                                        {"heap_mib", heapInUseMiB()},
                                        {"children_left", left}});
    std::fprintf(stderr,
                 "\r%s: %lld variants, %.0f s, parent %.1f MiB (heap %.1f), "
                 "children left %d   ",
                 workload.c_str(), static_cast<long long>(measured),
                 gevo::secondsSince(started), lastMiB, heapInUseMiB(), left);
  }
};

/// The operators edits are drawn from (--operators, else all).
absl::StatusOr<gevo::MutationOptions> mutationFromFlags() {
  gevo::MutationOptions mutation;
  if (!operators.empty()) {
    absl::StatusOr<std::vector<gevo::EditKind>> kinds =
        gevo::parseEditKinds(operators);
    if (!kinds.ok())
      return absl::InvalidArgumentError(
          absl::StrCat("--operators: ", kinds.status().message()));
    mutation.kinds = *kinds;
  }
  return mutation;
}

/// `share` random variants of `workload`, batch after batch, each batch's
/// outcomes and memory in `figures` (written after each).
absl::Status stressWorkload(const std::string &workload, int share,
                            const gevo::MutationOptions &mutation,
                            std::mt19937_64 &rng, StressFigures &figures) {
  gevo::WorkbenchOptions options;
  options.workers = workers;
  options.recycleContextEvery = recycleEvery;
  absl::StatusOr<std::unique_ptr<gevo::Workbench>> bench =
      gevo::openMeasuredWorkbench(workload, options);
  if (!bench.ok())
    return bench.status();
  gevo::Variation variation((*bench)->variantContext(), mutation);
  for (int done = 0; done < share;) {
    int size = std::min(batch.getValue(), share - done);
    std::vector<std::vector<gevo::Edit>> lists;
    for (int i = 0; i < size; ++i)
      lists.push_back(variation.randomList(1 + rng() % 4, rng));
    gevo::FitnessCache fresh; // every variant runs, none from a cache
    gevo::BatchRequest request;
    request.cache = &fresh;
    for (const gevo::MeasuredVariant &v : (*bench)->measure(lists, request))
      ++figures.outcomes[gevo::toString(v.measurement->outcome)];
    done += size;
    figures.afterBatch(workload, size);
    if (absl::Status written = figures.write(); !written.ok())
      return written;
  }
  return absl::OkStatus();
}

/// The outcomes by kind and the summary line.
void printSummary(const StressFigures &figures) {
  for (const auto &[kind, count] : figures.outcomes)
    std::printf("%-22s %lld\n", kind.c_str(), static_cast<long long>(count));
  std::printf("stress: %lld variants in %.0f s, 0 parent crashes, parent "
              "memory %.1f -> %.1f MiB (peak %.1f) after the first batch, "
              "children left after a batch at most %lld\n",
              static_cast<long long>(figures.measured),
              gevo::secondsSince(figures.started), figures.firstMiB,
              figures.lastMiB, figures.peakMiB,
              static_cast<long long>(figures.maxLeft));
}

} // namespace

int main(int argc, char **argv) {
  if (!gevo::parseBenchFlags(category, argc, argv,
                             "Random variants through the sandbox: "
                             "outcomes, parent memory, leaked "
                             "children.\n"))
    return 2;
  std::vector<std::string> names =
      absl::StrSplit(workloads.getValue(), ',', absl::SkipEmpty());
  StressFigures figures;
  absl::StatusOr<gevo::MutationOptions> mutation = mutationFromFlags();
  if (!mutation.ok())
    return gevo::reportFailure(mutation.status());
  std::mt19937_64 rng(seed);
  for (const std::string &name : names) {
    int share = mutants / static_cast<int>(names.size());
    if (absl::Status status =
            stressWorkload(name, share, *mutation, rng, figures);
        !status.ok())
      return gevo::reportFailure(status);
  }
  std::fprintf(stderr, "\n");
  printSummary(figures);
  if (absl::Status written = figures.write(); !written.ok())
    return gevo::reportFailure(written);
  return 0;
}
