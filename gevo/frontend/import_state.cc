//===- import_state.cc - What an ONNX import knows while it walks the graph
//===//

#include "gevo/frontend/import_state.h"

#include <cstring>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace gevo {

int64_t numElements(const Shape &shape) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

bool withinImportLimit(const Shape &shape) {
  int64_t count = 1;
  for (int64_t size : shape) {
    if (size < 0 || size > kMaxImportElements)
      return false;
    if (size > 0 && count > kMaxImportElements / size)
      return false;
    count *= size;
  }
  return true;
}

std::string tensorType(const Shape &shape, const char *element) {
  if (shape.empty())
    return absl::StrCat("tensor<", element, ">");
  return absl::StrCat("tensor<", absl::StrJoin(shape, "x"), "x", element, ">");
}

std::string escapeForMlir(const std::string &text) {
  std::string out;
  for (unsigned char c : text) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
      out += static_cast<char>(c);
    else
      absl::StrAppendFormat(&out, "\\%02X", c);
  }
  return out;
}

std::string floatLiteral(float value) {
  if (value != value || value == 1.0f / 0.0f || value == -1.0f / 0.0f) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return absl::StrFormat("0x%08X", bits);
  }
  return absl::StrFormat("%.9e", value);
}

absl::Status ImportState::error(const std::string &what) const {
  if (!current)
    return absl::InvalidArgumentError(absl::StrCat(file, ": ", what));
  return absl::InvalidArgumentError(
      absl::StrCat(file, ": node '", current->name(), "' (", current->op_type(),
                   ", opset ", opsetVersion, "): ", what));
}

TensorValue *ImportState::find(const std::string &name) {
  auto found = values.find(name);
  return found == values.end() ? nullptr : &found->second;
}

TensorValue *ImportState::optionalInput(int index) {
  if (index >= current->input_size() || current->input(index).empty())
    return nullptr;
  return find(current->input(index));
}

absl::StatusOr<TensorValue *> ImportState::input(int index) {
  if (index >= current->input_size() || current->input(index).empty())
    return error(absl::StrCat("input ", index, " is missing"));
  TensorValue *value = find(current->input(index));
  if (!value)
    return error(absl::StrCat("input '", current->input(index),
                              "' is not defined by any earlier node"));
  return value;
}

absl::StatusOr<std::vector<int64_t>> ImportState::knownInts(int index) {
  absl::StatusOr<TensorValue *> value = input(index);
  if (!value.ok())
    return value.status();
  if ((*value)->ints)
    return *(*value)->ints;
  return error(absl::StrCat("input ", index,
                            " must be an integer tensor known at import time "
                            "(an initializer or a Constant)"));
}

absl::StatusOr<std::vector<float>> ImportState::knownFloats(int index) {
  absl::StatusOr<TensorValue *> value = input(index);
  if (!value.ok())
    return value.status();
  if ((*value)->floats)
    return *(*value)->floats;
  if ((*value)->ints)
    return std::vector<float>((*value)->ints->begin(), (*value)->ints->end());
  return error(absl::StrCat("input ", index,
                            " must be known at import time (an initializer "
                            "or a Constant)"));
}

absl::StatusOr<int64_t> ImportState::axis(int64_t axis, int64_t rank) const {
  if (axis < -rank || axis >= rank)
    return error(absl::StrCat("axis ", axis, " is out of range"));
  return axis < 0 ? axis + rank : axis;
}

std::string ImportState::fresh() { return absl::StrCat("%v", counter++); }

void ImportState::emit(const std::string &op) {
  std::string name = current ? current->name() : "";
  if (name.empty() && current && current->output_size() > 0)
    name = current->output(0);
  absl::StrAppend(&body, "    ", op, " loc(\"", escapeForMlir(name), "\")\n");
}

void ImportState::emitRaw(const std::string &line) {
  absl::StrAppend(&body, "    ", line, "\n");
}

namespace {

/// The constant's attribute text: a splat, or the elements as hex bytes.
template <typename T>
std::string denseLiteral(const std::vector<T> &data, std::string (*format)(T)) {
  bool splat = !data.empty();
  for (const T &element : data)
    splat = splat && std::memcmp(&element, &data[0], sizeof(T)) == 0;
  if (splat)
    return absl::StrCat("dense<", format(data[0]), ">");
  std::string hex = "dense<\"0x";
  const auto *bytes = reinterpret_cast<const unsigned char *>(data.data());
  for (size_t i = 0; i < data.size() * sizeof(T); ++i)
    absl::StrAppendFormat(&hex, "%02X", bytes[i]);
  return hex + "\">";
}

std::string formatFloat(float value) { return floatLiteral(value); }
std::string formatInt(int64_t value) { return absl::StrCat(value); }

} // namespace

std::string ImportState::use(TensorValue &value) {
  if (!value.ssa.empty())
    return value.ssa;
  value.ssa = fresh();
  std::string literal = value.floats
                            ? denseLiteral<float>(*value.floats, formatFloat)
                            : denseLiteral<int64_t>(*value.ints, formatInt);
  emit(absl::StrCat(value.ssa, " = arith.constant ", literal, " : ",
                    tensorType(value.shape, value.floats ? "f32" : "i64")));
  return value.ssa;
}

void ImportState::define(int index, TensorValue value) {
  if (index < current->output_size() && !current->output(index).empty())
    values[current->output(index)] = std::move(value);
}

absl::Status ImportState::defineResult(Shape shape, std::string ssa) {
  TensorValue value;
  value.shape = std::move(shape);
  value.ssa = std::move(ssa);
  define(0, std::move(value));
  return absl::OkStatus();
}

