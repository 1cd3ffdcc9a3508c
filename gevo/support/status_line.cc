//===- status_line.cc - A status line for long work, kept alive -----------===//

#include "gevo/support/status_line.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace gevo {
namespace {

void writeAll(int fd, const std::string &bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0)
      return;
    done += static_cast<size_t>(n);
  }
}

} // namespace

StatusLine::StatusLine(std::FILE *stream, bool live,
                       std::chrono::milliseconds period, Now now)
    : live(live), period(period), now(std::move(now)), start(this->now()),
      lastDraw(start - std::chrono::seconds(1)), lastPrint(start) {
  if (!stream)
    return;
  std::fflush(stream);
  fd = ::fileno(stream);
  thread = std::thread([this] { heartbeat(); });
}

StatusLine::~StatusLine() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  if (thread.joinable())
    thread.join();
  clear();
}

bool StatusLine::isTerminal(std::FILE *stream) {
  return stream && ::isatty(::fileno(stream)) != 0;
}

std::string StatusLine::formatSeconds(double seconds) {
  long total = std::lround(std::max(0.0, seconds));
  char buffer[32];
  if (total >= 3600)
    std::snprintf(buffer, sizeof(buffer), "%ldh%02ldm", total / 3600,
                  total / 60 % 60);
  else if (total >= 60)
    std::snprintf(buffer, sizeof(buffer), "%ldm%02lds", total / 60, total % 60);
  else
    std::snprintf(buffer, sizeof(buffer), "%lds", total);
  return buffer;
}

std::string StatusLine::renderLocked(Clock::time_point now) const {
  auto seconds = [](Clock::duration d) {
    return std::chrono::duration<double>(d).count();
  };
  std::string line = text + "  [" + formatSeconds(seconds(now - start));
  if (hasEstimate)
    line += now < deadline
                ? ", about " + formatSeconds(seconds(deadline - now)) + " left"
                : ", over its estimate";
  return line + "]";
}

void StatusLine::drawLocked(Clock::time_point now) {
  std::string line = renderLocked(now);
  std::string padding(lastWidth > line.size() ? lastWidth - line.size() : 0,
                      ' ');
  writeAll(fd, "\r" + line + padding);
  lastWidth = line.size();
  lastDraw = now;
}

void StatusLine::printLocked(Clock::time_point at) {
  writeAll(fd, renderLocked(at) + "\n");
  lastPrint = at;
  printedAny = true;
  unprinted = false;
}

void StatusLine::set(const std::string &newText, double secondsLeft) {
  std::lock_guard<std::mutex> lock(mutex);
  text = newText;
  unprinted = true;
  Clock::time_point at = now();
  hasEstimate = secondsLeft >= 0;
  if (hasEstimate)
    deadline = at + std::chrono::duration_cast<Clock::duration>(
                        std::chrono::duration<double>(secondsLeft));
  if (fd >= 0 && live && at - lastDraw >= std::chrono::milliseconds(100))
    drawLocked(at);
}

void StatusLine::print() {
  std::lock_guard<std::mutex> lock(mutex);
  if (fd < 0 || text.empty())
    return;
  if (live)
    drawLocked(now());
  else
    printLocked(now());
}

void StatusLine::printDue() {
  std::lock_guard<std::mutex> lock(mutex);
  if (fd < 0 || text.empty())
    return;
  Clock::time_point at = now();
  if (live)
    drawLocked(at);
  else if (!printedAny || at - lastPrint >= period)
    printLocked(at);
}

void StatusLine::flush() {
  std::lock_guard<std::mutex> lock(mutex);
  if (fd >= 0 && !live && unprinted && !text.empty())
    printLocked(now());
}

void StatusLine::clear() {
  std::lock_guard<std::mutex> lock(mutex);
  if (fd >= 0 && live && lastWidth > 0) {
    writeAll(fd, "\r" + std::string(lastWidth, ' ') + "\r");
    lastWidth = 0;
  }
}

void StatusLine::heartbeat() {
  std::unique_lock<std::mutex> lock(mutex);
  // A terminal's clock moves every second; a log gets a line when `period`
  // has passed since its last one, never sooner.
  auto waitTime = [this] {
    if (live || text.empty())
      return live ? std::chrono::milliseconds(1000) : period;
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        lastPrint + period - now());
    return std::clamp(left, std::chrono::milliseconds(1), period);
  };
  while (!wake.wait_for(lock, waitTime(), [this] { return stopping; })) {
    if (text.empty())
      continue;
    Clock::time_point at = now();
    if (live)
      drawLocked(at);
    else if (at - lastPrint >= period)
      printLocked(at);
  }
}

} // namespace gevo
