//===- onnx_fuzzer.cc - libFuzzer target: the ONNX importer ---------------===//
//
// Feeds arbitrary bytes to importOnnx. What must hold for any input: no
// crash, hang or memory error (AddressSanitizer in the fuzz build), an error
// that says something, and a module that parses and verifies whenever the
// import succeeds (never a silently broken module). Built as a fuzzer with
// `--config=fuzz`; the normal build links it with //replay/fuzz:corpus_main,
// which runs it over the shipped model (onnx_corpus_test).
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gevo/frontend/onnx_import.h"
#include "gevo/ir/mlir_support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1 << 20))
    return 0;
  std::string bytes(reinterpret_cast<const char *>(data), size);
  absl::StatusOr<std::string> text =
      gevo::importOnnx(bytes, "fuzz/model.onnx", {});
  if (!text.ok()) {
    if (text.status().message().empty()) {
      std::fprintf(stderr, "onnx_fuzzer: an error without a message\n");
      std::abort();
    }
    return 0;
  }
  static std::unique_ptr<mlir::MLIRContext> context = gevo::createContext();
  auto module = gevo::parseModule(*context, *text, "fuzz/model.onnx");
  if (!module.ok() || mlir::failed(mlir::verify(**module))) {
    std::fprintf(stderr, "onnx_fuzzer: an imported module does not %s\n%s\n",
                 module.ok() ? "verify" : "parse",
                 module.ok() ? ""
                             : std::string(module.status().message()).c_str());
    std::abort();
  }
  return 0;
}
