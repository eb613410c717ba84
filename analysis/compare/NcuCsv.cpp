/// \file
/// Nsight Compute CSV import (raw page, wide or long; source page with SASS) and the content
/// sniffing that lets MEASURED be either warplens JSON or such a CSV.
#include "analysis/compare/NcuCsv.h"

#include "analysis/Metrics.h"
#include "launch/JsonText.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <map>
#include <sstream>

namespace warplens::analysis {

namespace {

std::string trim(const std::string &s) {
  std::size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::string lower(std::string s) {
  for (char &c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Lower case, letters and digits only: "L2 Theoretical Sectors Global" → "l2theoreticalsectorsglobal".
std::string norm(const std::string &s) {
  std::string o;
  for (char c : s)
    if (std::isalnum(static_cast<unsigned char>(c))) o += char(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

bool has(const std::string &s, const char *part) { return s.find(part) != std::string::npos; }

/// Cells bound the memory parseCsv takes (an empty cell still costs a std::string), so the cell
/// count, not the file size, is limited: 16 Mi cells is ~30x the largest ncu page seen.
constexpr std::size_t kMaxCsvCells = 1u << 24;

Status checkCsvSize(const std::string &text, const std::string &file) {
  std::size_t cells = 0;
  for (char c : text) cells += c == ',' || c == '\n';
  if (cells > kMaxCsvCells)
    return Error{file + ": more than " + std::to_string(kMaxCsvCells) + " CSV cells"};
  return {};
}

int findColumn(const std::vector<std::string> &header, const std::string &name) {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (norm(header[i]) == norm(name)) return int(i);
  return -1;
}

std::string cell(const std::vector<std::string> &row, int col) {
  return col >= 0 && std::size_t(col) < row.size() ? row[std::size_t(col)] : std::string();
}

std::array<std::uint32_t, 3> parseDims(const std::string &s) {
  std::array<std::uint32_t, 3> d{1, 1, 1};
  std::size_t k = 0;
  std::uint64_t cur = 0;
  bool in = false;
  for (char c : s + " ") {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      cur = cur * 10 + std::uint64_t(c - '0');
      in = true;
    } else if (in) {
      if (k < 3) d[k++] = std::uint32_t(cur);
      cur = 0;
      in = false;
    }
  }
  return d;
}

/// "Kbyte" → 1e3, "Mibyte" → 2^20, "byte"/"sector"/"" → 1.
double unitScale(const std::string &unit) {
  static const std::vector<std::pair<std::string, double>> prefixes = {
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
      {"K", 1e3},     {"M", 1e6},        {"G", 1e9},           {"T", 1e12}};
  static const char *bases[] = {"byte", "sector", "request", "inst", "wavefront", "warp", "thread"};
  for (const char *b : bases) {
    const std::string base = b;
    if (unit.size() <= base.size() || unit.compare(unit.size() - base.size(), base.size(), base))
      continue;
    const std::string p = unit.substr(0, unit.size() - base.size());
    for (const auto &[name, f] : prefixes)
      if (p == name) return f;
  }
  return 1.0;
}

std::string archFromCc(const std::string &cc) {
  std::string digits;
  for (char c : cc)
    if (std::isdigit(static_cast<unsigned char>(c))) digits += c;
  return digits.empty() ? std::string() : "sm_" + digits;
}

/// Space, op and width from a SASS opcode ("@!P0 LDG.E.128.CONSTANT R4, desc[UR4][R2.64]").
bool classifySass(const std::string &text, launch::InstructionRecord &r) {
  std::string t = trim(text);
  if (!t.empty() && t[0] == '@') t = trim(t.substr(t.find(' ') == std::string::npos ? t.size() : t.find(' ')));
  const std::string opcodeFull = t.substr(0, t.find(' '));
  const std::string opcode = opcodeFull.substr(0, opcodeFull.find('.'));
  static const std::map<std::string, std::pair<const char *, const char *>> kinds = {
      {"LDG", {"global", "ld"}},   {"STG", {"global", "st"}},   {"LDS", {"shared", "ld"}},
      {"LDSM", {"shared", "ld"}},  {"STS", {"shared", "st"}},   {"LDL", {"local", "ld"}},
      {"STL", {"local", "st"}},    {"LD", {"generic", "ld"}},   {"ST", {"generic", "st"}},
      {"ATOMG", {"global", "atom"}}, {"ATOM", {"generic", "atom"}}, {"ATOMS", {"shared", "atom"}},
      {"RED", {"global", "red"}},  {"REDG", {"global", "red"}}};
  auto it = kinds.find(opcode);
  if (it == kinds.end()) return false;
  r.space = it->second.first;
  r.op = it->second.second;
  r.widthBytes = 4;
  std::stringstream parts(opcodeFull);
  std::string p;
  while (std::getline(parts, p, '.')) {
    if (p == "64") r.widthBytes = 8;
    else if (p == "128") r.widthBytes = 16;
    else if (p == "U8" || p == "S8") r.widthBytes = 1;
    else if (p == "U16" || p == "S16") r.widthBytes = 2;
  }
  r.sass = t;
  return true;
}

struct SourceColumns {
  int address = -1, source = -1, executed = -1, threads = -1, sectors = -1, sectorsIdeal = -1,
      wavefronts = -1, wavefrontsIdeal = -1;
};

/// Maps the metric columns by name (see NcuCsv.h); the first column of a name wins.
SourceColumns mapSourceColumns(const std::vector<std::string> &header) {
  SourceColumns c;
  auto set = [](int &slot, std::size_t i) {
    if (slot < 0) slot = int(i);
  };
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string n = norm(header[i]);
    const bool ideal = has(n, "ideal"), excess = has(n, "excessive");
    if (n == "address" || n == "pc") set(c.address, i);
    else if (n == "source") set(c.source, i);
    else if (n == "instructionsexecuted" || n == "warpinstructionsexecuted" ||
             n == "smspsassinstexecutedsum" || n == "smspsassinstexecuted")
      set(c.executed, i);
    else if (n == "predicatedonthreadinstructionsexecuted" ||
             n == "smspsassthreadinstexecutedpredonsum")
      set(c.threads, i);
    else if (excess) continue;
    else if (has(n, "sectors") && has(n, "global") && !has(n, "local"))
      set(ideal ? c.sectorsIdeal : c.sectors, i);
    else if ((has(n, "wavefronts") || has(n, "transactions")) && has(n, "shared") && !has(n, "l2"))
      set(ideal ? c.wavefrontsIdeal : c.wavefronts, i);
  }
  return c;
}

} // namespace

std::vector<std::vector<std::string>> parseCsv(const std::string &text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string cur;
  bool quoted = false, any = false, lineStart = true;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (lineStart && !quoted && text.compare(i, 2, "==") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    lineStart = false;
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        cur += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        cur += c;
      }
      continue;
    }
    if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.push_back(cur);
      cur.clear();
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      if (any || !cur.empty()) {
        row.push_back(cur);
        rows.push_back(row);
      }
      row.clear();
      cur.clear();
      any = false;
      lineStart = true;
    } else {
      cur += c;
      any = true;
    }
  }
  if (any || !cur.empty()) {
    row.push_back(cur);
    rows.push_back(row);
  }
  // A trailing comma (as ncu writes after "Kernel Name","...") leaves an empty last cell.
  for (auto &r : rows) {
    while (r.size() > 1 && trim(r.back()).empty()) r.pop_back();
    for (auto &c : r) c = launch::validUtf8(c); // cells become result strings (JSON)
  }
  return rows;
}

std::optional<double> parseCsvNumber(const std::string &c) {
  std::string s;
  for (char ch : trim(c))
    if (ch != ',' && ch != ' ' && ch != '\'') s += ch;
  if (s.empty() || s == "-" || lower(s) == "n/a") return std::nullopt;
  try {
    std::size_t used = 0;
    double v = std::stod(s, &used);
    if (used != s.size()) return std::nullopt;
    return v;
  } catch (...) {
    return std::nullopt;
  }
}

Expected<std::vector<launch::LaunchResult>> parseNcuRawCsv(const std::string &text,
                                                           const std::string &file) {
  WL_CHECK(checkCsvSize(text, file));
  const auto rows = parseCsv(text);
  std::size_t h = 0;
  while (h < rows.size() && findColumn(rows[h], "Kernel Name") < 0) ++h;
  if (h == rows.size())
    return Error{file + ": not an Nsight Compute raw CSV (no \"Kernel Name\" column)"};
  const auto &header = rows[h];
  const int idCol = findColumn(header, "ID"), nameCol = findColumn(header, "Kernel Name");
  const int gridCol = findColumn(header, "Grid Size"), blockCol = findColumn(header, "Block Size");
  const int ccCol = findColumn(header, "CC"), devCol = findColumn(header, "Device");
  const int dispCol = findColumn(header, "device__attribute_display_name");
  const int mName = findColumn(header, "Metric Name"), mValue = findColumn(header, "Metric Value");
  const int mUnit = findColumn(header, "Metric Unit");
  std::vector<launch::LaunchResult> out;
  std::map<std::string, std::size_t> byId; // long layout: one row per metric

  auto startLaunch = [&](const std::vector<std::string> &r) {
    launch::LaunchResult L;
    L.kernel = trim(cell(r, nameCol));
    L.name = L.kernel;
    if (gridCol >= 0) L.grid = parseDims(cell(r, gridCol));
    if (blockCol >= 0) L.block = parseDims(cell(r, blockCol));
    L.arch = archFromCc(cell(r, ccCol));
    L.device = trim(cell(r, dispCol).empty() ? cell(r, devCol) : cell(r, dispCol));
    L.sassSource = "ncu raw CSV";
    return L;
  };

  std::vector<std::string> units;
  std::size_t first = h + 1;
  if (first < rows.size() && mName < 0 && idCol >= 0 && !parseCsvNumber(cell(rows[first], idCol))) {
    units = rows[first]; // the units row: no launch ID
    ++first;
  }
  for (std::size_t i = first; i < rows.size(); ++i) {
    const auto &r = rows[i];
    const std::string where = file + ": line " + std::to_string(i + 1);
    if (mName >= 0 && mValue >= 0) {
      const std::string id = cell(r, idCol) + "|" + cell(r, nameCol);
      if (!byId.count(id)) {
        byId[id] = out.size();
        out.push_back(startLaunch(r));
      }
      const std::string metric = trim(cell(r, mName));
      if (auto v = parseCsvNumber(cell(r, mValue)); v && has(metric, "__"))
        out[byId[id]].metrics[metric] = *v * unitScale(trim(cell(r, mUnit)));
      continue;
    }
    if (r.size() < header.size() / 2) continue; // stray line
    launch::LaunchResult L = startLaunch(r);
    if (L.kernel.empty()) return Error{where + ": \"Kernel Name\" is empty"};
    for (std::size_t c = 0; c < header.size() && c < r.size(); ++c) {
      const std::string metric = trim(header[c]);
      if (!has(metric, "__") || has(metric, "device__attribute")) continue;
      if (auto v = parseCsvNumber(r[c]))
        L.metrics[metric] = *v * unitScale(trim(cell(units, int(c))));
    }
    out.push_back(std::move(L));
  }
  if (out.empty()) return Error{file + ": Nsight Compute raw CSV holds no kernel rows"};
  return out;
}

Expected<MeasuredInput> parseNcuSourceCsv(const std::string &text, const std::string &file) {
  WL_CHECK(checkCsvSize(text, file));
  const auto rows = parseCsv(text);
  // Each kept launch as JSON: duplicates found in O(log n) comparisons. (Compared as values, not
  // dumped: dump() throws on the invalid UTF-8 a CSV cell may hold.)
  std::set<nlohmann::json> seenPages;
  MeasuredInput in;
  in.format = "ncu-source-csv";
  std::string pendingKernel;
  SourceColumns cols;
  bool inBlock = false;
  std::vector<std::uint64_t> addrs;
  auto finish = [&] {
    if (!inBlock) return;
    auto &L = in.launches.back();
    // Addresses are absolute; the listing starts at the function entry.
    const std::uint64_t base = addrs.empty() ? 0 : *std::min_element(addrs.begin(), addrs.end());
    for (auto &rec : L.instructions)
      if (rec.sassPc) rec.sassPc = *rec.sassPc - base;
    const auto totals = totalsFromInstructions(L.instructions);
    for (const auto &[k, v] : totals) {
      const bool keep = (has(k, "inst_executed") && cols.executed >= 0) ||
                        (k == "smsp__sass_sectors_mem_global.sum" && cols.sectors >= 0) ||
                        (k == "smsp__sass_sectors_mem_global_ideal.sum" && cols.sectorsIdeal >= 0) ||
                        (k == "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared.sum" && cols.wavefronts >= 0) ||
                        (k == "smsp__sass_l1tex_pipe_lsu_wavefronts_mem_shared_ideal.sum" &&
                         cols.wavefrontsIdeal >= 0);
      if (keep && has(k, "smsp__sass")) L.metrics[k] = v;
    }
    inBlock = false;
    // ncu may print a kernel's page twice; keep one copy.
    if (!seenPages.insert(launch::toJson(L)).second) in.launches.pop_back();
  };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto &r = rows[i];
    const std::string where = file + ": line " + std::to_string(i + 1);
    if (!r.empty() && norm(r[0]) == "kernelname") {
      finish();
      pendingKernel = trim(cell(r, 1));
      continue;
    }
    if (findColumn(r, "Address") >= 0 && findColumn(r, "Source") >= 0) {
      finish();
      cols = mapSourceColumns(r);
      // ncu leaves out the columns a kernel has no instructions for (no shared memory → no
      // "L1 Wavefronts Shared"), so the fields known are the union over the kernels.
      if (cols.executed >= 0) in.instructionFields.insert("executed");
      if (cols.sectors >= 0) in.instructionFields.insert("sectors");
      if (cols.sectorsIdeal >= 0) in.instructionFields.insert("sectors_ideal");
      if (cols.wavefronts >= 0) in.instructionFields.insert("wavefronts");
      if (cols.wavefrontsIdeal >= 0) in.instructionFields.insert("wavefronts_ideal");
      if (cols.executed < 0 && cols.sectors < 0 && cols.sectorsIdeal < 0 && cols.wavefronts < 0 &&
          cols.wavefrontsIdeal < 0)
        return Error{where + ": source page has none of the columns \"Instructions Executed\", "
                             "\"L2 Theoretical Sectors Global(Ideal)\", \"L1 Wavefronts Shared(Ideal)\""};
      launch::LaunchResult L;
      L.kernel = pendingKernel;
      L.name = pendingKernel;
      L.sassSource = "ncu source page";
      in.launches.push_back(L);
      addrs.clear();
      inBlock = true;
      pendingKernel.clear();
      continue;
    }
    if (!inBlock) continue;
    const std::string addrText = trim(cell(r, cols.address));
    std::uint64_t addr = 0;
    try {
      std::size_t used = 0;
      addr = std::stoull(addrText, &used, 0);
      if (used != addrText.size()) throw 0;
    } catch (...) {
      return Error{where + ": Address '" + addrText + "' is not a number"};
    }
    addrs.push_back(addr);
    launch::InstructionRecord rec;
    if (!classifySass(cell(r, cols.source), rec)) continue;
    rec.sassPc = addr;
    auto num = [&](int col, std::uint64_t &dst) {
      // below 2^64: larger (or inf) would not convert; a count that large is not a count
      if (auto v = parseCsvNumber(cell(r, col)); v && *v >= 0 && *v < 0x1p64) dst = std::uint64_t(*v);
    };
    num(cols.executed, rec.executed);
    num(cols.threads, rec.threads);
    num(cols.sectors, rec.sectors);
    num(cols.sectorsIdeal, rec.sectorsIdeal);
    num(cols.wavefronts, rec.wavefronts);
    num(cols.wavefrontsIdeal, rec.wavefrontsIdeal);
    if (rec.space != "shared" && rec.executed) rec.requests = rec.executed;
    if (rec.wavefrontsIdeal)
      rec.conflictWaysMax = std::uint32_t((rec.wavefronts + rec.wavefrontsIdeal - 1) / rec.wavefrontsIdeal);
    in.launches.back().instructions.push_back(rec);
  }
  finish();
  if (in.launches.empty())
    return Error{file + ": not an Nsight Compute source page (no header row with \"Address\" and "
                        "\"Source\")"};
  return in;
}

