/// \file
/// Loads architecture data files: parses the JSON, checks every key against the schema (errors
/// name the file and key), resolves "inherits" by deep-merging parent then child, and fills ArchSpec.
#include "arch/ArchSpec.h"

#include "arch/EmbeddedArchData.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

namespace warplens::arch {
namespace {

using json = nlohmann::json;

enum class Kind { UInt, Bool, Str, UIntList };

/// One leaf key of the schema. `pow2` asks for a power of two; a UIntList's min/max bound each
/// element.
struct FieldRule {
  std::string path;
  Kind kind;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  bool pow2 = false;
  bool required = true; ///< must be present after inheritance is resolved
};

constexpr std::uint64_t kBig = std::uint64_t(1) << 40;

const unsigned kSharedWidths[] = {1, 2, 4, 8, 16};
/// Op-specific overrides of a width's shared rule: "shared.rules.<w>.<op>.<field>".
const std::pair<const char *, SharedOp> kSharedOps[] = {{"ld", SharedOp::Load},
                                                        {"st", SharedOp::Store}};

/// Fields of one shared rule object; `base` rules must set lanesPerPhase and mergeAcrossPhases.
void addSharedRuleFields(std::vector<FieldRule> &out, const std::string &prefix, bool base) {
  out.push_back({prefix + ".lanesPerPhase", Kind::UInt, 1, 32, false, base});
  out.push_back({prefix + ".mergeAcrossPhases", Kind::Bool, 0, 0, false, base});
  out.push_back({prefix + ".packedLanesPerPhase", Kind::UInt, 0, 32, false, false});
  out.push_back({prefix + ".packLaneXors", Kind::UIntList, 1, 31, false, false});
  out.push_back({prefix + ".sourceView.packPerPhase", Kind::Bool, 0, 0, false, false});
  out.push_back({prefix + ".sourceView.packOnlyConflictFree", Kind::Bool, 0, 0, false, false});
  out.push_back({prefix + ".sourceView.warpMergeMaxLanes", Kind::UInt, 0, 32, false, false});
  out.push_back({prefix + ".sourceView.warpMergeLaneXor", Kind::UInt, 0, 31, false, false});
  out.push_back({prefix + ".sourceView.broadcastLanesPerWavefront", Kind::UInt, 0, 32, false, false});
  out.push_back({prefix + ".sourceView.strictPairPhases", Kind::UIntList, 0, 31, false, false});
  out.push_back({prefix + ".sourceView.pairFreePhases", Kind::UIntList, 0, 31, false, false});
  out.push_back({prefix + ".sourceView.pairFreeWhenLaneInactive", Kind::UInt, 0, 31, false, false});
  out.push_back({prefix + ".sourceView.source", Kind::Str, 0, 0, false, false});
}

const std::vector<FieldRule> &fields() {
  static const std::vector<FieldRule> all = [] {
    std::vector<FieldRule> f = {
        {"name", Kind::Str},
        {"inherits", Kind::Str, 0, 0, false, false},
        {"description", Kind::Str},
        {"notes", Kind::Str, 0, 0, false, false},
        {"warp.size", Kind::UInt, 32, 32},
        {"warp.source", Kind::Str},
        {"global.sectorBytes", Kind::UInt, 16, 64, true},
        {"global.lineBytes", Kind::UInt, 16, 128, true},
        {"global.idealCountsDuplicateBytes", Kind::Bool},
        {"global.source", Kind::Str},
        {"shared.banks", Kind::UInt, 1, 64, true},
        {"shared.bankWidthBytes", Kind::UInt, 4, 16, true},
        {"shared.idealCountsDuplicateBytes", Kind::Bool, 0, 0, false, false},
    };
    for (unsigned w : kSharedWidths) {
      const std::string rule = "shared.rules." + std::to_string(w);
      addSharedRuleFields(f, rule, true);
      for (const auto &[op, _] : kSharedOps) addSharedRuleFields(f, rule + "." + op, false);
    }
    f.push_back({"shared.source", Kind::Str});
    f.push_back({"capacity.l1BytesPerSm", Kind::UInt, 0, kBig});
    f.push_back({"capacity.sharedBytesPerSmMax", Kind::UInt, 0, kBig});
    f.push_back({"capacity.sharedBytesPerBlockMax", Kind::UInt, 0, kBig});
    f.push_back({"capacity.l2Bytes", Kind::UInt, 0, kBig});
    f.push_back({"capacity.source", Kind::Str});
    f.push_back({"dram.readFetchBytes", Kind::UInt, 32, 128, true, false});
    f.push_back({"dram.fillPartialWrites", Kind::Bool, 0, 0, false, false});
    f.push_back({"dram.source", Kind::Str, 0, 0, false, false});
    return f;
  }();
  return all;
}

const FieldRule *findRule(const std::string &path) {
  for (const FieldRule &r : fields())
    if (path == r.path) return &r;
  return nullptr;
}

/// Every leaf of `j` as (dotted path, value).
void flatten(const json &j, const std::string &prefix,
             std::vector<std::pair<std::string, const json *>> &out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object() && !it->empty()) flatten(*it, path, out);
    else out.emplace_back(path, &*it);
  }
}

