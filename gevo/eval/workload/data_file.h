//===- data_file.h - A data file's bytes, gzip or not ---------------------===//
//
// Data sets are distributed gzip-compressed (MNIST's *-ubyte.gz); the loaders
// read both forms, and writers write either, through these functions.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_DATA_FILE_H
#define GEVO_EVAL_DATA_FILE_H

#include <string>

#include "absl/status/statusor.h"

namespace gevo {

/// The bytes of `path`, decompressed when the file starts with gzip's magic
/// bytes. Errors read "<path>: cannot open <what>: <reason>" (NotFound) or
/// "<path>: corrupt gzip data: <reason>" (InvalidArgument).
absl::StatusOr<std::string> readDataFile(const std::string &path,
                                         const std::string &what);

/// Writes `bytes` to `path`, gzip-compressed when the name ends in ".gz".
absl::Status writeDataFile(const std::string &path, const std::string &bytes);

} // namespace gevo

#endif // GEVO_EVAL_DATA_FILE_H
