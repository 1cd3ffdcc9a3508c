//===- outline_kernels.cc - Each linalg op on buffers as a function -------===//

#include "gevo/eval/cpu/outline_kernels.h"

#include <map>
#include <vector>

#include "gevo/support/text_hash.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace gevo {
namespace {

bool isKernel(mlir::func::FuncOp function) {
  return function.getSymName().starts_with(kOutlinedKernelPrefix);
}

/// `op` as the body of a new function (not in any module yet) taking
/// `inputs`.
mlir::func::FuncOp makeKernel(mlir::Operation *op,
                              llvm::ArrayRef<mlir::Value> inputs) {
  llvm::SmallVector<mlir::Type> types;
  for (mlir::Value value : inputs)
    types.push_back(value.getType());
  mlir::OpBuilder builder(op->getContext());
  auto function =
      mlir::func::FuncOp::create(builder, op->getLoc(), kOutlinedKernelPrefix,
                                 builder.getFunctionType(types, {}));
  function.setPrivate();
  mlir::Block *entry = function.addEntryBlock();
  mlir::IRMapping mapping;
  for (auto [value, argument] : llvm::zip(inputs, entry->getArguments()))
    mapping.map(value, argument);
  builder.setInsertionPointToEnd(entry);
  builder.clone(*op, mapping);
  mlir::func::ReturnOp::create(builder, op->getLoc());
  return function;
}

class OutlineKernelsPass
    : public mlir::PassWrapper<OutlineKernelsPass,
                               mlir::OperationPass<mlir::ModuleOp>> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OutlineKernelsPass)

  llvm::StringRef getArgument() const override { return kOutlineKernelsPass; }
  llvm::StringRef getDescription() const override {
    return "Move each linalg op on buffers into a function named by its "
           "text, so that it is lowered and compiled once (gevo-ml)";
  }
  llvm::StringRef getName() const override { return getArgument(); }
  void getDependentDialects(mlir::DialectRegistry &registry) const override {
    registry.insert<mlir::func::FuncDialect>();
  }

  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    std::string salt;
    if (auto attr = module->getAttrOfType<mlir::StringAttr>(kKernelSaltAttr))
      salt = attr.getValue().str();
    module->removeAttr(kKernelSaltAttr);

    std::vector<mlir::linalg::LinalgOp> ops;
    module.walk([&](mlir::func::FuncOp function) {
      if (isKernel(function))
        return;
      function.walk([&](mlir::linalg::LinalgOp op) {
        if (op.hasPureBufferSemantics())
          ops.push_back(op);
      });
    });
    mlir::SymbolTable symbols(module);
    mlir::OpPrintingFlags flags;
    flags.useLocalScope();
    for (mlir::linalg::LinalgOp op : ops) {
      llvm::SetVector<mlir::Value> inputs(op->getOperands().begin(),
                                          op->getOperands().end());
      mlir::getUsedValuesDefinedAbove(op->getRegions(), inputs);
      mlir::func::FuncOp kernel = makeKernel(op, inputs.getArrayRef());
      std::string text;
      llvm::raw_string_ostream printed(text);
      kernel->print(printed, flags);
      printed << salt;
      std::string name = kOutlinedKernelPrefix + hashText(text);
      if (symbols.lookup(name)) {
        kernel->erase(); // an equal op was outlined before
      } else {
        kernel.setSymName(name);
        symbols.insert(kernel);
      }
      mlir::OpBuilder builder(op);
      mlir::func::CallOp::create(builder, op->getLoc(), name, mlir::TypeRange{},
                                 inputs.getArrayRef());
      op->erase();
    }
  }
};

} // namespace

void registerOutlineKernelsPass() {
  static const bool registered = [] {
    mlir::PassRegistration<OutlineKernelsPass>();
    return true;
  }();
  (void)registered;
}

int dropCompiledKernels(
    mlir::ModuleOp module,
    const std::function<bool(const std::string &)> &compiled) {
  int dropped = 0;
  for (auto function : module.getOps<mlir::func::FuncOp>()) {
    if (!isKernel(function) || function.isExternal())
      continue;
    if (!compiled(function.getSymName().str()))
      continue;
    function.getBody().getBlocks().clear();
    function.setPrivate();
    ++dropped;
  }
  return dropped;
}

} // namespace gevo
