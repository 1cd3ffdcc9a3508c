//===- settings_table.h - Settings as rows: flag, JSON key, help, field ---===//
//
// A settings struct is described by one table: per field, its command-line
// flag, its key in JSON files, its help text, and how its value is written
// and read as flag text and as JSON (a codec, value_codecs.h). The JSON
// writer and reader below and the flags (settings_flags.h) are generated
// from the table, so that a setting is declared once: its field (with its
// one default), its row, and its line in the docs. A table of a nested
// struct is lifted into its parent's with appendNested(). No MLIR here.
//
//===----------------------------------------------------------------------===//
#ifndef GEVO_SUPPORT_SETTINGS_TABLE_H
#define GEVO_SUPPORT_SETTINGS_TABLE_H

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gevo/support/value_codecs.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"

namespace gevo {

/// What a row says about its setting, besides the field.
struct SettingDoc {
  /// The command-line flag without dashes; empty: no flag.
  std::string flag;
  /// The key in JSON files (run.json, the MPI ranks' setup); empty: not
  /// written.
  std::string key;
  /// What --help says (the default is appended).
  std::string help;
  /// How --help names the default when the field holds its struct's own
  /// default (e.g. "the workload's" for an empty list); empty: the value.
  std::string defaultNote = "";
  /// The flag may be given again when a saved run continues (--resume).
  bool resumable = false;
  /// A strict read (readSettings) accepts a JSON object without the key.
  bool optional = false;
};

/// One row of a table over `S`.
template <typename S> struct Setting {
  SettingDoc doc;
  /// Shown in --help as --flag=<valueName>.
  std::string valueName;
  /// The flag may stand alone (a boolean: --flag means true).
  bool isBool = false;
  std::function<absl::Status(llvm::StringRef text, S &settings)> parse;
  std::function<std::string(const S &settings)> show;
  std::function<llvm::json::Value(const S &settings)> write;
  std::function<absl::Status(const llvm::json::Value &value, S &settings)> read;
};

template <typename S> using SettingsTable = std::vector<Setting<S>>;

/// The row of the field `get` reaches (a generic lambda, `[](auto &s) ->
/// auto & { return s.field; }`), with `codec` for its text and JSON.
template <typename S, typename Get, typename Codec>
Setting<S> settingOf(Get get, SettingDoc doc, Codec codec) {
  Setting<S> row;
  row.doc = std::move(doc);
  row.valueName = codec.name;
  row.isBool = Codec::kIsBool;
  row.parse = [get, codec](llvm::StringRef text, S &s) {
    return codec.parse(text, get(s));
  };
  row.show = [get, codec](const S &s) { return codec.show(get(s)); };
  row.write = [get, codec](const S &s) { return codec.write(get(s)); };
  row.read = [get, codec](const llvm::json::Value &value, S &s) {
    return codec.read(value, get(s));
  };
  return row;
}

/// The row of the member `field` of `S`, with its type's usual codec.
template <typename S, typename T, typename Codec = DefaultCodec<T>>
Setting<S> setting(T S::*field, SettingDoc doc, Codec codec = Codec()) {
  return settingOf<S>([field](auto &s) -> auto & { return s.*field; },
                      std::move(doc), codec);
}

/// Appends the rows of `rows` (over `Child`) to `out`, reaching the child
/// through the member `field` of `Parent`.
template <typename Parent, typename Child>
void appendNested(SettingsTable<Parent> &out, const SettingsTable<Child> &rows,
                  Child Parent::*field) {
  for (const Setting<Child> &row : rows) {
    Setting<Parent> lifted;
    lifted.doc = row.doc;
    lifted.valueName = row.valueName;
    lifted.isBool = row.isBool;
    if (row.parse)
      lifted.parse = [f = row.parse, field](llvm::StringRef text, Parent &p) {
        return f(text, p.*field);
      };
    if (row.show)
      lifted.show = [f = row.show, field](const Parent &p) {
        return f(p.*field);
      };
    if (row.write)
      lifted.write = [f = row.write, field](const Parent &p) {
        return f(p.*field);
      };
    if (row.read)
      lifted.read = [f = row.read, field](const llvm::json::Value &value,
                                          Parent &p) {
        return f(value, p.*field);
      };
    out.push_back(std::move(lifted));
  }
}

/// Adds every row with a key to `object`.
template <typename S>
void writeSettings(const SettingsTable<S> &table, const S &settings,
                   llvm::json::Object &object) {
  for (const Setting<S> &row : table)
    if (!row.doc.key.empty() && row.write)
      object[row.doc.key] = row.write(settings);
}

/// Reads every row with a key from `object` into `settings`. A key that is
/// absent keeps the field's value, unless `strict` (and the row is not
/// optional): then the error names every key missing. A value of the wrong
/// kind is an error naming its key (also set in `badKey` when given).
template <typename S>
absl::Status readSettings(const SettingsTable<S> &table,
                          const llvm::json::Object &object, S &settings,
                          bool strict, std::string *badKey = nullptr) {
  std::string missing;
  for (const Setting<S> &row : table) {
    if (row.doc.key.empty() || !row.read)
      continue;
    const llvm::json::Value *value = object.get(row.doc.key);
    if (!value) {
      if (strict && !row.doc.optional)
        absl::StrAppend(&missing, missing.empty() ? "" : ", ", "\"",
                        row.doc.key, "\"");
      continue;
    }
    if (absl::Status read = row.read(*value, settings); !read.ok()) {
      if (badKey)
        *badKey = row.doc.key;
      return absl::InvalidArgumentError(
          absl::StrCat("\"", row.doc.key, "\": ", read.message()));
    }
  }
  if (!missing.empty())
    return absl::InvalidArgumentError(absl::StrCat("missing ", missing));
  return absl::OkStatus();
}

/// The row whose flag is `flag`, or null.
template <typename S>
const Setting<S> *findFlag(const SettingsTable<S> &table,
                           llvm::StringRef flag) {
  for (const Setting<S> &row : table)
    if (row.doc.flag == flag)
      return &row;
  return nullptr;
}

/// The table as Markdown rows (flag, JSON key, default as `defaults` holds
/// it, help), one per row: what docs list, so that a test can check them.
template <typename S>
std::string settingsMarkdown(const SettingsTable<S> &table, const S &defaults) {
  std::string text = "| flag | run.json key | default | what it does |\n"
                     "|---|---|---|---|\n";
  for (const Setting<S> &row : table) {
    std::string shown = row.show(defaults);
    if (!row.doc.defaultNote.empty() && shown == row.show(S()))
      shown = row.doc.defaultNote;
    else
      shown = shown.empty() ? "none" : absl::StrCat("`", shown, "`");
    absl::StrAppend(
        &text, "| ", row.doc.flag.empty() ? "" : "`--" + row.doc.flag + "`",
        " | ", row.doc.key.empty() ? "(not saved)" : "`" + row.doc.key + "`",
        " | ", shown, " | ", row.doc.help,
        row.doc.resumable ? "; may be given again with --resume" : "", " |\n");
  }
  return text;
}

} // namespace gevo

#endif // GEVO_SUPPORT_SETTINGS_TABLE_H
