//===- child_process.h - A benchmark's helper program, run to the end -----===//
//
// Benchmarks that time other programs (//gevo:evaluate, NumPy, mpirun) run
// them as child processes: to completion, with their standard output kept
// or discarded, and the child's peak resident memory.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_CHILD_PROCESS_H
#define GEVO_BENCH_CHILD_PROCESS_H

#include <string>
#include <vector>

namespace gevo {

struct ChildExit {
  int status = -1;  // the exit status; -1 when it did not exit normally
  long peakKiB = 0; // the child's peak resident memory
};

/// Runs `args` (args[0] searched on PATH unless it names a path) to
/// completion; its standard output is appended to `output`, or discarded
/// when `output` is null.
ChildExit runChild(const std::vector<std::string> &args, std::string *output);

} // namespace gevo

#endif // GEVO_BENCH_CHILD_PROCESS_H