const onnx::AttributeProto *ImportState::attr(const std::string &name) const {
  for (const onnx::AttributeProto &attribute : current->attribute())
    if (attribute.name() == name)
      return &attribute;
  return nullptr;
}

bool ImportState::hasAttr(const std::string &name) const {
  return attr(name) != nullptr;
}

int64_t ImportState::intAttr(const std::string &name, int64_t otherwise) const {
  const onnx::AttributeProto *found = attr(name);
  return found ? found->i() : otherwise;
}

float ImportState::floatAttr(const std::string &name, float otherwise) const {
  const onnx::AttributeProto *found = attr(name);
  return found ? found->f() : otherwise;
}

std::vector<int64_t> ImportState::intsAttr(const std::string &name) const {
  const onnx::AttributeProto *found = attr(name);
  if (!found)
    return {};
  return {found->ints().begin(), found->ints().end()};
}

namespace {

absl::StatusOr<std::string> externalBytes(const onnx::TensorProto &tensor,
                                          const std::string &directory) {
  std::string location;
  int64_t offset = 0, length = -1;
  for (const onnx::StringStringEntryProto &entry : tensor.external_data()) {
    if (entry.key() == "location")
      location = entry.value();
    else if (entry.key() == "offset")
      offset = std::stoll(entry.value());
    else if (entry.key() == "length")
      length = std::stoll(entry.value());
  }
  std::string path = directory.empty() ? location : directory + "/" + location;
  std::ifstream in(path, std::ios::binary);
  if (location.empty() || !in)
    return absl::InvalidArgumentError(absl::StrCat("tensor '", tensor.name(),
                                                   "': external data file '",
                                                   path, "' cannot be read"));
  std::stringstream all;
  all << in.rdbuf();
  std::string bytes = all.str();
  if (offset > static_cast<int64_t>(bytes.size()))
    return absl::InvalidArgumentError(absl::StrCat(
        "tensor '", tensor.name(), "': external data offset past its file"));
  return bytes.substr(offset, length < 0 ? std::string::npos : length);
}

template <typename T>
absl::StatusOr<std::vector<T>> fromRaw(const std::string &raw, int64_t count,
                                       const std::string &name) {
  if (static_cast<int64_t>(raw.size()) !=
      count * static_cast<int64_t>(sizeof(T)))
    return absl::InvalidArgumentError(absl::StrCat("tensor '", name, "' holds ",
                                                   raw.size(), " bytes, not ",
                                                   count * sizeof(T)));
  std::vector<T> data(count);
  std::memcpy(data.data(), raw.data(), raw.size());
  return data;
}

/// The tensor's elements, from its raw bytes (stored as `Stored`) when
/// `raw` is given, else from its typed field, converted to `Out`.
template <typename Stored, typename Out, typename Field>
absl::StatusOr<std::vector<Out>> elements(const std::string *raw,
                                          const Field &field, int64_t count,
                                          const std::string &name) {
  if (raw) {
    absl::StatusOr<std::vector<Stored>> data =
        fromRaw<Stored>(*raw, count, name);
    if (!data.ok())
      return data.status();
    return std::vector<Out>(data->begin(), data->end());
  }
  if (field.size() != count)
    return absl::InvalidArgumentError(absl::StrCat(
        "tensor '", name, "' holds ", field.size(), " values, not ", count));
  return std::vector<Out>(field.begin(), field.end());
}

/// Stores `data` (or its error) in `slot`.
template <typename T>
absl::Status store(absl::StatusOr<std::vector<T>> data,
                   std::optional<std::vector<T>> &slot) {
  if (!data.ok())
    return data.status();
  slot = std::move(*data);
  return absl::OkStatus();
}

} // namespace

absl::StatusOr<TensorValue> decodeTensor(const onnx::TensorProto &tensor,
                                         const std::string &directory) {
  TensorValue value;
  for (int64_t size : tensor.dims()) {
    if (size < 0)
      return absl::InvalidArgumentError(
          absl::StrCat("tensor '", tensor.name(), "' has a negative size"));
    value.shape.push_back(size);
  }
  if (!withinImportLimit(value.shape))
    return absl::InvalidArgumentError(
        absl::StrCat("tensor '", tensor.name(), "' is too large"));
  int64_t count = numElements(value.shape);
  std::string external;
  const std::string *raw = tensor.has_raw_data() ? &tensor.raw_data() : nullptr;
  if (tensor.data_location() == onnx::TensorProto::EXTERNAL) {
    absl::StatusOr<std::string> bytes = externalBytes(tensor, directory);
    if (!bytes.ok())
      return bytes.status();
    external = std::move(*bytes);
    raw = &external;
  }
  const std::string &name = tensor.name();
  absl::Status status;
  switch (tensor.data_type()) {
  case onnx::TensorProto::FLOAT:
    status =
        store(elements<float, float>(raw, tensor.float_data(), count, name),
              value.floats);
    break;
  case onnx::TensorProto::DOUBLE:
    status =
        store(elements<double, float>(raw, tensor.double_data(), count, name),
              value.floats);
    break;
  case onnx::TensorProto::INT64:
    status =
        store(elements<int64_t, int64_t>(raw, tensor.int64_data(), count, name),
              value.ints);
    break;
  case onnx::TensorProto::INT32:
    status =
        store(elements<int32_t, int64_t>(raw, tensor.int32_data(), count, name),
              value.ints);
    break;
  default:
    return absl::InvalidArgumentError(absl::StrCat(
        "tensor '", name, "' has element type ",
        onnx::TensorProto::DataType_Name(
            static_cast<onnx::TensorProto::DataType>(tensor.data_type())),
        ", which the importer does not read"));
  }
  if (!status.ok())
    return status;
  value.isInteger = value.ints.has_value();
  return value;
}

} // namespace gevo
