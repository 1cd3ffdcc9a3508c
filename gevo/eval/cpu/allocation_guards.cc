//===- allocation_guards.cc - malloc for code that runs in a sandbox ------===//

#include "gevo/eval/cpu/allocation_guards.h"

#include <cstdlib>
#include <cstring>

#include "gevo/eval/cpu/jit.h"
#include "gevo/eval/sandbox.h"

namespace gevo {
namespace {

// What fresh allocations are filled with: a variant that reads memory it
// never wrote (a deleted fill, say) sees the same bytes in every process,
// and a second run with another fill shows that it reads them.
unsigned char allocationFill = 0;

void *guardedMalloc(size_t size) {
  void *pointer =
      allocationFill == 0 ? std::calloc(1, size) : std::malloc(size);
  if (!pointer && size != 0)
    exitOnAllocationFailure();
  if (pointer && allocationFill != 0)
    std::memset(pointer, allocationFill, size);
  return pointer;
}

void *guardedCalloc(size_t count, size_t size) {
  void *pointer = std::calloc(count, size);
  if (!pointer && count != 0 && size != 0)
    exitOnAllocationFailure();
  return pointer;
}

void *guardedAlignedAlloc(size_t alignment, size_t size) {
  void *pointer = std::aligned_alloc(alignment, size);
  if (!pointer && size != 0)
    exitOnAllocationFailure();
  if (pointer)
    std::memset(pointer, allocationFill, size);
  return pointer;
}

} // namespace

void setAllocationFill(unsigned char byte) { allocationFill = byte; }

std::vector<std::pair<std::string, void *>> allocationGuardAddresses() {
  return {{"malloc", reinterpret_cast<void *>(&guardedMalloc)},
          {"calloc", reinterpret_cast<void *>(&guardedCalloc)},
          {"aligned_alloc", reinterpret_cast<void *>(&guardedAlignedAlloc)}};
}

} // namespace gevo
