//===- kernel_cache.cc - Loop nests compiled once per process -------------===//

#include "gevo/eval/kernel_cache.h"

#include <fcntl.h>
#include <memory>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_map>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/ExecutionEngine/Orc/AbsoluteSymbols.h"
#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

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

/// Whether each loop from `loop` down has at most one loop directly inside.
bool isChain(const llvm::Loop *loop) {
  while (loop->getSubLoops().size() == 1)
    loop = loop->getSubLoops().front();
  return loop->getSubLoops().empty();
}

/// The outermost chains of loops under `loop`.
void collectNests(llvm::Loop *loop, std::vector<llvm::Loop *> &nests) {
  if (isChain(loop)) {
    nests.push_back(loop);
    return;
  }
  for (llvm::Loop *inner : loop->getSubLoops())
    collectNests(inner, nests);
}

size_t instructionCount(const llvm::Loop *loop) {
  size_t count = 0;
  for (const llvm::BasicBlock *block : loop->getBlocks())
    count += block->size();
  return count;
}

bool mentionsGlobalVariable(const llvm::Constant *constant) {
  if (llvm::isa<llvm::GlobalVariable>(constant))
    return true;
  for (const llvm::Value *operand : constant->operands())
    if (const auto *inner = llvm::dyn_cast<llvm::Constant>(operand))
      if (mentionsGlobalVariable(inner))
        return true;
  return false;
}

/// Rewrites each use of a global variable inside `loop` to a freeze of it in
/// the function's entry block, so that extraction passes the address in: a
/// kernel then names no data of the module (a constant edited elsewhere
/// leaves its code alone). False when a use hides in a constant expression.
bool passGlobalsAsArguments(llvm::Function &function, const llvm::Loop &loop) {
  llvm::DenseMap<llvm::GlobalVariable *, llvm::Value *> frozen;
  llvm::IRBuilder<> builder(&*function.getEntryBlock().getFirstInsertionPt());
  for (llvm::BasicBlock *block : loop.getBlocks())
    for (llvm::Instruction &instruction : *block)
      for (llvm::Use &use : instruction.operands()) {
        auto *constant = llvm::dyn_cast<llvm::Constant>(use.get());
        if (!constant || llvm::isa<llvm::Function>(constant))
          continue;
        auto *global = llvm::dyn_cast<llvm::GlobalVariable>(constant);
        if (!global) {
          if (mentionsGlobalVariable(constant))
            return false;
          continue;
        }
        llvm::Value *&value = frozen[global];
        if (!value)
          value = builder.CreateFreeze(global);
        use.set(value);
      }
  return true;
}

/// Extracts the loop nests of `function` into new functions of its module.
std::vector<llvm::Function *> extractNests(llvm::Function &function,
                                           int minInstructions) {
  std::vector<llvm::Function *> kernels;
  llvm::DenseSet<const llvm::BasicBlock *> refused;
  while (true) {
    llvm::DominatorTree tree(function);
    llvm::LoopInfo loops(tree);
    std::vector<llvm::Loop *> nests;
    for (llvm::Loop *top : loops)
      collectNests(top, nests);
    llvm::Loop *chosen = nullptr;
    for (llvm::Loop *nest : nests)
      if (!refused.contains(nest->getHeader()) &&
          instructionCount(nest) >= static_cast<size_t>(minInstructions)) {
        chosen = nest;
        break;
      }
    if (!chosen)
      return kernels;
    refused.insert(chosen->getHeader());
    if (!passGlobalsAsArguments(function, *chosen))
      continue;
    llvm::CodeExtractorAnalysisCache cache(function);
    llvm::CodeExtractor extractor(chosen->getBlocks(), &tree,
                                  /*AggregateArgs=*/false, nullptr, nullptr,
                                  nullptr, /*AllowVarArgs=*/false,
                                  /*AllowAlloca=*/true);
    if (!extractor.isEligible())
      continue;
    if (llvm::Function *kernel = extractor.extractCodeRegion(cache))
      kernels.push_back(kernel);
  }
}

