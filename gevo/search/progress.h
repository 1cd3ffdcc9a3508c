//===- progress.h - The live progress line of a search --------------------===//
//
// On a terminal, one line redrawn in place as evaluations finish; otherwise
// (a log) one plain line every 10 s, whatever the phase (generations, the
// front's re-measurement), and the last line of each phase
// (gevo/support/status_line.h).
// It shows the generation, evaluations and their rate in this session, cache
// hits, failures by kind, the best value of each objective, the front's
// hypervolume, and the time spent.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SEARCH_PROGRESS_H
#define GEVO_SEARCH_PROGRESS_H

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gevo/search/individual.h"
#include "gevo/support/status_line.h"

namespace gevo {

struct ProgressState {
  int generation = 0;
  int generations = 0;
  const EvaluationCounts *counts = nullptr;
  /// Evaluations made before this process started (a resumed run): counted,
  /// but not in the rate.
  int64_t evaluationsBefore = 0;
  std::vector<std::string> objectives;
  std::vector<double> best; // empty until something is ok
  double hypervolume = 0;
  size_t frontSize = 0;
};

class ProgressLine {
public:
  /// `stream` null: silent. `live` redraws in place (a terminal). `now`:
  /// the clock (tests pass a fake one).
  ProgressLine(std::FILE *stream, bool live,
               std::chrono::milliseconds period = std::chrono::seconds(10),
               StatusLine::Now now = StatusLine::Clock::now);
  /// The line for `state`: redrawn when live, else printed by the heartbeat.
  void update(const ProgressState &state);
  /// The same for the state `state` computes, called at most every
  /// kRefresh (computing it walks the whole archive; a line is printed
  /// every `period` or redrawn ten times a second at most).
  void update(const std::function<ProgressState()> &state);
  static constexpr std::chrono::milliseconds kRefresh{500};
  /// Ends a generation: a plain line when not live and `period` has passed
  /// since the last one.
  void generationDone(const ProgressState &state);
  /// Work that is not a generation (the front's re-measurement): its line,
  /// with an estimate of the seconds left when >= 0; printed as
  /// generationDone's is.
  void phase(const std::string &text, double secondsLeft = -1);
  /// Ends a phase: its last line, printed unless it was already; clears the
  /// live line before other output.
  void finish();
  static bool isTerminal(std::FILE *stream);

private:
  std::string render(const ProgressState &state) const;
  StatusLine::Now now;
  std::unique_ptr<StatusLine> status;
  StatusLine::Clock::time_point start;
  /// When update() last computed a state (none yet: nullopt).
  std::optional<StatusLine::Clock::time_point> computed;
};

} // namespace gevo

#endif // GEVO_SEARCH_PROGRESS_H
