//===- parsing_fixture.h - replay's tests: modules parsed from text -------===//
//
// For tests only: a gtest fixture with a fresh MLIR context and parse(),
// which fails the test on text that does not parse, and readRunfile() for
// the shipped workloads' models.
//
//===----------------------------------------------------------------------===//
#ifndef REPLAY_PARSING_FIXTURE_H
#define REPLAY_PARSING_FIXTURE_H

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "gevo/ir/mlir_support.h"
#include "gevo/support/tool_paths.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

namespace gevo {

/// The whole text of a runfile (testdata/...).
inline std::string readRunfile(const std::string &path) {
  std::ifstream in(findRunfile(path));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// `Base` is ::testing::Test or a TestWithParam<...>.
template <typename Base = ::testing::Test> class ParsingFixture : public Base {
protected:
  std::unique_ptr<mlir::MLIRContext> context = createContext();

  mlir::OwningOpRef<mlir::ModuleOp>
  parse(const std::string &text, const std::string &name = "model.mlir") {
    auto module = parseModule(*context, text, name);
    EXPECT_TRUE(module.ok()) << module.status();
    return module.ok() ? std::move(*module) : nullptr;
  }
};

} // namespace gevo

#endif // REPLAY_PARSING_FIXTURE_H
