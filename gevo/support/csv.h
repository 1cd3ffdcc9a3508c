//===- csv.h - CSV fields written and read back ---------------------------===//
//
// The run directory's CSV files (history.csv, operators.csv, explore's CSV)
// are written and read with these two: a field quoted only when it must be,
// and a line split back into its fields. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_CSV_H
#define GEVO_SUPPORT_CSV_H

#include <string>
#include <vector>

namespace gevo {

/// `text` as one CSV field (quoted when it holds a comma, quote or newline).
std::string csvField(const std::string &text);
/// The fields of one CSV line as csvField writes them (quotes removed).
std::vector<std::string> parseCsvLine(const std::string &line);

} // namespace gevo

#endif // GEVO_SUPPORT_CSV_H