/// Moves `kernel` into a module of its own (calls to other functions become
/// declarations there); `module` calls it through `*declaration`. Returns
/// the new module, or null if the kernel names a global variable.
std::unique_ptr<llvm::Module> moveToOwnModule(llvm::Function *kernel,
                                              llvm::Module &module,
                                              llvm::Function **declaration) {
  auto own = std::make_unique<llvm::Module>("gevo_kernel", module.getContext());
  own->setDataLayout(module.getDataLayout());
  own->setTargetTriple(module.getTargetTriple());
  *declaration =
      llvm::Function::Create(kernel->getFunctionType(),
                             llvm::GlobalValue::ExternalLinkage, "", module);
  kernel->replaceAllUsesWith(*declaration);
  kernel->removeFromParent();
  own->getFunctionList().push_back(kernel);
  kernel->setLinkage(llvm::GlobalValue::ExternalLinkage);
  kernel->setName("gevo_kernel");
  for (llvm::BasicBlock &block : *kernel)
    for (llvm::Instruction &instruction : block)
      for (llvm::Use &use : instruction.operands()) {
        auto *global = llvm::dyn_cast<llvm::GlobalValue>(use.get());
        if (!global || global->getParent() == own.get())
          continue;
        auto *callee = llvm::dyn_cast<llvm::Function>(global);
        if (!callee)
          return nullptr;
        llvm::FunctionCallee local = own->getOrInsertFunction(
            callee->getName(), callee->getFunctionType(),
            callee->getAttributes());
        use.set(local.getCallee());
      }
  return own;
}

/// FNV-1a, 64 bits, as 16 hex digits.
std::string hashText(llvm::StringRef text) {
  uint64_t hash = 1469598103934665603ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return llvm::utohexstr(hash, /*LowerCase=*/true, /*Width=*/16);
}

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
  struct stat status {};
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

llvm::Expected<KernelLinks> linkKernels(llvm::Module &module,
                                        llvm::TargetMachine &machine,
                                        const KernelSettings &settings) {
  llvm::StripDebugInfo(module);
  std::vector<llvm::Function *> kernels;
  std::vector<llvm::Function *> functions;
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      functions.push_back(&function);
  for (llvm::Function *function : functions)
    for (llvm::Function *kernel :
         extractNests(*function, settings.minInstructions))
      kernels.push_back(kernel);

  KernelLinks links;
  for (llvm::Function *kernel : kernels) {
    llvm::Function *declaration = nullptr;
    std::unique_ptr<llvm::Module> own =
        moveToOwnModule(kernel, module, &declaration);
    if (!own)
      return failure("a kernel names a global variable");
    std::string text;
    llvm::raw_string_ostream printed(text);
    own->print(printed, nullptr);
    printed << settings.codegenKey << "|" << machine.getTargetCPU() << "|"
            << machine.getTargetFeatureString()
            << (settings.guarded ? "|guarded" : "");
    std::string symbol = "gevo_kernel_" + hashText(text);
    kernel->setName(symbol);
    if (llvm::Function *twin = module.getFunction(symbol)) {
      // The same nest twice in one module: one declaration serves both.
      declaration->replaceAllUsesWith(twin);
      declaration->eraseFromParent();
    } else {
      declaration->setName(symbol);
    }
    auto found = store().addresses.find(symbol);
    if (found != store().addresses.end()) {
      ++links.reused;
      links.symbols.emplace_back(symbol, found->second);
      continue;
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
      if (llvm::verifyModule(*own))
        return failure("a kernel module does not verify");
      llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> emitted =
          emitObject(*own, machine, symbol, settings);
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
    links.symbols.emplace_back(symbol, *address);
    ++(fromDirectory ? links.loaded : links.compiled);
  }
  if (llvm::verifyModule(module))
    return failure("the module does not verify after moving out its kernels");
  return links;
}

int64_t cachedKernelCount() {
  return static_cast<int64_t>(store().addresses.size());
}

} // namespace gevo
