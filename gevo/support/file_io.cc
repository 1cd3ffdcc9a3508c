//===- file_io.cc - Reading whole files with errors that name them --------===//

#include "gevo/support/file_io.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace gevo {

absl::StatusOr<std::string> readFile(const std::string &path,
                                     const std::string &what) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError(
        absl::StrCat(path, ": cannot open ", what, ": ", std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

absl::Status writeOutput(const std::string &path, const std::string &text) {
  if (path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
    return absl::OkStatus();
  }
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.flush();
  if (!out)
    return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
  return absl::OkStatus();
}

absl::Status makeDirectory(const std::string &path) {
  if (::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST)
    return absl::OkStatus();
  return absl::PermissionDeniedError(
      absl::StrCat(path, ": cannot create directory: ", std::strerror(errno)));
}

} // namespace gevo
