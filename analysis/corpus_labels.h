//===- corpus_labels.h - Checking labels against a hand-labelled corpus ---===//
//
// A corpus file (analysis/testdata/corpus*/NAME.labels) names a workload
// (whose entry and data bindings apply), optionally a module (a file in its
// folder, or a path from the repository root; default: the workload's own),
// and edits each followed by the label a person gives them:
//   workload testdata/digits_mlp_train
//   module while_calls_mlp.mlir
//   edit constant @main/arith.constant#5~ceb55d84 = 1
//   kind initialisation change
//   says layer 2 initial scale 0.177 -> 1
//
//===----------------------------------------------------------------------===//
#ifndef ANALYSIS_CORPUS_LABELS_H
#define ANALYSIS_CORPUS_LABELS_H

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace gevo {

struct CorpusVerdict {
  std::string file;
  int line = 0;
  std::string edit;
  std::string expected; // "kind; says ...; says ..."
  std::string got;      // "kind: summary"
  std::string path;     // the label's data-flow path
  std::string roles;    // the roles the label gives the edited ops
  bool matches = false;
};

/// Labels every edit of the corpus file at `path` (each alone on the
/// unmodified module) and compares with the expected label; an error for a
/// malformed file, a module that does not load or an edit that does not
/// apply (with file:line).
absl::StatusOr<std::vector<CorpusVerdict>>
checkCorpusFile(const std::string &path);

/// Every *.labels file under `directory`, checked.
absl::StatusOr<std::vector<CorpusVerdict>>
checkCorpusDirectory(const std::string &directory);

} // namespace gevo

#endif // ANALYSIS_CORPUS_LABELS_H
