//===- tool_pipeline.cc - A variant run as mlir-opt | mlir-runner --------===//

#include "gevo/bench/tool_pipeline.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "gevo/eval/harness.h"
#include "gevo/support/stopwatch.h"

namespace gevo {
namespace {

std::string hexOf(const HostTensor &tensor) {
  static const char digits[] = "0123456789ABCDEF";
  const auto *bytes = static_cast<const unsigned char *>(tensor.data());
  size_t n = tensor.numElements() * byteWidth(tensor.type);
  std::string out = "0x";
  out.reserve(2 + 2 * n);
  for (size_t i = 0; i < n; ++i) {
    out += digits[bytes[i] >> 4];
    out += digits[bytes[i] & 15];
  }
  return out;
}

/// Every number after "data =" in printMemrefF32's output.
HostTensor parseLogits(const std::string &output, int64_t rows,
                       int64_t classes) {
  HostTensor tensor(ElementType::F32, {0, classes});
  size_t start = output.find("data =");
  if (start == std::string::npos)
    return tensor;
  std::vector<float> values;
  const char *p = output.c_str() + start + 6;
  while (*p) {
    if (*p == '-' || *p == '+' || *p == '.' || (*p >= '0' && *p <= '9') ||
        *p == 'n' || *p == 'i') {
      char *end = nullptr;
      float v = std::strtof(p, &end);
      if (end == p) {
        ++p;
        continue;
      }
      values.push_back(v);
      p = end;
    } else {
      ++p;
    }
  }
  if (static_cast<int64_t>(values.size()) != rows * classes)
    return tensor;
  tensor = HostTensor(ElementType::F32, {rows, classes});
  std::copy(values.begin(), values.end(), tensor.as<float>());
  return tensor;
}

} // namespace

/// The variant with a no-argument entry that builds the data as constants,
/// calls the workload's entry and prints the logits.
std::string naiveProgram(const std::string &variantText,
                         const WorkloadSpec &spec,
                         const std::vector<HostTensor> &arguments,
                         const std::string &resultType) {
  std::string wrapper = "  func.func private @printMemrefF32(memref<*xf32>)\n"
                        "  func.func @gevo_bench_entry() {\n";
  std::string names, types;
  for (size_t i = 0; i < arguments.size(); ++i) {
    std::string type = arguments[i].typeString();
    absl::StrAppend(&wrapper, "    %a", i, " = arith.constant dense<\"",
                    hexOf(arguments[i]), "\"> : ", type, "\n");
    absl::StrAppend(&names, i ? ", " : "", "%a", i);
    absl::StrAppend(&types, i ? ", " : "", type);
  }
  std::string memrefType = "memref" + resultType.substr(6);
  absl::StrAppend(&wrapper, "    %r = call @", spec.entry, "(", names, ") : (",
                  types, ") -> ", resultType, "\n",
                  "    %m = bufferization.to_buffer %r : ", resultType, " to ",
                  memrefType, "\n", "    %u = memref.cast %m : ", memrefType,
                  " to memref<*xf32>\n",
                  "    call @printMemrefF32(%u) : (memref<*xf32>) -> ()\n",
                  "    return\n  }\n");
  size_t end = variantText.rfind('}');
  return variantText.substr(0, end) + wrapper + "}\n";
}

NaiveResult runNaive(const ToolPaths &tools, const std::string &program,
                     const std::string &dir, const std::string &pipeline,
                     const Dataset &validation) {
  NaiveResult result;
  std::string input = dir + "/naive_variant.mlir";
  std::string output = dir + "/naive_output.txt";
  {
    std::ofstream out(input);
    out << program;
  }
  std::string command =
      absl::StrCat(tools.mlirOpt, " --pass-pipeline='builtin.module(", pipeline,
                   ")' ", input, " 2>/dev/null | ", tools.mlirRunner,
                   " -e gevo_bench_entry -entry-point-result=void -O2 "
                   "-shared-libs=/usr/lib/llvm-22/lib/libmlir_runner_utils.so,"
                   "/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so > ",
                   output, " 2>/dev/null");
  auto start = SteadyClock::now();
  int status = std::system(command.c_str());
  result.ms = millisecondsSince(start);
  std::ifstream in(output);
  std::stringstream text;
  text << in.rdbuf();
  HostTensor logits =
      parseLogits(text.str(), validation.size(), validation.numClasses);
  absl::StatusOr<ClassificationScore> score =
      scoreLogits(logits, validation.labels, validation.numClasses);
  result.ok = status == 0 && score.ok() && score->nonFiniteRows == 0;
  if (score.ok())
    result.accuracy = score->accuracy();
  return result;
}

} // namespace gevo