Expected<MeasuredInput> loadMeasured(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return Error{path + ": cannot open"};
  std::stringstream ss;
  ss << f.rdbuf();
  return parseMeasured(ss.str(), path);
}

Expected<MeasuredInput> parseMeasured(const std::string &text, const std::string &path) {
  std::size_t k = text.find_first_not_of(" \t\r\n");
  if (k == std::string::npos) return Error{path + ": empty file"};
  if (text.compare(k, 3, "\xEF\xBB\xBF") == 0) k = text.find_first_not_of(" \t\r\n", k + 3);
  if (k != std::string::npos && text[k] == '{') {
    WL_TRY(j, launch::parseJsonText(text, path)); // bounded depth and size
    WL_TRY(launches, launch::resultsFromJson(j, path));
    MeasuredInput in;
    in.launches = std::move(launches);
    in.format = "warplens-json";
    in.instructionFields = {"executed", "sectors", "sectors_ideal", "wavefronts", "wavefronts_ideal"};
    return in;
  }
  WL_CHECK(checkCsvSize(text, path));
  for (const auto &row : parseCsv(text)) {
    if (findColumn(row, "Address") >= 0 && findColumn(row, "Source") >= 0)
      return parseNcuSourceCsv(text, path);
    if (findColumn(row, "Kernel Name") >= 0 && findColumn(row, "ID") >= 0) break;
  }
  WL_TRY(launches, parseNcuRawCsv(text, path));
  MeasuredInput in;
  in.launches = std::move(launches);
  in.format = "ncu-raw-csv";
  return in;
}

} // namespace warplens::analysis
