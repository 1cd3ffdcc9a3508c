//===- tool_paths.h - Where a tool's files are, under `bazel run` or not --===//
//
// `bazel run` starts a tool in its runfiles tree, not where the user typed the
// command: user-given relative paths are resolved against
// BUILD_WORKING_DIRECTORY, and files shipped with the tool are looked up in
// the runfiles tree wherever the tool was started from.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_TOOL_PATHS_H
#define GEVO_SUPPORT_TOOL_PATHS_H

#include <string>

namespace gevo {

/// A path the user typed, made absolute against the directory the user ran
/// `bazel run` from (unchanged outside `bazel run` or when absolute).
std::string resolveUserPath(const std::string &path);

/// The path of a file shipped in this workspace's runfiles (e.g.
/// "testdata/digits_mlp_train"), or `relative` itself when none is found.
std::string findRunfile(const std::string &relative);

} // namespace gevo

#endif // GEVO_SUPPORT_TOOL_PATHS_H
