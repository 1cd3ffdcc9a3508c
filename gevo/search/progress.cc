//===- progress.cc - The live progress line of a search -------------------===//

#include "gevo/search/progress.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace gevo {

ProgressLine::ProgressLine(std::FILE *stream, bool live,
                           std::chrono::milliseconds period,
                           StatusLine::Now now)
    : now(now), status(std::make_unique<StatusLine>(stream, live, period, now)),
      start(now()) {}

bool ProgressLine::isTerminal(std::FILE *stream) {
  return StatusLine::isTerminal(stream);
}

std::string ProgressLine::render(const ProgressState &s) const {
  double seconds = std::chrono::duration<double>(now() - start).count();
  int64_t evaluations = s.counts ? s.counts->evaluations : 0;
  int64_t thisSession = std::max<int64_t>(0, evaluations - s.evaluationsBefore);
  std::string line = absl::StrFormat("gen %d/%d  evals %d (%.1f/s)  cache %d",
                                     s.generation, s.generations, evaluations,
                                     seconds > 0 ? thisSession / seconds : 0.0,
                                     s.counts ? s.counts->cacheHits : 0);
  std::string failures;
  if (s.counts)
    for (const auto &[outcome, count] : s.counts->outcomes)
      if (outcome != Outcome::Ok && count > 0)
        absl::StrAppend(&failures, failures.empty() ? "" : " ",
                        toString(outcome), "=", count);
  absl::StrAppend(&line, "  failed[", failures, "]");
  if (!s.best.empty()) {
    absl::StrAppend(&line, "  best");
    for (size_t i = 0; i < s.best.size() && i < s.objectives.size(); ++i)
      absl::StrAppend(&line, " ", s.objectives[i], "=",
                      absl::StrFormat("%.4g", s.best[i]));
  }
  absl::StrAppend(&line, absl::StrFormat("  front %d  hv %.4f", s.frontSize,
                                         s.hypervolume));
  return line;
}

void ProgressLine::update(const ProgressState &state) {
  status->set(render(state));
}

void ProgressLine::update(const std::function<ProgressState()> &state) {
  StatusLine::Clock::time_point t = now();
  if (computed && t - *computed < kRefresh)
    return;
  computed = t;
  update(state());
}

void ProgressLine::generationDone(const ProgressState &state) {
  status->set(render(state));
  status->printDue();
}

void ProgressLine::phase(const std::string &text, double secondsLeft) {
  status->set(text, secondsLeft);
  status->printDue();
}

void ProgressLine::finish() {
  status->flush();
  status->clear();
}

} // namespace gevo
