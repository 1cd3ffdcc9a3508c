//===- patch_progress.cc - Per-patch progress of an analysis --------------===//

#include "analysis/patch_progress.h"

#include <algorithm>

#include "absl/strings/str_cat.h"

namespace gevo {

double secondsPerEvaluation(const Measurement &baseline) {
  return (baseline.parseMs + baseline.lowerMs + baseline.codegenMs +
          baseline.medianRunMs *
              static_cast<double>(1 + baseline.runMs.size())) /
         1000.0;
}

std::string editCount(size_t edits) {
  return absl::StrCat(edits, edits == 1 ? " edit" : " edits");
}

double estimatePatchSeconds(size_t edits, double secondsPerEvaluation) {
  return (4.0 * static_cast<double>(edits) + 2) * secondsPerEvaluation;
}

PatchProgress::PatchProgress(std::FILE *stream, std::string tool,
                             std::vector<size_t> edits,
                             double secondsPerEvaluation,
                             std::chrono::milliseconds period)
    : line(stream, StatusLine::isTerminal(stream), period),
      tool(std::move(tool)), edits(std::move(edits)),
      secondsPerEvaluation(secondsPerEvaluation), patchStart(Clock::now()) {}

double PatchProgress::secondsLeft() const {
  // Seconds per edit (plus one for the patch's fixed cost) as measured so
  // far, or as the unmodified program's evaluation time suggests.
  auto cost = [&](size_t n) {
    if (finishedCount == 0)
      return estimatePatchSeconds(n, secondsPerEvaluation);
    return finishedSeconds /
           static_cast<double>(finishedEdits + finishedCount) *
           static_cast<double>(n + 1);
  };
  double left = 0;
  for (size_t i = current; i < edits.size(); ++i)
    left += cost(edits[i]);
  double spent =
      std::chrono::duration<double>(Clock::now() - patchStart).count();
  if (current < edits.size())
    left -= std::min(spent, cost(edits[current]));
  return std::max(0.0, left);
}

void PatchProgress::say() {
  if (current >= edits.size())
    return;
  line.set(absl::StrCat(tool, ": patch ", current + 1, " of ", edits.size(),
                        " (", name, ", ", editCount(edits[current]),
                        "): ", what),
           secondsLeft());
  line.print();
}

void PatchProgress::begin(size_t index, const std::string &patchName) {
  current = index;
  name = patchName;
  what = "minimising";
  patchStart = Clock::now();
  say();
}

void PatchProgress::step(const std::string &newWhat) {
  what = newWhat;
  say();
}

void PatchProgress::finished(size_t index) {
  finishedSeconds +=
      std::chrono::duration<double>(Clock::now() - patchStart).count();
  finishedEdits += edits[index];
  ++finishedCount;
  current = index + 1;
  patchStart = Clock::now();
  line.clear();
}

} // namespace gevo
