//===- progress.h - The live progress line of a search --------------------===//
//
// On a terminal, one line redrawn in place as evaluations finish; otherwise
// one plain line per generation (logs stay readable). Either way it shows
// the generation, evaluations and their rate, cache hits, failures by kind,
// the best value of each objective, and the front's hypervolume.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_PROGRESS_H
#define GEVO_SEARCH_PROGRESS_H

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "gevo/search/individual.h"

namespace gevo {

struct ProgressState {
  int generation = 0;
  int generations = 0;
  const EvaluationCounts *counts = nullptr;
  std::vector<std::string> objectives;
  std::vector<double> best; // empty until something is ok
  double hypervolume = 0;
  size_t frontSize = 0;
};

class ProgressLine {
public:
  /// `stream` is usually stderr; `live` redraws in place (a terminal).
  ProgressLine(std::FILE *stream, bool live);
  /// Redraws the live line, at most ten times a second.
  void update(const ProgressState &state);
  /// Ends a generation: a plain line when not live.
  void generationDone(const ProgressState &state);
  /// Clears the live line before other output.
  void finish();
  static bool isTerminal(std::FILE *stream);

private:
  std::string render(const ProgressState &state) const;
  std::FILE *stream;
  bool live;
  std::chrono::steady_clock::time_point start, lastDraw;
  size_t lastWidth = 0;
};

} // namespace gevo

#endif // GEVO_SEARCH_PROGRESS_H
