//===- patch_progress.h - Per-patch progress of an analysis, with estimate ===//
//
// An analysis runs for minutes per patch. This says which patch and which
// step it is on, at least every 10 s whatever the output is, with an estimate
// of the time left: first from the unmodified program's measured evaluation
// time, then from the time the finished patches took per edit.
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_PATCH_PROGRESS_H
#define ANALYSIS_PATCH_PROGRESS_H

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "gevo/eval/measurement.h"
#include "gevo/support/status_line.h"

namespace gevo {

/// Seconds one evaluation of a variant like `baseline` takes: compiling it,
/// then its warm-up and timed runs.
double secondsPerEvaluation(const Measurement &baseline);

/// Seconds before any patch has finished: a patch of n edits costs about
/// 4n + 2 evaluations (minimising, each edit alone and removed, the -O3
/// check) of `secondsPerEvaluation` each.
double estimatePatchSeconds(size_t edits, double secondsPerEvaluation);

/// "1 edit", "4 edits".
std::string editCount(size_t edits);

class PatchProgress {
public:
  /// `stream` null: silent. `edits`: each patch's edit count, in order.
  PatchProgress(std::FILE *stream, std::string tool, std::vector<size_t> edits,
                double secondsPerEvaluation,
                std::chrono::milliseconds period = std::chrono::seconds(10));

  /// Patch `index` (from 0) begins, or moves on to `step`.
  void begin(size_t index, const std::string &name);
  void step(const std::string &what);
  /// Patch `index` is finished; its time now guides the estimate.
  void finished(size_t index);
  /// The estimate of the seconds left for every unfinished patch.
  double secondsLeft() const;

private:
  void say();

  using Clock = std::chrono::steady_clock;
  StatusLine line;
  std::string tool, name, what;
  std::vector<size_t> edits;
  double secondsPerEvaluation;
  size_t current = 0, finishedEdits = 0, finishedCount = 0;
  double finishedSeconds = 0;
  Clock::time_point patchStart;
};

} // namespace gevo

#endif // ANALYSIS_PATCH_PROGRESS_H
