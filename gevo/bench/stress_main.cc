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
#include "gevo/bench/figures.h"
#include "gevo/eval/workload.h"
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

} // namespace

int main(int argc, char **argv) {
  cl::HideUnrelatedOptions(category);
  if (!cl::ParseCommandLineOptions(argc, argv,
                                   "Random variants through the sandbox: "
                                   "outcomes, parent memory, leaked "
                                   "children.\n",
                                   &llvm::errs()))
    return 2;
  std::vector<std::string> names =
      absl::StrSplit(workloads.getValue(), ',', absl::SkipEmpty());
  std::map<std::string, int64_t> outcomes;
  llvm::json::Array memory;
  int64_t measured = 0, maxLeft = 0;
  double firstMiB = 0, lastMiB = 0, peakMiB = 0;
  gevo::SteadyClock::time_point started = gevo::SteadyClock::now();
  // The figures so far, rewritten after every batch: a run stopped early
  // still leaves what it measured.
  auto writeAll = [&] {
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
  };
  gevo::MutationOptions mutation;
  if (!operators.empty()) {
    absl::StatusOr<std::vector<gevo::EditKind>> kinds =
        gevo::parseEditKinds(operators);
    if (!kinds.ok())
      return gevo::reportBadInput(
          absl::StrCat("--operators: ", kinds.status().message()));
    mutation.kinds = *kinds;
  }
  std::mt19937_64 rng(seed);
  for (size_t w = 0; w < names.size(); ++w) {
    absl::StatusOr<gevo::WorkloadSpec> spec =
        gevo::loadWorkloadSpec(gevo::findRunfile(names[w]));
    if (!spec.ok())
      return gevo::reportBadInput(std::string(spec.status().message()));
    gevo::WorkbenchOptions options;
    options.workers = workers;
    options.recycleContextEvery = recycleEvery;
    auto bench = gevo::Workbench::create(*spec, options);
    if (!bench.ok())
      return gevo::reportBadInput(std::string(bench.status().message()));
    if (absl::Status s = (*bench)->measureBaseline(); !s.ok())
      return gevo::reportBadInput(std::string(s.message()));
    gevo::Variation variation((*bench)->variantContext(), mutation);
    int share = mutants / static_cast<int>(names.size());
    for (int done = 0; done < share;) {
      int size = std::min(batch.getValue(), share - done);
      std::vector<std::vector<gevo::Edit>> lists;
      for (int i = 0; i < size; ++i)
        lists.push_back(variation.randomList(1 + rng() % 4, rng));
      gevo::FitnessCache fresh; // every variant runs, none from a cache
      gevo::BatchRequest request;
      request.cache = &fresh;
      for (const gevo::MeasuredVariant &v : (*bench)->measure(lists, request))
        ++outcomes[gevo::toString(v.measurement->outcome)];
      done += size;
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
                   names[w].c_str(), static_cast<long long>(measured),
                   gevo::secondsSince(started), lastMiB, heapInUseMiB(), left);
      if (absl::Status written = writeAll(); !written.ok())
        return gevo::reportBadInput(std::string(written.message()));
    }
  }
  std::fprintf(stderr, "\n");
  for (const auto &[kind, count] : outcomes)
    std::printf("%-22s %lld\n", kind.c_str(), static_cast<long long>(count));
  std::printf("stress: %lld variants in %.0f s, 0 parent crashes, parent "
              "memory %.1f -> %.1f MiB (peak %.1f) after the first batch, "
              "children left after a batch at most %lld\n",
              static_cast<long long>(measured), gevo::secondsSince(started),
              firstMiB, lastMiB, peakMiB, static_cast<long long>(maxLeft));
  if (absl::Status written = writeAll(); !written.ok())
    return gevo::reportBadInput(std::string(written.message()));
  return 0;
}
