//===- status_line.h - A status line for long work, kept alive ------------===//
//
// Long work (a search, its front's re-measurement, an analysis) says what it
// is doing at least every few seconds whatever its output is: on a terminal
// one line redrawn in place, otherwise plain lines, one every `period`, from
// a heartbeat thread when the work itself says nothing. A log fed through
// printDue() and flush() gets no more than one line per `period` (plus the
// last line of each piece of work).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_STATUS_LINE_H
#define GEVO_SUPPORT_STATUS_LINE_H

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace gevo {

/// Thread-safe. Writes with write(2), never stdio, so that a child forked
/// while the heartbeat writes does not inherit a held stdio lock.
class StatusLine {
public:
  using Clock = std::chrono::steady_clock;
  /// What time it is (tests pass a fake clock; it must be thread-safe).
  using Now = std::function<Clock::time_point()>;

  /// `stream` null: says nothing. `live`: redraw in place (a terminal).
  StatusLine(std::FILE *stream, bool live,
             std::chrono::milliseconds period = std::chrono::seconds(10),
             Now now = Clock::now);
  ~StatusLine();
  StatusLine(const StatusLine &) = delete;
  StatusLine &operator=(const StatusLine &) = delete;

  /// The current status. On a terminal it is redrawn (at most ten times a
  /// second); otherwise the heartbeat prints it when `period` has passed
  /// since the last line. `secondsLeft` >= 0: an estimate of the time left,
  /// counted down from now and shown with the line.
  void set(const std::string &text, double secondsLeft = -1);
  /// Prints the current status now as a plain line (redraws it when live).
  void print();
  /// Prints the current status as a plain line when it is the first or
  /// `period` has passed since the last line; otherwise leaves it to the
  /// heartbeat or flush(). Redraws it when live.
  void printDue();
  /// Prints the current status as a plain line unless it was printed
  /// already (the last line of a piece of work). Nothing when live.
  void flush();
  /// Clears a live line (before other output, or at the end).
  void clear();

  /// "1h02m", "3m05s" or "42s".
  static std::string formatSeconds(double seconds);
  static bool isTerminal(std::FILE *stream);

private:
  std::string renderLocked(Clock::time_point now) const;
  void drawLocked(Clock::time_point now);
  void printLocked(Clock::time_point now);
  void heartbeat();

  int fd = -1;
  bool live = false;
  std::chrono::milliseconds period;
  Now now;
  std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::string text;
  Clock::time_point start, lastDraw, lastPrint, deadline;
  bool hasEstimate = false;
  /// Whether a plain line was printed, and whether the current text has
  /// changed since the last one.
  bool printedAny = false, unprinted = false;
  size_t lastWidth = 0;
  std::thread thread;
};

} // namespace gevo

#endif // GEVO_SUPPORT_STATUS_LINE_H
