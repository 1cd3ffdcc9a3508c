//===- backend_test.h - Run one test of the ONNX backend test suite -------===//
//
// A test of the suite (Debian's libonnx-testdata) is a folder with model.onnx
// and test_data_set_N/{input,output}_K.pb. Running one imports the model,
// compiles it through the evaluator's CPU Target (makeTarget), feeds it
// each data set's inputs and compares every output with the reference
// (float: |got - want| <= atol + rtol * |want|).
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_FRONTEND_BACKEND_TEST_H
#define GEVO_FRONTEND_BACKEND_TEST_H

#include <string>
#include <vector>

namespace gevo {

struct BackendTestResult {
  enum class Kind { Passed, Failed, OutOfScope };
  Kind kind = Kind::Failed;
  /// The ONNX op types of the model's graph, sorted, each once.
  std::vector<std::string> opTypes;
  /// Why it failed or is out of scope (the importer's one line).
  std::string detail;
  /// The largest |got - want| over every compared element.
  double maxError = 0;
};

struct Tolerance {
  double relative = 1e-3;
  double absolute = 1e-5;
};

/// Runs the test in `directory`. Never throws or aborts on bad input; a
/// model whose code crashes takes the process with it, so a bench runs each
/// test in a child.
BackendTestResult runBackendTest(const std::string &directory,
                                 const Tolerance &tolerance = {});

const char *toString(BackendTestResult::Kind kind);

} // namespace gevo

#endif // GEVO_FRONTEND_BACKEND_TEST_H
