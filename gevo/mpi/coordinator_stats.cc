//===- coordinator_stats.cc - Rank 0's figures of an mpirun job -----------===//
//
// Coordinator::stats(): what mpi.json says about the ranks, the evaluations,
// rank 0's CPU per evaluation and the ranks' idle share.
//
//===----------------------------------------------------------------------===//

#include <algorithm>

#include "gevo/mpi/coordinator.h"

namespace gevo {
namespace {

const char *stateName(int state) {
  static const char *names[] = {"starting", "ready", "failed", "lost"};
  return names[state];
}

} // namespace

llvm::json::Value Coordinator::stats() const {
  llvm::json::Array rankList;
  for (size_t r = 1; r < ranks.size(); ++r) {
    const Rank &rank = ranks[r];
    llvm::json::Object object{
        {"rank", static_cast<int64_t>(r)},
        {"state", stateName(static_cast<int>(rank.state))},
        {"host", rank.hello.host},
        {"pid", rank.hello.pid},
        {"workers", rank.hello.workers},
        {"baseline_run_ms", rank.hello.baselineRunMs},
        {"evaluations", rank.evaluations},
        {"idle_s", rank.idleSeconds},
    };
    if (!rank.why.empty())
      object["why"] = rank.why;
    rankList.push_back(std::move(object));
  }
  double window =
      anyJob && evaluations > 0
          ? std::chrono::duration<double>(lastResult - firstJob).count()
          : 0.0;
  double cpu = cpuAtLastResult - cpuAtFirstJob;
  double perEvaluation = evaluations > 0 ? 1000.0 / evaluations : 0.0;
  double idle = 0;
  int evaluating = 0;
  for (size_t r = 1; r < ranks.size(); ++r)
    if (ranks[r].evaluations > 0) {
      idle += ranks[r].idleSeconds;
      ++evaluating;
    }
  return llvm::json::Object{
      {"ranks", std::move(rankList)},
      {"evaluations", evaluations},
      {"bred_on_ranks", bred},
      {"requeued", requeued},
      {"moved", moved},
      {"handed_back", handedBack},
      {"window_s", window},
      {"evaluations_per_s", window > 0 ? evaluations / window : 0.0},
      {"rank0_cpu_s", cpu},
      {"ranks_idle_share",
       window > 0 && evaluating > 0 ? idle / (window * evaluating) : 0.0},
      {"rank0_waiting_share",
       window > 0 ? std::max(0.0, 1 - cpu / window) : 0.0},
      {"rank0_dispatch_ms_per_evaluation",
       (dispatchCpu - pollingCpu) * perEvaluation},
      {"rank0_polling_ms_per_evaluation", pollingCpu * perEvaluation},
      {"rank0_search_ms_per_evaluation",
       std::max(0.0, cpu - dispatchCpu) * perEvaluation},
  };
}

} // namespace gevo
