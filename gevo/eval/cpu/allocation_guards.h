//===- allocation_guards.h - malloc for code that runs in a sandbox -------===//
//
// The allocation functions JIT-compiled code gets when
// CodegenOptions::guardAllocations is on (jit.h): fresh memory filled with
// one byte (setAllocationFill, declared in jit.h), and a failed allocation
// ending the child with kOutOfMemoryExitCode (sandbox.h) instead of letting
// the code write through a null pointer.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_EVAL_ALLOCATION_GUARDS_H
#define GEVO_EVAL_ALLOCATION_GUARDS_H

#include <string>
#include <utility>
#include <vector>

namespace gevo {

/// "malloc", "calloc" and "aligned_alloc" with the guarded versions'
/// addresses, for a JIT's symbol table.
std::vector<std::pair<std::string, void *>> allocationGuardAddresses();

} // namespace gevo

#endif // GEVO_EVAL_ALLOCATION_GUARDS_H
