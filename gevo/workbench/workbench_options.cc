//===- workbench_options.cc - What a workbench measures with --------------===//

#include "gevo/workbench/workbench_options.h"

#include "gevo/eval/evaluation_options_json.h"

namespace gevo {

const SettingsTable<WorkbenchOptions> &workbenchSettings() {
  using W = WorkbenchOptions;
  static const SettingsTable<W> table = [] {
    SettingsTable<W> rows = {
        setting(&W::workers,
                {"workers", "workers",
                 "Variants evaluated at once, each in its own process",
                 "one per core",
                 /*resumable=*/true}),
        setting(&W::timeoutSeconds,
                {"timeout", "timeout_s", "Time limit per variant, e.g. 5s",
                 "5x the unmodified program's compile and run time, at least "
                 "2 s"},
                DurationCodec{"duration", /*emptyIsZero=*/true}),
        setting(&W::memoryBytes,
                {"memory-limit", "memory_bytes",
                 "Memory a variant may allocate, e.g. 512M, 4G"},
                ByteSizeCodec()),
    };
    appendNested(rows, evaluationSettings(), &W::evaluation);
    return rows;
  }();
  return table;
}

} // namespace gevo
