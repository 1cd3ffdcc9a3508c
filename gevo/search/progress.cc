//===- progress.cc - The live progress line of a search -------------------===//

#include "gevo/search/progress.h"

#include <unistd.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace gevo {

ProgressLine::ProgressLine(std::FILE *stream, bool live)
    : stream(stream), live(live), start(std::chrono::steady_clock::now()),
      lastDraw(start - std::chrono::seconds(1)) {}

bool ProgressLine::isTerminal(std::FILE *stream) {
  return ::isatty(::fileno(stream)) != 0;
}

std::string ProgressLine::render(const ProgressState &s) const {
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  int64_t evaluations = s.counts ? s.counts->evaluations : 0;
  std::string line = absl::StrFormat("gen %d/%d  evals %d (%.1f/s)  cache %d",
                                     s.generation, s.generations, evaluations,
                                     seconds > 0 ? evaluations / seconds : 0.0,
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
  if (!live)
    return;
  auto now = std::chrono::steady_clock::now();
  if (now - lastDraw < std::chrono::milliseconds(100))
    return;
  lastDraw = now;
  std::string line = render(state);
  std::string padding(lastWidth > line.size() ? lastWidth - line.size() : 0,
                      ' ');
  std::fprintf(stream, "\r%s%s", line.c_str(), padding.c_str());
  std::fflush(stream);
  lastWidth = line.size();
}

void ProgressLine::generationDone(const ProgressState &state) {
  if (live) {
    lastDraw = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    update(state);
    return;
  }
  std::fprintf(stream, "%s\n", render(state).c_str());
  std::fflush(stream);
}

void ProgressLine::finish() {
  if (live && lastWidth > 0) {
    std::fprintf(stream, "\r%s\r", std::string(lastWidth, ' ').c_str());
    std::fflush(stream);
    lastWidth = 0;
  }
}

} // namespace gevo
