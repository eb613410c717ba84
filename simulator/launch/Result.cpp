/// \file
/// Result JSON (SPEC "Result JSON"): writing with snake_case keys, omitting unknown optional
/// fields, and reading with type checks whose messages name the file and the key path.
#include "launch/Result.h"

#include "launch/JsonText.h"

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace warplens::launch {

using nlohmann::json;

namespace {

/// "file.json: launches[2]" + "sectors" → "file.json: launches[2].sectors"; "file.json" + "x" →
/// "file.json: x".
std::string keyPath(const std::string &where, const std::string &key) {
  if (where.empty()) return key;
  if (where.find(": ") == std::string::npos) return where + ": " + key;
  return where + "." + key;
}

Error typeError(const std::string &path, const std::string &expected) {
  return Error{path + ": expected " + expected};
}

json metricValue(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15) {
    if (v >= 0) return static_cast<std::uint64_t>(v);
    return static_cast<std::int64_t>(v);
  }
  return v;
}

/// Reads an optional non-negative integer; a missing key leaves `out` untouched.
template <class T>
Status readUnsigned(const json &obj, const char *key, const std::string &where, T &out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  const std::string path = keyPath(where, key);
  if (it->is_number_unsigned() ||
      (it->is_number_integer() && it->get<std::int64_t>() >= 0)) {
    std::uint64_t v = it->get<std::uint64_t>();
    if (v > std::numeric_limits<T>::max()) return typeError(path, "a smaller integer");
    out = static_cast<T>(v);
    return {};
  }
  if (it->is_number_float()) {
    double d = it->get<double>();
    if (d >= 0 && d == std::floor(d) && d <= static_cast<double>(std::numeric_limits<T>::max())) {
      out = static_cast<T>(d);
      return {};
    }
  }
  return typeError(path, "a non-negative integer");
}

Status readInt(const json &obj, const char *key, const std::string &where, int &out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  if (!it->is_number_integer()) return typeError(keyPath(where, key), "an integer");
  out = it->get<int>();
  return {};
}

Status readString(const json &obj, const char *key, const std::string &where, std::string &out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  if (!it->is_string()) return typeError(keyPath(where, key), "a string");
  out = it->get<std::string>();
  return {};
}

Status readDim3(const json &obj, const char *key, const std::string &where,
                std::array<std::uint32_t, 3> &out) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return {};
  const std::string path = keyPath(where, key);
  if (!it->is_array() || it->empty() || it->size() > 3)
    return typeError(path, "an array of 1 to 3 positive integers");
  std::array<std::uint32_t, 3> d{1, 1, 1};
  for (std::size_t i = 0; i < it->size(); ++i) {
    const json &e = (*it)[i];
    if (!e.is_number_integer() || e.get<std::int64_t>() <= 0 ||
        e.get<std::int64_t>() > std::numeric_limits<std::uint32_t>::max())
      return typeError(path + "[" + std::to_string(i) + "]", "a positive integer");
    d[i] = e.get<std::uint32_t>();
  }
  out = d;
  return {};
}

/// sass_pc: an integer, or a hex string ("0x00a0") as printed by disassemblers.
Status readPc(const json &obj, const std::string &where, std::optional<std::uint64_t> &out) {
  auto it = obj.find("sass_pc");
  if (it == obj.end() || it->is_null()) return {};
  const std::string path = keyPath(where, "sass_pc");
  if (it->is_number_unsigned() || (it->is_number_integer() && it->get<std::int64_t>() >= 0)) {
    out = it->get<std::uint64_t>();
    return {};
  }
  if (it->is_string()) {
    const std::string s = it->get<std::string>();
    try {
      std::size_t used = 0;
      std::uint64_t v = std::stoull(s, &used, 0);
      if (used == s.size()) {
        out = v;
        return {};
      }
    } catch (...) {
    }
  }
  return typeError(path, "a non-negative integer or hex string");
}

