//===- kernel_store.cc - The process's compiled kernels, and their sharing ===//

#include "gevo/eval/cpu/kernel_store.h"

#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

namespace gevo {
namespace {

/// The process's kernels: one JIT that only links objects, one library of
/// symbols per allocation mode, and each kernel's address by symbol. A
/// forked child inherits all of it, code pages included.
struct KernelStore {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  llvm::orc::JITDylib *libraries[2] = {nullptr, nullptr};
  std::unordered_map<std::string, void *> addresses;
};

KernelStore &store() {
  static KernelStore *kernels = new KernelStore();
  return *kernels;
}

llvm::Error failure(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The library kernels of `settings`' allocation mode link against.
llvm::Expected<llvm::orc::JITDylib *> libraryFor(const KernelSettings &s) {
  KernelStore &kernels = store();
  if (!kernels.jit) {
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder)
      return builder.takeError();
    auto jit = llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(std::move(*builder))
                   .create();
    if (!jit)
      return jit.takeError();
    kernels.jit = std::move(*jit);
  }
  llvm::orc::JITDylib *&library = kernels.libraries[s.guarded ? 1 : 0];
  if (library)
    return library;
  llvm::orc::LLJIT &jit = *kernels.jit;
  auto made =
      jit.createJITDylib(s.guarded ? "gevo_kernels_guarded" : "gevo_kernels");
  if (!made)
    return made.takeError();
  char prefix = jit.getDataLayout().getGlobalPrefix();
  if (s.guarded && s.guards) {
    llvm::orc::SymbolMap symbols;
    for (const auto &[name, address] : s.guards())
      symbols[jit.mangleAndIntern(name)] = {
          llvm::orc::ExecutorAddr::fromPtr(address),
          llvm::JITSymbolFlags::Exported};
    if (llvm::Error error =
            made->define(llvm::orc::absoluteSymbols(std::move(symbols))))
      return std::move(error);
  }
  auto process =
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(prefix);
  if (!process)
    return process.takeError();
  made->addGenerator(std::move(*process));
  if (!s.runtimeLibrary.empty()) {
    auto runtime = llvm::orc::DynamicLibrarySearchGenerator::Load(
        s.runtimeLibrary.c_str(), prefix);
    if (!runtime)
      return runtime.takeError();
    made->addGenerator(std::move(*runtime));
  }
  library = &*made;
  return library;
}

} // namespace

const std::string &hostKey() {
  static const std::string *key = [] {
    auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!builder) {
      llvm::consumeError(builder.takeError());
      return new std::string("unknown-host");
    }
    return new std::string(builder->getCPU() + "|" +
                           builder->getFeatures().getString());
  }();
  return *key;
}

namespace {

/// The kernel's IR passes and machine code, as an object file in memory.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
emitObject(llvm::Module &own, llvm::TargetMachine &machine,
           const std::string &symbol, const KernelSettings &settings) {
  if (settings.optimize)
    if (llvm::Error error = settings.optimize(own))
      return std::move(error);
  llvm::SmallVector<char, 0> object;
  llvm::raw_svector_ostream stream(object);
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, stream, nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return failure("the target cannot emit object files");
  passes.run(own);
  return llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(object.data(), object.size()), symbol);
}

/// Links `object` into the process's JIT: where `symbol` now is.
llvm::Expected<void *> loadObject(std::unique_ptr<llvm::MemoryBuffer> object,
                                  const std::string &symbol,
                                  const KernelSettings &settings) {
  llvm::Expected<llvm::orc::JITDylib *> library = libraryFor(settings);
  if (!library)
    return library.takeError();
  llvm::orc::LLJIT &jit = *store().jit;
  if (llvm::Error error = jit.addObjectFile(**library, std::move(object)))
    return std::move(error);
  llvm::Expected<llvm::orc::ExecutorAddr> address =
      jit.lookup(**library, symbol);
  if (!address)
    return address.takeError();
  void *pointer = address->toPtr<void *>();
  store().addresses.emplace(symbol, pointer);
  return pointer;
}

/// Whether the shared directory may take one more object: each writer
/// appends a byte to its `count` file (O_APPEND: atomic between processes),
/// so a long search cannot fill the disk with kernels.
bool claimSharedSlot(const KernelSettings &settings) {
  std::string count = settings.objectDirectory + "/count";
  int fd = open(count.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
  if (fd < 0)
    return false;
  struct stat status{};
  bool claimed = write(fd, "+", 1) == 1 && fstat(fd, &status) == 0 &&
                 status.st_size <= settings.maxSharedObjects;
  close(fd);
  return claimed;
}

/// Leaves `object` in the shared directory for other processes, written
/// under a name of this process and renamed, so no reader sees half a file.
void shareObject(const llvm::MemoryBuffer &object, const std::string &path,
                 const KernelSettings &settings) {
  if (!claimSharedSlot(settings))
    return;
  std::string partial = path + ".partial." + std::to_string(getpid());
  {
    std::error_code error;
    llvm::raw_fd_ostream out(partial, error);
    if (error)
      return;
    out << object.getBuffer();
    if (out.has_error()) {
      out.clear_error();
      return;
    }
  }
  if (llvm::sys::fs::rename(partial, path))
    llvm::sys::fs::remove(partial);
}

} // namespace

llvm::Error provideKernel(const std::string &symbol, llvm::Module &own,
                          llvm::TargetMachine &machine,
                          const KernelSettings &settings, KernelLinks &links) {
  auto found = store().addresses.find(symbol);
  if (found != store().addresses.end()) {
    ++links.reused;
    links.symbols.emplace_back(symbol, found->second);
    return llvm::Error::success();
  }
  std::string shared = settings.objectDirectory.empty()
                           ? std::string()
                           : settings.objectDirectory + "/" + symbol + ".o";
  std::unique_ptr<llvm::MemoryBuffer> object;
  if (!shared.empty())
    if (auto left = llvm::MemoryBuffer::getFile(shared))
      object = std::move(*left);
  bool fromDirectory = object != nullptr;
  if (!fromDirectory) {
    if (llvm::verifyModule(own))
      return failure("a kernel module does not verify");
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> emitted =
        emitObject(own, machine, symbol, settings);
    if (!emitted)
      return emitted.takeError();
    object = std::move(*emitted);
    if (!shared.empty())
      shareObject(*object, shared, settings);
  }
  llvm::Expected<void *> address =
      loadObject(std::move(object), symbol, settings);
  if (!address)
    return address.takeError();
  ++(fromDirectory ? links.loaded : links.compiled);
  links.symbols.emplace_back(symbol, *address);
  return llvm::Error::success();
}

void *kernelAddress(const std::string &symbol) {
  auto found = store().addresses.find(symbol);
  return found == store().addresses.end() ? nullptr : found->second;
}

bool kernelAvailable(const std::string &symbol,
                     const KernelSettings &settings) {
  if (store().addresses.count(symbol))
    return true;
  if (settings.objectDirectory.empty())
    return false;
  auto object = llvm::MemoryBuffer::getFile(settings.objectDirectory + "/" +
                                            symbol + ".o");
  if (!object)
    return false;
  llvm::Expected<void *> address =
      loadObject(std::move(*object), symbol, settings);
  if (!address) {
    llvm::consumeError(address.takeError());
    return false;
  }
  return true;
}

int64_t cachedKernelCount() {
  return static_cast<int64_t>(store().addresses.size());
}

} // namespace gevo
