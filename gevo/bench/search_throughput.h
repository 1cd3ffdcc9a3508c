//===- search_throughput.h - A default search's evaluations/s -*- C++ -*-===//
//
// For the throughput benchmark: random variants measured the way a default
// search measures them (a Workbench with the search's evaluation settings,
// its own cache, the unmodified program measured first, children in a pool),
// once per pipeline, so that "plain" and "vector" are compared in one run.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_SEARCH_THROUGHPUT_H
#define GEVO_BENCH_SEARCH_THROUGHPUT_H

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gevo/eval/workload/workload.h"
#include "gevo/ir/edit.h"

namespace gevo {

/// One pipeline's figures: evaluations per second of wall time and the
/// per-stage means over the variants that ran in a child and came back ok.
struct SearchThroughput {
  std::string pipeline;
  int evaluations = 0; // lists measured (cache hits and failures included)
  int ran = 0;         // of them, run in a child
  int ok = 0;          // of those, measured ok
  double seconds = 0;
  double lowerMs = 0, codegenMs = 0, runMs = 0;
  double evaluationsPerSecond() const {
    return seconds > 0 ? evaluations / seconds : 0;
  }
};

/// Measures `lists` (edits of the workload's module) with `pipeline` and
/// `workers` children at once, through a fresh Workbench; `accuracies`
/// receives each list's validation accuracy (-1 when not ok).
absl::StatusOr<SearchThroughput>
measureSearchThroughput(const WorkloadSpec &spec, const std::string &pipeline,
                        int workers,
                        const std::vector<std::vector<Edit>> &lists,
                        std::vector<double> *accuracies);

/// Both pipelines over the same lists, `rounds` times each, alternating
/// which goes first (plain, vector, vector, plain, ...) so that drift in
/// the machine's load hits both alike; figures summed over the rounds.
/// `agree` counts the lists both measured ok with equal validation accuracy.
struct PipelineComparison {
  SearchThroughput plain, vector;
  int bothOk = 0, agree = 0;
};
absl::StatusOr<PipelineComparison>
comparePipelines(const WorkloadSpec &spec, int workers,
                 const std::vector<std::vector<Edit>> &lists, int rounds);

} // namespace gevo

#endif // GEVO_BENCH_SEARCH_THROUGHPUT_H
