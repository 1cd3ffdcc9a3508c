//===- file_io.cc - Reading whole files with errors that name them --------===//

#include "gevo/support/file_io.h"

#include <cerrno>
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
    return absl::NotFoundError(absl::StrCat(path, ": cannot open ", what, ": ",
                                            std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace gevo