std::string kindName(Kind k) {
  switch (k) {
  case Kind::UInt: return "an unsigned integer";
  case Kind::Bool: return "true or false";
  case Kind::Str: return "a string";
  case Kind::UIntList: return "a list of unsigned integers";
  }
  return "?";
}

/// Checks the keys present in one file (before inheritance): known, well typed, in range, and
/// every field group carries its "source".
Status checkFile(const std::string &file, const json &doc) {
  if (!doc.is_object()) return Error::at(file, "expected a JSON object at the top level");
  if (!doc.contains("name")) return Error::at(file, "key 'name': missing (every file names itself)");
  std::vector<std::pair<std::string, const json *>> leaves;
  flatten(doc, "", leaves);
  for (const auto &[path, value] : leaves) {
    const FieldRule *rule = findRule(path);
    if (!rule) return Error::at(file, "key '" + path + "': unknown key");
    bool typeOk = (rule->kind == Kind::UInt && value->is_number_unsigned()) ||
                  (rule->kind == Kind::Bool && value->is_boolean()) ||
                  (rule->kind == Kind::Str && value->is_string()) ||
                  (rule->kind == Kind::UIntList && value->is_array());
    if (typeOk && rule->kind == Kind::UIntList)
      for (const json &e : *value) typeOk = typeOk && e.is_number_unsigned();
    if (!typeOk)
      return Error::at(file, "key '" + path + "': expected " + kindName(rule->kind) + ", got " +
                                 value->dump());
    if (rule->kind == Kind::UIntList) {
      for (const json &e : *value) {
        auto v = e.get<std::uint64_t>();
        if (v < rule->min || v > rule->max)
          return Error::at(file, "key '" + path + "': element " + std::to_string(v) +
                                     " is outside " + std::to_string(rule->min) + ".." +
                                     std::to_string(rule->max));
      }
    }
    if (rule->kind == Kind::UInt) {
      auto v = value->get<std::uint64_t>();
      if (v < rule->min || v > rule->max)
        return Error::at(file, "key '" + path + "': " + std::to_string(v) + " is outside " +
                                   std::to_string(rule->min) + ".." + std::to_string(rule->max));
      if (rule->pow2 && !std::has_single_bit(v))
        return Error::at(file, "key '" + path + "': " + std::to_string(v) +
                                   " is not a power of two");
    }
  }
  for (const char *group : {"warp", "global", "shared", "capacity", "dram"}) {
    if (!doc.contains(group)) continue;
    const json &g = doc[group];
    if (!g.contains("source") || g["source"].get<std::string>().empty())
      return Error::at(file, "key '" + std::string(group) +
                                 "': field group has no \"source\" citation");
  }
  return {};
}

/// Objects merge key by key (child wins); anything else is replaced.
void deepMerge(json &base, const json &over) {
  for (auto it = over.begin(); it != over.end(); ++it) {
    if (it->is_object() && base.contains(it.key()) && base[it.key()].is_object())
      deepMerge(base[it.key()], *it);
    else base[it.key()] = *it;
  }
}

std::optional<std::string_view> embeddedText(const std::string &fileName) {
  for (std::size_t i = 0; i < detail::kEmbeddedArchFileCount; ++i)
    if (fileName == detail::kEmbeddedArchFiles[i].fileName) return detail::kEmbeddedArchFiles[i].text;
  return std::nullopt;
}

Expected<json> parseJson(const std::string &file, std::string_view text) {
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error &e) {
    return Error::at(file, "invalid JSON at byte " + std::to_string(e.byte) + ": " + e.what());
  }
}

