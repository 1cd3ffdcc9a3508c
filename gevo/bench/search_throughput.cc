//===- search_throughput.cc - A default search's evaluations/s ------------===//

#include "gevo/bench/search_throughput.h"

#include <cmath>

#include "gevo/bench/bench_workbench.h"
#include "gevo/support/status_macros.h"
#include "gevo/support/stopwatch.h"

namespace gevo {

absl::StatusOr<SearchThroughput>
measureSearchThroughput(const WorkloadSpec &spec, const std::string &pipeline,
                        int workers,
                        const std::vector<std::vector<Edit>> &lists,
                        std::vector<double> *accuracies) {
  WorkbenchOptions options;
  options.evaluation.pipeline = pipeline;
  options.workers = workers;
  // As runSearch: the unmodified program first (it sets the time limits).
  GEVO_ASSIGN_OR_RETURN(std::unique_ptr<Workbench> bench,
                        openMeasuredWorkbench(spec, options));
  SearchThroughput out;
  out.pipeline = pipeline;
  auto start = SteadyClock::now();
  std::vector<MeasuredVariant> measured = bench->measure(lists);
  out.seconds = secondsSince(start);
  out.evaluations = static_cast<int>(lists.size());
  std::vector<double> lower, codegen, run;
  accuracies->assign(lists.size(), -1);
  for (size_t i = 0; i < measured.size(); ++i) {
    const MeasuredVariant &variant = measured[i];
    if (!variant.measurement)
      continue;
    const Measurement &m = *variant.measurement;
    if (m.ok())
      (*accuracies)[i] = m.validation.accuracy();
    if (!variant.ran)
      continue;
    ++out.ran;
    if (!m.ok())
      continue;
    ++out.ok;
    lower.push_back(m.lowerMs);
    codegen.push_back(m.codegenMs);
    run.push_back(m.medianRunMs);
  }
  auto mean = [](const std::vector<double> &v) {
    double sum = 0;
    for (double x : v)
      sum += x;
    return v.empty() ? 0 : sum / v.size();
  };
  out.lowerMs = mean(lower);
  out.codegenMs = mean(codegen);
  out.runMs = mean(run);
  return out;
}

absl::StatusOr<PipelineComparison>
comparePipelines(const WorkloadSpec &spec, int workers,
                 const std::vector<std::vector<Edit>> &lists, int rounds) {
  PipelineComparison out;
  out.plain.pipeline = "plain";
  out.vector.pipeline = "vector";
  std::vector<double> plainAccuracy, vectorAccuracy;
  auto add = [](SearchThroughput &total, const SearchThroughput &round) {
    // Stage means weighted by the variants each round measured ok.
    auto weighted = [&](double a, double b) {
      int n = total.ok + round.ok;
      return n ? (a * total.ok + b * round.ok) / n : 0;
    };
    total.lowerMs = weighted(total.lowerMs, round.lowerMs);
    total.codegenMs = weighted(total.codegenMs, round.codegenMs);
    total.runMs = weighted(total.runMs, round.runMs);
    total.evaluations += round.evaluations;
    total.ran += round.ran;
    total.ok += round.ok;
    total.seconds += round.seconds;
  };
  for (int round = 0; round < rounds; ++round) {
    for (int turn = 0; turn < 2; ++turn) {
      bool plainTurn = (turn == 0) == (round % 2 == 0);
      std::vector<double> accuracies;
      GEVO_ASSIGN_OR_RETURN(
          SearchThroughput figures,
          measureSearchThroughput(spec, plainTurn ? "plain" : "vector", workers,
                                  lists, &accuracies));
      add(plainTurn ? out.plain : out.vector, figures);
      if (round == 0)
        (plainTurn ? plainAccuracy : vectorAccuracy) = std::move(accuracies);
    }
  }
  for (size_t i = 0; i < lists.size(); ++i) {
    if (plainAccuracy[i] < 0 || vectorAccuracy[i] < 0)
      continue;
    ++out.bothOk;
    out.agree += std::abs(plainAccuracy[i] - vectorAccuracy[i]) < 1e-9;
  }
  return out;
}

} // namespace gevo
