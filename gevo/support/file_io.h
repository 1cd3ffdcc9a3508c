//===- file_io.h - Reading and writing files with errors that name them ---===//
#ifndef GEVO_SUPPORT_FILE_IO_H
#define GEVO_SUPPORT_FILE_IO_H

#include <string>

#include "absl/status/statusor.h"

namespace gevo {

/// The bytes of `path`, or NotFound "<path>: cannot open <what>: <reason>".
absl::StatusOr<std::string> readFile(const std::string &path,
                                     const std::string &what);

/// Writes `text` to `path`, or to standard output when `path` is "-". The
/// file is written whole beside `path` and renamed into place, so no reader
/// sees half of it and a symlink at `path` is replaced, not followed. Errors
/// read "<path>: cannot write: <reason>".
absl::Status writeOutput(const std::string &path, const std::string &text);

/// Creates directory `path` unless it exists.
absl::Status makeDirectory(const std::string &path);

} // namespace gevo

#endif // GEVO_SUPPORT_FILE_IO_H
