//===- workload_fuzzer.cc - libFuzzer target: workload spec parsing -------===//
//
// Feeds arbitrary bytes to parseWorkloadSpec (the JSON of a workload.json).
// What must hold for any input: no crash, no memory error (AddressSanitizer
// in the fuzz build), and an error that says something. Built as a fuzzer
// with `--config=fuzz`; the normal build links it with
// //replay/fuzz:corpus_main, which runs it over the repository's specs.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gevo/eval/workload/workload.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > (1 << 14))
    return 0;
  std::string text(reinterpret_cast<const char *>(data), size);
  absl::StatusOr<gevo::WorkloadSpec> spec =
      gevo::parseWorkloadSpec(text, "fuzz/workload.json");
  if (!spec.ok() && spec.status().message().empty()) {
    std::fprintf(stderr, "workload_fuzzer: an error without a message\n");
    std::abort();
  }
  return 0;
}
