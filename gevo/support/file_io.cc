//===- file_io.cc - Reading and writing whole files with errors that name them

#include "gevo/support/file_io.h"

#include <sys/stat.h>
#include <unistd.h>

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
  // A device or a pipe (/dev/null, a FIFO) is written as it is.
  struct stat existing;
  if (::lstat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode) &&
      !S_ISLNK(existing.st_mode)) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    out.flush();
    if (!out)
      return absl::PermissionDeniedError(absl::StrCat(path, ": cannot write"));
    return absl::OkStatus();
  }
  // Written whole into a new file beside the target, then renamed over it:
  // a reader or a kill never sees half a file, and a symlink at the target
  // is replaced, never written through.
  std::string temporary = path + ".tmp.XXXXXX";
  int fd = ::mkstemp(temporary.data());
  if (fd < 0)
    return absl::PermissionDeniedError(
        absl::StrCat(path, ": cannot write: ", std::strerror(errno)));
  bool written = ::fchmod(fd, 0644) == 0;
  for (size_t done = 0; written && done < text.size();) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    written = n > 0;
    done += written ? n : 0;
  }
  written = ::close(fd) == 0 && written;
  if (!written || std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::string reason = std::strerror(errno);
    ::unlink(temporary.c_str());
    return absl::PermissionDeniedError(
        absl::StrCat(path, ": cannot write: ", reason));
  }
  return absl::OkStatus();
}

absl::Status makeDirectory(const std::string &path) {
  if (::mkdir(path.c_str(), 0755) == 0 || errno == EEXIST)
    return absl::OkStatus();
  return absl::PermissionDeniedError(
      absl::StrCat(path, ": cannot create directory: ", std::strerror(errno)));
}

} // namespace gevo