Expected<InstructionRecord> instructionFromJson(const json &j, const std::string &where) {
  if (!j.is_object()) return Error{where + ": expected an object"};
  InstructionRecord r;
  WL_CHECK(readPc(j, where, r.sassPc));
  WL_CHECK(readString(j, "sass", where, r.sass));
  WL_CHECK(readInt(j, "ptx_line", where, r.ptxLine));
  WL_CHECK(readString(j, "ptx", where, r.ptx));
  if (auto it = j.find("source"); it != j.end() && !it->is_null()) {
    const std::string path = keyPath(where, "source");
    if (!it->is_object()) return typeError(path, "an object {file, line}");
    WL_CHECK(readString(*it, "file", path, r.sourceFile));
    WL_CHECK(readInt(*it, "line", path, r.sourceLine));
  }
  WL_CHECK(readString(j, "space", where, r.space));
  WL_CHECK(readString(j, "op", where, r.op));
  WL_CHECK(readUnsigned(j, "width_bytes", where, r.widthBytes));
  WL_CHECK(readUnsigned(j, "executed", where, r.executed));
  WL_CHECK(readUnsigned(j, "threads", where, r.threads));
  WL_CHECK(readUnsigned(j, "requests", where, r.requests));
  WL_CHECK(readUnsigned(j, "sectors", where, r.sectors));
  WL_CHECK(readUnsigned(j, "sectors_ideal", where, r.sectorsIdeal));
  WL_CHECK(readUnsigned(j, "wavefronts", where, r.wavefronts));
  WL_CHECK(readUnsigned(j, "wavefronts_ideal", where, r.wavefrontsIdeal));
  r.wavefrontsConflictFree = r.wavefrontsIdeal;
  if (j.contains("wavefronts_conflict_free"))
    WL_CHECK(readUnsigned(j, "wavefronts_conflict_free", where, r.wavefrontsConflictFree));
  if (j.contains("wavefronts_hw")) WL_CHECK(readUnsigned(j, "wavefronts_hw", where, r.wavefrontsHw));
  WL_CHECK(readUnsigned(j, "conflict_ways_max", where, r.conflictWaysMax));
  if (auto it = j.find("copy_group"); it != j.end() && !it->is_null()) {
    std::uint32_t group = 0;
    WL_CHECK(readUnsigned(j, "copy_group", where, group));
    r.copyGroup = group;
  }
  return r;
}

} // namespace

json toJson(const InstructionRecord &r) {
  json j = json::object();
  if (r.sassPc) j["sass_pc"] = *r.sassPc;
  if (!r.sass.empty()) j["sass"] = r.sass;
  if (r.ptxLine >= 0) j["ptx_line"] = r.ptxLine;
  if (!r.ptx.empty()) j["ptx"] = r.ptx;
  if (!r.sourceFile.empty() || r.sourceLine >= 0) {
    json s = json::object();
    if (!r.sourceFile.empty()) s["file"] = r.sourceFile;
    if (r.sourceLine >= 0) s["line"] = r.sourceLine;
    j["source"] = s;
  }
  if (!r.space.empty()) j["space"] = r.space;
  if (!r.op.empty()) j["op"] = r.op;
  if (r.widthBytes) j["width_bytes"] = r.widthBytes;
  j["executed"] = r.executed;
  j["threads"] = r.threads;
  j["requests"] = r.requests;
  j["sectors"] = r.sectors;
  j["sectors_ideal"] = r.sectorsIdeal;
  j["wavefronts"] = r.wavefronts;
  j["wavefronts_ideal"] = r.wavefrontsIdeal;
  if (r.wavefrontsConflictFree && r.wavefrontsConflictFree != r.wavefrontsIdeal)
    j["wavefronts_conflict_free"] = r.wavefrontsConflictFree;
  if (r.wavefrontsHw && r.wavefrontsHw != r.wavefronts) {
    j["wavefronts_hw"] = r.wavefrontsHw;
    const std::uint64_t base = r.wavefrontsConflictFree ? r.wavefrontsConflictFree : r.wavefrontsIdeal;
    j["bank_conflicts_hw"] = r.wavefrontsHw > base ? r.wavefrontsHw - base : 0;
  }
  j["conflict_ways_max"] = r.conflictWaysMax;
  if (r.copyGroup) j["copy_group"] = *r.copyGroup;
  return j;
}

json toJson(const LaunchResult &r) {
  json j = json::object();
  j["name"] = r.name;
  if (!r.kernel.empty()) j["kernel"] = r.kernel;
  j["grid"] = r.grid;
  j["block"] = r.block;
  if (!r.arch.empty()) j["arch"] = r.arch;
  if (!r.device.empty()) j["device"] = r.device;
  if (!r.sassSource.empty()) j["sass_source"] = r.sassSource;
  if (!r.engine.empty()) j["engine"] = r.engine;
  if (!r.mode.empty()) j["mode"] = r.mode;
  if (!r.sampling.is_null()) j["sampling"] = r.sampling;
  json m = json::object();
  for (const auto &[k, v] : r.metrics) m[k] = metricValue(v);
  j["metrics"] = m;
  json ins = json::array();
  for (const auto &i : r.instructions) ins.push_back(toJson(i));
  j["instructions"] = ins;
  if (r.checkPassed) {
    json c = json::object();
    c["passed"] = *r.checkPassed;
    if (!r.checkDetail.empty()) c["detail"] = r.checkDetail;
    j["check"] = c;
  }
  if (!r.notes.empty()) j["notes"] = r.notes;
  if (!r.error.empty()) j["error"] = r.error;
  if (!r.time.is_null()) j["time"] = r.time;
  return j;
}

