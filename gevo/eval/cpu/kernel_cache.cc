//===- kernel_cache.cc - Loop nests compiled once per process -------------===//

#include "gevo/eval/cpu/kernel_cache.h"

#include <memory>
#include <string>
#include <vector>

#include "gevo/eval/cpu/outline_kernels.h"
#include "gevo/support/text_hash.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

namespace gevo {
namespace {

llvm::Error failure(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
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

/// Whether `loop` calls a kernel the lowering outlined: then it is the code
/// around the kernels (a training loop, say), whose text names every kernel
/// it calls, so that a variant changing any kernel would recompile it whole
/// at the kernels' level; it stays in the module, compiled as the code
/// around the kernels is.
bool callsOutlinedKernel(const llvm::Loop *loop) {
  for (const llvm::BasicBlock *block : loop->getBlocks())
    for (const llvm::Instruction &instruction : *block)
      if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction))
        if (const llvm::Function *callee = call->getCalledFunction())
          if (callee->getName().starts_with(kOutlinedKernelPrefix))
            return true;
  return false;
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
          instructionCount(nest) >= static_cast<size_t>(minInstructions) &&
          !callsOutlinedKernel(nest)) {
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

/// Where the code of outlined kernel `function` (named as the lowering named
/// it) is, compiled before; an error naming it when it is not.
llvm::Expected<void *> compiledKernel(const llvm::Function &function,
                                      const KernelSettings &settings) {
  std::string symbol = outlinedKernelSymbol(function.getName().str(), settings);
  if (!kernelAvailable(symbol, settings))
    return failure("kernel " + function.getName() +
                   " was left out of the module but is not compiled");
  return kernelAddress(symbol);
}

/// Compiles or links the kernels the lowering outlined; those it declared
/// only must be compiled already.
llvm::Error linkOutlined(llvm::Module &module, llvm::TargetMachine &machine,
                         const KernelSettings &settings, KernelLinks &links) {
  std::vector<llvm::Function *> outlined;
  for (llvm::Function &function : module)
    if (function.getName().starts_with(kOutlinedKernelPrefix))
      outlined.push_back(&function);
  for (llvm::Function *function : outlined) {
    std::string symbol =
        outlinedKernelSymbol(function->getName().str(), settings);
    if (function->isDeclaration() || kernelAddress(symbol) != nullptr) {
      llvm::Expected<void *> address = compiledKernel(*function, settings);
      if (!address)
        return address.takeError();
      function->deleteBody();
      function->setLinkage(llvm::GlobalValue::ExternalLinkage);
      function->setName(symbol);
      links.symbols.emplace_back(symbol, *address);
      ++links.reused;
      continue;
    }
    llvm::Function *declaration = nullptr;
    std::unique_ptr<llvm::Module> own =
        moveToOwnModule(function, module, &declaration);
    if (!own)
      return failure("a kernel names a global variable");
    function->setName(symbol);
    declaration->setName(symbol);
    if (llvm::Error error =
            provideKernel(symbol, *own, machine, settings, links))
      return error;
  }
  return llvm::Error::success();
}

} // namespace

std::string outlinedKernelSymbol(const std::string &name,
                                 const KernelSettings &settings) {
  return name + "_" +
         hashText(settings.codegenKey + "|" + hostKey() +
                  (settings.guarded ? "|guarded" : ""));
}

llvm::Expected<std::vector<std::pair<std::string, void *>>>
declaredKernels(const llvm::Module &module, const KernelSettings &settings) {
  std::vector<std::pair<std::string, void *>> out;
  for (const llvm::Function &function : module) {
    if (!function.isDeclaration() ||
        !function.getName().starts_with(kOutlinedKernelPrefix))
      continue;
    llvm::Expected<void *> address = compiledKernel(function, settings);
    if (!address)
      return address.takeError();
    out.emplace_back(function.getName().str(), *address);
  }
  return out;
}

llvm::Expected<KernelLinks> linkKernels(llvm::Module &module,
                                        llvm::TargetMachine &machine,
                                        const KernelSettings &settings) {
  llvm::StripDebugInfo(module);
  KernelLinks links;
  if (llvm::Error error = linkOutlined(module, machine, settings, links))
    return std::move(error);
  std::vector<llvm::Function *> kernels;
  std::vector<llvm::Function *> functions;
  for (llvm::Function &function : module)
    if (!function.isDeclaration())
      functions.push_back(&function);
  for (llvm::Function *function : functions)
    for (llvm::Function *kernel :
         extractNests(*function, settings.minInstructions))
      kernels.push_back(kernel);

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
    if (llvm::Error error =
            provideKernel(symbol, *own, machine, settings, links))
      return std::move(error);
  }
  if (llvm::verifyModule(module))
    return failure("the module does not verify after moving out its kernels");
  return links;
}

} // namespace gevo