Expected<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::at(path, "cannot open architecture file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// Where a parent named `name` is found: beside the child (if it came from disk), else built in.
struct Source {
  std::string fileName; ///< as shown in errors
  std::string text;
};
using Lookup = std::function<Expected<Source>(const std::string &name, const std::string &child)>;

std::string knownNames() {
  std::string s;
  for (const std::string &n : listArches()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

Expected<Source> builtinLookup(const std::string &name, const std::string &child) {
  if (auto text = embeddedText(name + ".json")) return Source{name + ".json", std::string(*text)};
  std::string what = "unknown architecture '" + name + "' (known: " + knownNames() + ")";
  return child.empty() ? Error{what} : Error::at(child, "key 'inherits': " + what);
}

/// Reads the fields present in one shared rule object over `rule`, and checks that a packed
/// phase is no smaller than an unpacked one.
Status readSharedRule(const std::string &file, const std::string &key, const json &r,
                      SharedWidthRule &rule) {
  if (r.contains("lanesPerPhase")) rule.lanesPerPhase = r["lanesPerPhase"].get<unsigned>();
  if (r.contains("mergeAcrossPhases")) rule.mergeAcrossPhases = r["mergeAcrossPhases"].get<bool>();
  if (r.contains("packedLanesPerPhase"))
    rule.packedLanesPerPhase = r["packedLanesPerPhase"].get<unsigned>();
  if (r.contains("packLaneXors")) rule.packLaneXors = r["packLaneXors"].get<std::vector<unsigned>>();
  if (r.contains("sourceView")) {
    const json &sv = r["sourceView"];
    rule.svPackPerPhase = sv.value("packPerPhase", rule.svPackPerPhase);
    rule.svPackOnlyConflictFree = sv.value("packOnlyConflictFree", rule.svPackOnlyConflictFree);
    rule.svWarpMergeMaxLanes = sv.value("warpMergeMaxLanes", rule.svWarpMergeMaxLanes);
    rule.svWarpMergeLaneXor = sv.value("warpMergeLaneXor", rule.svWarpMergeLaneXor);
    rule.svBroadcastLanesPerWavefront =
        sv.value("broadcastLanesPerWavefront", rule.svBroadcastLanesPerWavefront);
    auto phaseBits = [&](const char *k, std::uint32_t cur) {
      if (!sv.contains(k)) return cur;
      std::uint32_t bits = 0;
      for (unsigned p : sv[k].get<std::vector<unsigned>>()) bits |= 1u << (p & 31);
      return bits;
    };
    rule.svStrictPairPhases = phaseBits("strictPairPhases", rule.svStrictPairPhases);
    rule.svPairFreePhases = phaseBits("pairFreePhases", rule.svPairFreePhases);
    rule.svPairFreeLane = sv.value("pairFreeWhenLaneInactive", rule.svPairFreeLane);
  }
  if (rule.packedLanesPerPhase != 0 && rule.packedLanesPerPhase < rule.lanesPerPhase)
    return Error::at(file, "key '" + key + ".packedLanesPerPhase': " +
                               std::to_string(rule.packedLanesPerPhase) +
                               " is smaller than lanesPerPhase " +
                               std::to_string(rule.lanesPerPhase));
  return {};
}

Expected<ArchSpec> fromMerged(const json &m, const std::string &leafFile) {
  for (const FieldRule &r : fields()) {
    if (!r.required) continue;
    const json *cur = &m;
    std::string path = r.path;
    std::size_t pos = 0;
    bool found = true;
    while (found) {
      std::size_t dot = path.find('.', pos);
      std::string key = path.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
      if (!cur->is_object() || !cur->contains(key)) found = false;
      else cur = &(*cur)[key];
      if (dot == std::string::npos) break;
      pos = dot + 1;
    }
    if (!found)
      return Error::at(leafFile, "key '" + path + "': missing (set neither here nor in a parent)");
  }
  ArchSpec a;
  a.name = m["name"].get<std::string>();
  a.inherits = m.value("inherits", "");
  a.description = m["description"].get<std::string>();
  a.warpSize = m["warp"]["size"].get<unsigned>();
  a.sectorBytes = m["global"]["sectorBytes"].get<unsigned>();
  a.lineBytes = m["global"]["lineBytes"].get<unsigned>();
  a.idealCountsDuplicateBytes = m["global"]["idealCountsDuplicateBytes"].get<bool>();
  if (a.lineBytes < a.sectorBytes)
    return Error::at(leafFile, "key 'global.lineBytes': " + std::to_string(a.lineBytes) +
                                   " is smaller than global.sectorBytes " +
                                   std::to_string(a.sectorBytes));
  a.sharedBanks = m["shared"]["banks"].get<unsigned>();
  a.bankWidthBytes = m["shared"]["bankWidthBytes"].get<unsigned>();
  a.sharedIdealCountsDuplicateBytes = m["shared"].value("idealCountsDuplicateBytes", false);
  for (unsigned w : kSharedWidths) {
    const std::string key = "shared.rules." + std::to_string(w);
    const json &r = m["shared"]["rules"][std::to_string(w)];
    SharedWidthRule base;
    base.widthBytes = w;
    WL_CHECK(readSharedRule(leafFile, key, r, base));
    a.sharedRules.push_back(base);
  }
  for (unsigned w : kSharedWidths) {
    const json &r = m["shared"]["rules"][std::to_string(w)];
    for (const auto &[opName, op] : kSharedOps) {
      if (!r.contains(opName)) continue;
      SharedWidthRule over = a.sharedRule(w);
      over.op = op;
      WL_CHECK(readSharedRule(leafFile, "shared.rules." + std::to_string(w) + "." + opName,
                              r[opName], over));
      a.sharedRules.push_back(over);
    }
  }
  const json &c = m["capacity"];
  a.l1BytesPerSm = c["l1BytesPerSm"].get<std::uint64_t>();
  a.sharedBytesPerSmMax = c["sharedBytesPerSmMax"].get<std::uint64_t>();
  a.sharedBytesPerBlockMax = c["sharedBytesPerBlockMax"].get<std::uint64_t>();
  a.l2Bytes = c["l2Bytes"].get<std::uint64_t>();
  for (const char *group : {"warp", "global", "shared", "capacity"})
    a.sources[group] = m[group]["source"].get<std::string>();
  if (m.contains("dram")) {
    a.dramReadFetchBytes = m["dram"].value("readFetchBytes", 32u);
    a.dramFillPartialWrites = m["dram"].value("fillPartialWrites", false);
    a.sources["dram"] = m["dram"].value("source", "");
  }
  return a;
}

/// Parses `src`, checks it, resolves its parents through `lookup` and returns the spec.
Expected<ArchSpec> resolve(const Source &src, const Lookup &lookup) {
  std::vector<std::string> files;
  std::vector<json> chain; // leaf first
  Source cur = src;
  for (;;) {
    if (std::find(files.begin(), files.end(), cur.fileName) != files.end())
      return Error::at(files.back(), "key 'inherits': inheritance cycle through " + cur.fileName);
    WL_TRY(doc, parseJson(cur.fileName, cur.text));
    WL_CHECK(checkFile(cur.fileName, doc));
    files.push_back(cur.fileName);
    std::string parent = doc.value("inherits", "");
    chain.push_back(std::move(doc));
    if (parent.empty()) break;
    WL_TRY(next, lookup(parent, cur.fileName));
    cur = std::move(next);
  }
  json merged = json::object();
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) deepMerge(merged, *it);
  merged["inherits"] = chain.front().value("inherits", "");
  WL_TRY(spec, fromMerged(merged, files.front()));
  spec.files = std::move(files);
  return spec;
}

} // namespace

const SharedWidthRule &ArchSpec::sharedRule(unsigned widthBytes) const {
  return sharedRule(widthBytes, SharedOp::Any);
}

const SharedWidthRule &ArchSpec::sharedRule(unsigned widthBytes, SharedOp op) const {
  const SharedWidthRule *any = nullptr;
  for (const SharedWidthRule &r : sharedRules) {
    if (r.widthBytes != widthBytes) continue;
    if (r.op == op) return r;
    if (r.op == SharedOp::Any && !any) any = &r;
  }
  static const SharedWidthRule fallback{};
  return any ? *any : fallback;
}

Expected<ArchSpec> loadArchText(const std::string &fileName, std::string_view text) {
  return resolve(Source{fileName, std::string(text)}, builtinLookup);
}

Expected<ArchSpec> loadArchFile(const std::string &path) {
  WL_TRY(text, readFile(path));
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  Lookup besideThenBuiltin = [dir](const std::string &name,
                                   const std::string &child) -> Expected<Source> {
    std::filesystem::path p = dir / (name + ".json");
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) {
      WL_TRY(t, readFile(p.string()));
      return Source{p.string(), std::move(t)};
    }
    return builtinLookup(name, child);
  };
  return resolve(Source{path, std::move(text)}, besideThenBuiltin);
}

Expected<ArchSpec> loadArch(std::string_view name) {
  std::string n(name);
  if (n.size() > 5 && n.ends_with(".json")) return loadArchFile(n);
  WL_TRY(src, builtinLookup(n, ""));
  WL_TRY(spec, resolve(src, builtinLookup));
  if (spec.name != n)
    return Error::at(src.fileName, "key 'name': '" + spec.name + "' does not match the file name");
  return spec;
}

std::vector<std::string> listArches() {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < detail::kEmbeddedArchFileCount; ++i) {
    std::string f = detail::kEmbeddedArchFiles[i].fileName;
    names.push_back(f.substr(0, f.size() - 5));
  }
  // Natural order: sm_70 < sm_90 < sm_100.
  std::sort(names.begin(), names.end(), [](const std::string &a, const std::string &b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return names;
}

} // namespace warplens::arch
