//===- file_io.h - Reading whole files with errors that name them ---------===//
#ifndef GEVO_SUPPORT_FILE_IO_H
#define GEVO_SUPPORT_FILE_IO_H

#include <string>

#include "absl/status/statusor.h"

namespace gevo {

/// The bytes of `path`, or NotFound "<path>: cannot open <what>: <reason>".
absl::StatusOr<std::string> readFile(const std::string &path,
                                     const std::string &what);

} // namespace gevo

#endif // GEVO_SUPPORT_FILE_IO_H
