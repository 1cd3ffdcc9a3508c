//===- benchmarks_md.h - The sections of BENCHMARKS.md ----------*- C++ -*-===//
//
// BENCHMARKS.md is generated from the figures files the benchmarks write
// (bench-results/*.json). Each section lives in its own md_*_section file and
// writes Markdown into a stream; a missing or malformed figures file gives a
// section saying "Not run.". A new benchmark adds a section function here and
// one call in benchmarks_md_main.cc.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_BENCH_BENCHMARKS_MD_H
#define GEVO_BENCH_BENCHMARKS_MD_H

#include <optional>
#include <sstream>
#include <string>

#include "llvm/Support/JSON.h"

namespace gevo::bench_md {

/// Where the figures files are read from (absolute).
void setResultsDirectory(std::string dir);
const std::string &resultsDirectory();

/// The parsed figures file `name` of the results directory, if readable.
std::optional<llvm::json::Value> load(const std::string &name);
/// The figures of `file` (held in `figures`), or null after writing "Not
/// run." into `md` when the file is missing or malformed.
const llvm::json::Object *figuresOf(std::ostringstream &md,
                                    const std::string &file,
                                    std::optional<llvm::json::Value> &figures);
/// A number or string field, 0 / "" when absent.
double num(const llvm::json::Object *o, llvm::StringRef key);
std::string str(const llvm::json::Object *o, llvm::StringRef key);
/// `path` relative to where the user ran the tool.
std::string relative(std::string path);
/// The CPU, cores, memory, kernel and the date, in one line.
std::string machine();

void throughput(std::ostringstream &md);
void searchVsRandom(std::ostringstream &md);
void minimizers(std::ostringstream &md);
void paperClaims(std::ostringstream &md);
void scaling(std::ostringstream &md);
void scaleOut(std::ostringstream &md);
void irScaling(std::ostringstream &md);
void stress(std::ostringstream &md);
void compileProfile(std::ostringstream &md);
void onnxConformance(std::ostringstream &md);
void racing(std::ostringstream &md);
void steadyState(std::ostringstream &md);
void safety(std::ostringstream &md);
void importedClaims(std::ostringstream &md);

} // namespace gevo::bench_md

#endif // GEVO_BENCH_BENCHMARKS_MD_H
