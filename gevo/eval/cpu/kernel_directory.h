//===- kernel_directory.h - Where a session's processes share kernels -----===//
//
// The directory a session's forked children leave compiled kernels in
// (KernelSettings::objectDirectory), one per session, under the system's
// temporary directory and named for the process that made it, so that one
// left by a killed process is removed by the next.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_KERNEL_DIRECTORY_H
#define GEVO_EVAL_KERNEL_DIRECTORY_H

#include <string>

namespace gevo {

/// Makes a fresh kernel directory, after removing those whose process is
/// gone; empty if none can be made (kernels are then not shared).
std::string makeKernelDirectory();

} // namespace gevo

#endif // GEVO_EVAL_KERNEL_DIRECTORY_H
