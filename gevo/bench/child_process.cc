//===- child_process.cc - A benchmark's helper program, run to the end ----===//

#include "gevo/bench/child_process.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace gevo {
namespace {

/// In the child: standard output to `fd`, then `args`; never returns.
[[noreturn]] void execChild(const std::vector<std::string> &args, int fd) {
  dup2(fd, 1);
  std::vector<char *> argv;
  for (const std::string &a : args)
    argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  _exit(127);
}

} // namespace

ChildExit runChild(const std::vector<std::string> &args, std::string *output) {
  int pipeFds[2] = {-1, -1};
  if (output && pipe(pipeFds) != 0)
    return {};
  pid_t pid = fork();
  if (pid == 0) {
    if (!output)
      execChild(args, open("/dev/null", O_WRONLY));
    close(pipeFds[0]);
    execChild(args, pipeFds[1]);
  }
  if (output) {
    close(pipeFds[1]);
    char buffer[4096];
    ssize_t n;
    while ((n = read(pipeFds[0], buffer, sizeof buffer)) > 0)
      output->append(buffer, n);
    close(pipeFds[0]);
  }
  int status = 0;
  struct rusage usage = {};
  wait4(pid, &status, 0, &usage);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss};
}

} // namespace gevo