json toJson(const std::vector<LaunchResult> &results) {
  json arr = json::array();
  for (const auto &r : results) arr.push_back(toJson(r));
  return json{{"launches", arr}};
}

Expected<LaunchResult> launchResultFromJson(const json &j, const std::string &where) {
  if (!j.is_object()) return Error{where + ": expected a launch object"};
  LaunchResult r;
  auto nameIt = j.find("name");
  if (nameIt == j.end()) return Error{keyPath(where, "name") + ": missing (every launch needs one)"};
  WL_CHECK(readString(j, "name", where, r.name));
  WL_CHECK(readString(j, "kernel", where, r.kernel));
  WL_CHECK(readDim3(j, "grid", where, r.grid));
  WL_CHECK(readDim3(j, "block", where, r.block));
  WL_CHECK(readString(j, "arch", where, r.arch));
  WL_CHECK(readString(j, "device", where, r.device));
  WL_CHECK(readString(j, "sass_source", where, r.sassSource));
  WL_CHECK(readString(j, "engine", where, r.engine));
  WL_CHECK(readString(j, "mode", where, r.mode));
  if (auto it = j.find("metrics"); it != j.end() && !it->is_null()) {
    const std::string path = keyPath(where, "metrics");
    if (!it->is_object()) return typeError(path, "an object of metric name → number");
    for (auto m = it->begin(); m != it->end(); ++m) {
      if (!m.value().is_number())
        return typeError(path + "." + m.key(), "a number");
      r.metrics[m.key()] = m.value().get<double>();
    }
  }
  if (auto it = j.find("instructions"); it != j.end() && !it->is_null()) {
    const std::string path = keyPath(where, "instructions");
    if (!it->is_array()) return typeError(path, "an array of instruction records");
    for (std::size_t i = 0; i < it->size(); ++i) {
      WL_TRY(rec, instructionFromJson((*it)[i], path + "[" + std::to_string(i) + "]"));
      r.instructions.push_back(std::move(rec));
    }
  }
  if (auto it = j.find("check"); it != j.end() && !it->is_null()) {
    const std::string path = keyPath(where, "check");
    if (!it->is_object()) return typeError(path, "an object {passed, detail}");
    if (auto p = it->find("passed"); p != it->end() && !p->is_null()) {
      if (!p->is_boolean()) return typeError(path + ".passed", "true or false");
      r.checkPassed = p->get<bool>();
    }
    WL_CHECK(readString(*it, "detail", path, r.checkDetail));
  }
  if (auto it = j.find("sampling"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) return typeError(keyPath(where, "sampling"), "an object");
    r.sampling = *it;
  }
  if (auto it = j.find("time"); it != j.end() && !it->is_null()) {
    if (!it->is_object()) return typeError(keyPath(where, "time"), "an object");
    r.time = *it;
  }
  if (auto it = j.find("notes"); it != j.end() && !it->is_null()) {
    const std::string path = keyPath(where, "notes");
    if (!it->is_array()) return typeError(path, "an array of strings");
    for (std::size_t i = 0; i < it->size(); ++i) {
      if (!(*it)[i].is_string())
        return typeError(path + "[" + std::to_string(i) + "]", "a string");
      r.notes.push_back((*it)[i].get<std::string>());
    }
  }
  WL_CHECK(readString(j, "error", where, r.error));
  return r;
}

Expected<std::vector<LaunchResult>> resultsFromJson(const json &j, const std::string &file) {
  std::vector<LaunchResult> out;
  if (j.is_object() && j.contains("launches")) {
    const json &arr = j["launches"];
    if (!arr.is_array()) return Error{file + ": launches: expected an array of launch results"};
    for (std::size_t i = 0; i < arr.size(); ++i) {
      WL_TRY(r, launchResultFromJson(arr[i], file + ": launches[" + std::to_string(i) + "]"));
      out.push_back(std::move(r));
    }
    return out;
  }
  if (j.is_object()) {
    WL_TRY(r, launchResultFromJson(j, file));
    out.push_back(std::move(r));
    return out;
  }
  return Error{file + ": expected {\"launches\": [...]} or one launch object"};
}

Expected<std::vector<LaunchResult>> loadResults(const std::string &path) {
  std::ifstream in(path);
  if (!in) return Error{path + ": cannot open"};
  std::stringstream ss;
  ss << in.rdbuf();
  WL_TRY(j, parseJsonText(ss.str(), path)); // bounded depth and size (launch/JsonText.h)
  return resultsFromJson(j, path);
}

} // namespace warplens::launch
