//===- fork_server.cc - Children forked from a small copy of the session --===//

#include "gevo/eval/fork_server.h"

#include <dirent.h>
#include <fcntl.h>
#include <malloc.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"

namespace gevo {
namespace {

/// What the caller sends with each message (the bytes travel in a memfd).
struct Header {
  char kind = 0; // 'R': start a child; 'C': a control message
  int64_t memoryBytes = 0;
  double timeoutSeconds = 0;
};
/// What the server answers: the child's pid (or -errno), or 0 / 1 for a
/// control message's status, followed by `messageBytes` of its message.
struct Reply {
  int64_t value = 0;
  uint32_t messageBytes = 0;
};
constexpr int kMaxFds = 3;
/// How long the caller waits for an answer before it counts the server as
/// gone (a control message compiles a front member: well under this).
constexpr int kAnswerTimeoutMs = 120000;

/// Moves all `size` bytes with `io` (read or write), across interruptions
/// and short transfers; false at the end of the stream or on an error.
template <typename Byte, typename Io>
bool transferFully(int fd, Byte *data, size_t size, Io io) {
  while (size > 0) {
    ssize_t n = io(fd, data, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool writeFully(int fd, const void *data, size_t size) {
  return transferFully(fd, static_cast<const char *>(data), size, ::write);
}

bool readFully(int fd, void *data, size_t size) {
  return transferFully(fd, static_cast<char *>(data), size, ::read);
}

bool sendWithFds(int socket, const Header &header, const int *fds, int count) {
  iovec data{const_cast<Header *>(&header), sizeof(header)};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = CMSG_SPACE(sizeof(int) * count);
  cmsghdr *rights = CMSG_FIRSTHDR(&message);
  rights->cmsg_level = SOL_SOCKET;
  rights->cmsg_type = SCM_RIGHTS;
  rights->cmsg_len = CMSG_LEN(sizeof(int) * count);
  std::memcpy(CMSG_DATA(rights), fds, sizeof(int) * count);
  ssize_t n;
  do
    n = ::sendmsg(socket, &message, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  return n == static_cast<ssize_t>(sizeof(header));
}

/// One message: false at the end of the stream or on a broken one.
bool receiveWithFds(int socket, Header &header, std::vector<int> &fds) {
  iovec data{&header, sizeof(header)};
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  msghdr message{};
  message.msg_iov = &data;
  message.msg_iovlen = 1;
  message.msg_control = control;
  message.msg_controllen = sizeof(control);
  ssize_t n;
  do
    n = ::recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  fds.clear();
  for (cmsghdr *c = CMSG_FIRSTHDR(&message); c; c = CMSG_NXTHDR(&message, c))
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      const int *received = reinterpret_cast<const int *>(CMSG_DATA(c));
      fds.assign(received, received + count);
    }
  return n == static_cast<ssize_t>(sizeof(header)) && !fds.empty();
}

std::string readMemfd(int fd) {
  struct stat info {};
  std::string bytes;
  if (::fstat(fd, &info) != 0)
    return bytes;
  bytes.resize(static_cast<size_t>(info.st_size));
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::pread(fd, bytes.data() + done, bytes.size() - done,
                        static_cast<off_t>(done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    done += static_cast<size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

void reply(int socket, int64_t value, const std::string &message) {
  Reply answer{value, static_cast<uint32_t>(message.size())};
  writeFully(socket, &answer, sizeof(answer));
  writeFully(socket, message.data(), message.size());
}

/// Closes every descriptor the server inherited but its socket and the
/// standard streams: a pipe of a child the caller is waiting on must not
/// stay open here.
void closeInheritedFds(int keep) {
  std::vector<int> open;
  if (DIR *dir = ::opendir("/proc/self/fd")) {
    while (dirent *entry = ::readdir(dir)) {
      int fd = std::atoi(entry->d_name);
      if (entry->d_name[0] != '.' && fd > STDERR_FILENO && fd != keep)
        open.push_back(fd);
    }
    ::closedir(dir);
  }
  for (int fd : open)
    ::close(fd); // the directory's own descriptor is already closed: EBADF
}

/// The server's loop; never returns.
[[noreturn]] void serve(int socket, const ForkServer::Work &work,
                        const ForkServer::Control &control) {
  // Ctrl-C reaches the whole process group: the server ends with its
  // caller (the socket's end, or the caller's death), never on its own.
  // Children get the caller's handlers back.
  struct sigaction interrupt {
  }, terminate{}, ignore{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGINT, &ignore, &interrupt);
  ::sigaction(SIGTERM, &ignore, &terminate);
  Header header;
  std::vector<int> fds;
  while (receiveWithFds(socket, header, fds)) {
    std::string bytes = readMemfd(fds[0]);
    ::close(fds[0]);
    if (header.kind == 'C') {
      for (size_t i = 1; i < fds.size(); ++i)
        ::close(fds[i]);
      absl::Status status = control(bytes);
      reply(socket, status.ok() ? 0 : 1, std::string(status.message()));
      continue;
    }
    if (header.kind != 'R' || fds.size() != 3) {
      for (size_t i = 1; i < fds.size(); ++i)
        ::close(fds[i]);
      reply(socket, -EINVAL, "");
      continue;
    }
    // A child of the caller, not of the server: the caller waits for it,
    // kills it at its deadline and reads its CPU time as for its own.
    long pid = ::syscall(SYS_clone, CLONE_PARENT | SIGCHLD, nullptr, nullptr,
                         nullptr, nullptr);
    if (pid == 0) {
      ::close(socket);
      ::sigaction(SIGINT, &interrupt, nullptr);
      ::sigaction(SIGTERM, &terminate, nullptr);
      SandboxLimits limits;
      limits.memoryBytes = header.memoryBytes;
      limits.timeoutSeconds = header.timeoutSeconds;
      runChildWork([&] { return work(bytes); }, limits, fds[1], fds[2]);
    }
    int error = errno;
    ::close(fds[1]);
    ::close(fds[2]);
    reply(socket, pid > 0 ? pid : -error, "");
  }
  _exit(0);
}

} // namespace

absl::StatusOr<std::unique_ptr<ForkServer>> ForkServer::start(Work work,
                                                              Control control) {
  int ends[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
    return absl::InternalError(
        absl::StrCat("fork server: socketpair: ", std::strerror(errno)));
  pid_t caller = ::getpid();
  // Free heap pages go back to the system first: the server's copy of them
  // would be copied again by every clone (a resumed search has just read
  // its checkpoint, and freed most of what that took).
  ::malloc_trim(0);
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = ::fork();
  if (pid < 0) {
    int error = errno;
    ::close(ends[0]);
    ::close(ends[1]);
    return absl::InternalError(
        absl::StrCat("fork server: fork: ", std::strerror(error)));
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != caller)
      _exit(0);
    closeInheritedFds(ends[1]);
    serve(ends[1], work, control);
  }
  ::close(ends[1]);
  return std::unique_ptr<ForkServer>(new ForkServer(ends[0], pid));
}

ForkServer::~ForkServer() {
  if (socketFd >= 0)
    ::close(socketFd);
  if (serverPid > 0) {
    ::kill(serverPid, SIGKILL);
    ::waitpid(serverPid, nullptr, 0);
  }
}

absl::StatusOr<int64_t> ForkServer::exchange(char kind,
                                             const std::string &bytes,
                                             const SandboxLimits &limits,
                                             std::initializer_list<int> fds) {
  if (socketFd < 0)
    return absl::UnavailableError("the fork server is gone");
  auto gone = [&](const std::string &why) {
    ::close(socketFd);
    socketFd = -1;
    return absl::UnavailableError(
        absl::StrCat("the fork server is gone: ", why));
  };
  int memfd = ::memfd_create("gevo-request", MFD_CLOEXEC);
  if (memfd < 0)
    return absl::InternalError(
        absl::StrCat("fork server: memfd_create: ", std::strerror(errno)));
  bool written = writeFully(memfd, bytes.data(), bytes.size());
  std::vector<int> sent = {memfd};
  sent.insert(sent.end(), fds.begin(), fds.end());
  Header header{kind, limits.memoryBytes, limits.timeoutSeconds};
  bool delivered = written && sendWithFds(socketFd, header, sent.data(),
                                          static_cast<int>(sent.size()));
  ::close(memfd);
  if (!written)
    return absl::InternalError("fork server: could not write the request");
  if (!delivered)
    return gone("it took no request");
  pollfd wait{socketFd, POLLIN, 0};
  int ready;
  do
    ready = ::poll(&wait, 1, kAnswerTimeoutMs);
  while (ready < 0 && errno == EINTR);
  Reply answer;
  if (ready <= 0 || !readFully(socketFd, &answer, sizeof(answer)))
    return gone("no answer");
  std::string message(answer.messageBytes, '\0');
  if (!readFully(socketFd, message.data(), message.size()))
    return gone("a broken answer");
  if (kind == 'C' && answer.value != 0)
    return absl::InternalError(message);
  return answer.value;
}

absl::StatusOr<pid_t> ForkServer::launch(const std::string &request,
                                         const SandboxLimits &limits,
                                         int payloadFd, int stderrFd) {
  absl::StatusOr<int64_t> pid =
      exchange('R', request, limits, {payloadFd, stderrFd});
  if (!pid.ok())
    return pid.status();
  if (*pid <= 0)
    return absl::InternalError(absl::StrCat(
        "fork server: clone: ", std::strerror(static_cast<int>(-*pid))));
  return static_cast<pid_t>(*pid);
}

absl::Status ForkServer::control(const std::string &message) {
  return exchange('C', message, SandboxLimits{}, {}).status();
}

} // namespace gevo
