//===- training_subject.cc - The training workload, for JIT tests ---------===//

#include "gevo/eval/training_subject.h"

#include "gevo/eval/workload/bindings.h"
#include "gevo/ir/frontend.h"
#include "gevo/ir/mlir_support.h"
#include "gevo/support/tool_paths.h"
#include "gtest/gtest.h"

namespace gevo {

void loadTrainingSubject(TrainingSubject &s) {
  s.context = createContext();
  auto spec = loadWorkloadSpec(findRunfile("testdata/digits_mlp_train"));
  ASSERT_TRUE(spec.ok()) << spec.status();
  s.spec = *spec;
  auto data = loadWorkloadData(s.spec);
  ASSERT_TRUE(data.ok()) << data.status();
  s.arguments = bindArguments(s.spec, *data, SplitRole::Validation);
  auto module = loadLinalgModule(*s.context, s.spec.modulePath);
  ASSERT_TRUE(module.ok()) << module.status();
  s.module = std::move(*module);
  auto signature = readEntrySignature(*s.module, s.spec.entry);
  ASSERT_TRUE(signature.ok()) << signature.status();
  s.signature = *signature;
}

void expectSameResults(const std::vector<HostTensor> &got,
                       const std::vector<HostTensor> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t r = 0; r < got.size(); ++r) {
    ASSERT_EQ(got[r].shape, want[r].shape);
    for (int64_t i = 0; i < got[r].numElements(); ++i)
      ASSERT_EQ(got[r].at(i), want[r].at(i)) << "result #" << r << " at " << i;
  }
}

} // namespace gevo
