//===- guarded_memory.cc - Inputs that fault when misused -----------------===//

#include "gevo/eval/guarded_memory.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

namespace gevo {
namespace {

// The guarded ranges, readable from the signal handler without locks: the
// pages around an input (no access) and the input's own (read only).
constexpr int kMaxGuards = 192;
struct Guard {
  std::atomic<uintptr_t> begin{0}, end{0};
  std::atomic<bool> input{false};
};
Guard guards[kMaxGuards];
std::atomic<int> guardCount{0};

void addGuard(const char *begin, size_t bytes, bool input = false) {
  int slot = guardCount.fetch_add(1);
  if (slot >= kMaxGuards)
    return;
  guards[slot].begin = reinterpret_cast<uintptr_t>(begin);
  guards[slot].end = reinterpret_cast<uintptr_t>(begin) + bytes;
  guards[slot].input = input;
}

void removeGuards(const char *begin, size_t bytes) {
  uintptr_t low = reinterpret_cast<uintptr_t>(begin), high = low + bytes;
  for (int i = 0; i < kMaxGuards; ++i)
    if (guards[i].begin >= low && guards[i].end <= high)
      guards[i].begin = guards[i].end = 0;
}

void onSegfault(int signal, siginfo_t *info, void *) {
  uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
  for (int i = 0; i < kMaxGuards; ++i)
    if (address >= guards[i].begin && address < guards[i].end) {
      static const char beside[] =
          "gevo sandbox: out-of-bounds access next to an input tensor\n";
      static const char into[] =
          "gevo sandbox: a write into an input tensor (inputs are read "
          "only)\n";
      bool input = guards[i].input;
      ssize_t ignored = ::write(STDERR_FILENO, input ? into : beside,
                                input ? sizeof(into) - 1 : sizeof(beside) - 1);
      (void)ignored;
      _exit(kOutOfBoundsExitCode);
    }
  // Not ours: die of the signal as before.
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

} // namespace

GuardedTensors::GuardedTensors(
    const std::vector<const HostTensor *> &originals) {
  size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  copies.reserve(originals.size());
  for (const HostTensor *original : originals) {
    size_t bytes = original->numElements() * byteWidth(original->type);
    size_t dataPages = (bytes + page - 1) / page;
    size_t total = (dataPages + 2) * page;
    void *mapping = ::mmap(nullptr, total, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) {
      used.push_back(original);
      continue;
    }
    char *base = static_cast<char *>(mapping);
    char *back = base + (dataPages + 1) * page;
    ::mprotect(base, page, PROT_NONE);
    ::mprotect(back, page, PROT_NONE);
    addGuard(base, page);
    addGuard(back, page);
    mappings.push_back({mapping, total});
    // The data ends where the back guard starts.
    char *data = back - bytes;
    std::memcpy(data, original->data(), bytes);
    // Read only from here: a variant that writes its inputs (an output
    // rewired to an argument, say) would change what every later run in
    // this worker reads, the unmodified program's included.
    if (dataPages > 0 &&
        ::mprotect(base + page, dataPages * page, PROT_READ) == 0)
      addGuard(base + page, dataPages * page, /*input=*/true);
    copies.push_back(HostTensor::view(original->type, original->shape, data));
    used.push_back(&copies.back());
  }
}

GuardedTensors::~GuardedTensors() {
  for (auto [mapping, bytes] : mappings) {
    removeGuards(static_cast<const char *>(mapping), bytes);
    ::munmap(mapping, bytes);
  }
}

std::vector<const HostTensor *> GuardedTensors::pointers() const {
  return used;
}

void reportGuardPageFaults() {
  // The handler runs on its own stack, so it also works when the variant
  // overflowed its stack.
  static char stack[64 * 1024];
  stack_t alternate{};
  alternate.ss_sp = stack;
  alternate.ss_size = sizeof(stack);
  ::sigaltstack(&alternate, nullptr);
  struct sigaction action {};
  action.sa_sigaction = onSegfault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGSEGV, &action, nullptr);
  ::sigaction(SIGBUS, &action, nullptr);
}

} // namespace gevo
