//===- data_file.cc - A data file's bytes, gzip or not --------------------===//

#include "gevo/eval/workload/data_file.h"

#include <zlib.h>

#include <fstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gevo/support/file_io.h"

namespace gevo {
namespace {

bool isGzip(const std::string &bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

/// Inflates every gzip member of `compressed` (gzip allows several in a row).
absl::StatusOr<std::string> gunzip(const std::string &compressed,
                                   const std::string &path) {
  std::string out;
  z_stream stream{};
  // 16 + MAX_WBITS: expect a gzip header and trailer.
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    return absl::InternalError("zlib: inflateInit2 failed");
  stream.next_in =
      reinterpret_cast<Bytef *>(const_cast<char *>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size());
  char buffer[1 << 16];
  int result = Z_OK;
  while (true) {
    stream.next_out = reinterpret_cast<Bytef *>(buffer);
    stream.avail_out = sizeof(buffer);
    result = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof(buffer) - stream.avail_out);
    if (result == Z_STREAM_END) {
      if (stream.avail_in == 0)
        break;
      inflateReset(&stream); // Another member follows.
      continue;
    }
    if (result != Z_OK) {
      std::string reason = stream.msg ? stream.msg : "truncated or damaged";
      if (result == Z_BUF_ERROR)
        reason = "the file ends inside the compressed stream";
      inflateEnd(&stream);
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": corrupt gzip data: ", reason));
    }
  }
  inflateEnd(&stream);
  return out;
}

} // namespace

absl::StatusOr<std::string> readDataFile(const std::string &path,
                                         const std::string &what) {
  absl::StatusOr<std::string> bytes = readFile(path, what);
  if (!bytes.ok() || !isGzip(*bytes))
    return bytes;
  return gunzip(*bytes, path);
}

absl::Status writeDataFile(const std::string &path, const std::string &bytes) {
  bool compress =
      path.size() > 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
  if (!compress) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
    return out ? absl::OkStatus()
               : absl::InternalError(absl::StrCat(path, ": cannot write"));
  }
  gzFile file = gzopen(path.c_str(), "wb");
  if (!file)
    return absl::InternalError(absl::StrCat(path, ": cannot write"));
  bool ok = bytes.empty() ||
            gzwrite(file, bytes.data(), static_cast<unsigned>(bytes.size())) ==
                static_cast<int>(bytes.size());
  ok = gzclose(file) == Z_OK && ok;
  return ok ? absl::OkStatus()
            : absl::InternalError(absl::StrCat(path, ": cannot write"));
}

} // namespace gevo
