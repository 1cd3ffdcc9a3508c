//===- settings_flags.h - A settings table's rows as llvm::cl flags -------===//
//
// Registers one command-line flag per row of a settings table (all rows
// with a flag, or the ones named), explained by the row's help and the
// default taken from a settings value, and sets the fields of the flags a
// user gave. Flags hold no defaults of their own: a field keeps its value
// unless its flag is given. Tools (//gevo:search, the benchmarks) share the
// search's table this way instead of declaring flags again. No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_SETTINGS_FLAGS_H
#define GEVO_SUPPORT_SETTINGS_FLAGS_H

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gevo/support/settings_table.h"
#include "llvm/Support/CommandLine.h"

namespace gevo {

template <typename S> class SettingFlags {
public:
  /// Registers the flags of `table`'s rows (those named in `only`, in that
  /// order, when it is not empty) in `category`; --help names the default
  /// as `defaults` holds it. `table` must outlive this.
  SettingFlags(const SettingsTable<S> &table, const S &defaults,
               llvm::cl::OptionCategory &category,
               const std::vector<std::string> &only = {}) {
    if (only.empty()) {
      for (const Setting<S> &row : table)
        if (!row.doc.flag.empty())
          add(row, defaults, category);
      return;
    }
    for (const std::string &name : only)
      if (const Setting<S> *row = findFlag(table, name))
        add(*row, defaults, category);
  }

  /// Sets the fields of the flags given on the command line, in table
  /// order (only the resumable ones when `resumableOnly`); the error names
  /// the flag.
  absl::Status apply(S &settings, bool resumableOnly = false) const {
    for (const Flag &flag : flags) {
      if (!flag.option->getNumOccurrences() ||
          (resumableOnly && !flag.row->doc.resumable))
        continue;
      absl::Status parsed = flag.row->parse(flag.option->getValue(), settings);
      if (!parsed.ok())
        return absl::InvalidArgumentError(
            absl::StrCat("--", flag.row->doc.flag, ": ", parsed.message()));
    }
    return absl::OkStatus();
  }

  /// Whether `flag` (one of these) was given.
  bool given(llvm::StringRef flag) const {
    for (const Flag &f : flags)
      if (f.row->doc.flag == flag)
        return f.option->getNumOccurrences() > 0;
    return false;
  }

private:
  struct Flag {
    const Setting<S> *row;
    std::unique_ptr<std::string> help;
    std::unique_ptr<llvm::cl::opt<std::string>> option;
  };

  void add(const Setting<S> &row, const S &defaults,
           llvm::cl::OptionCategory &category) {
    Flag flag;
    flag.row = &row;
    std::string shown = row.show(defaults);
    if (!row.doc.defaultNote.empty() && shown == row.show(S()))
      shown = row.doc.defaultNote;
    else if (shown.empty())
      shown = "none";
    flag.help = std::make_unique<std::string>(
        absl::StrCat(row.doc.help, " (default: ", shown, ")"));
    flag.option = std::make_unique<llvm::cl::opt<std::string>>(
        llvm::StringRef(row.doc.flag), llvm::cl::desc(*flag.help),
        llvm::cl::value_desc(row.valueName), llvm::cl::cat(category),
        row.isBool ? llvm::cl::ValueOptional : llvm::cl::ValueRequired);
    flags.push_back(std::move(flag));
  }

  std::vector<Flag> flags;
};

} // namespace gevo

#endif // GEVO_SUPPORT_SETTINGS_FLAGS_H
