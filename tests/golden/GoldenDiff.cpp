/// \file
/// JSON and text differences for the golden runner (see GoldenDiff.h).
#include "GoldenDiff.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace warplens::golden {

namespace {

using nlohmann::json;

std::string shortDump(const json &j) {
  std::string s = j.dump();
  return s.size() > 80 ? s.substr(0, 77) + "..." : s;
}

const char *kindName(const json &j) {
  if (j.is_number_float()) return "float";
  if (j.is_number_integer()) return "integer";
  return j.type_name();
}

/// Integers (signed or unsigned) equal by value; floats equal bit for bit as doubles.
bool sameNumber(const json &a, const json &b) {
  if (a.is_number_float() != b.is_number_float()) return false;
  if (a.is_number_float()) return a.get<double>() == b.get<double>();
  const bool aNeg = a.is_number_integer() && !a.is_number_unsigned() && a.get<std::int64_t>() < 0;
  const bool bNeg = b.is_number_integer() && !b.is_number_unsigned() && b.get<std::int64_t>() < 0;
  if (aNeg || bNeg) return aNeg && bNeg && a.get<std::int64_t>() == b.get<std::int64_t>();
  return a.get<std::uint64_t>() == b.get<std::uint64_t>();
}

struct Walker {
  std::vector<std::string> lines;
  std::size_t total = 0;

  void add(const std::string &path, const std::string &what) {
    ++total;
    lines.push_back(path + ": " + what);
  }

  void walk(const json &e, const json &a, const std::string &path) {
    if (e.is_number() && a.is_number()) {
      if (!sameNumber(e, a))
        add(path, "expected " + shortDump(e) + " (" + kindName(e) + "), got " + shortDump(a) +
                      " (" + kindName(a) + ")");
      return;
    }
    if (e.type() != a.type()) {
      add(path, std::string("expected ") + kindName(e) + " " + shortDump(e) + ", got " +
                    kindName(a) + " " + shortDump(a));
      return;
    }
    if (e.is_object()) {
      std::set<std::string> keys;
      for (auto it = e.begin(); it != e.end(); ++it) keys.insert(it.key());
      for (auto it = a.begin(); it != a.end(); ++it) keys.insert(it.key());
      for (const std::string &k : keys) {
        const std::string sub = path + "." + k;
        if (!a.contains(k)) add(sub, "missing (expected " + shortDump(e[k]) + ")");
        else if (!e.contains(k)) add(sub, "unexpected key (got " + shortDump(a[k]) + ")");
        else walk(e[k], a[k], sub);
      }
      return;
    }
    if (e.is_array()) {
      if (e.size() != a.size())
        add(path, "expected " + std::to_string(e.size()) + " elements, got " +
                      std::to_string(a.size()));
      for (std::size_t i = 0; i < std::min(e.size(), a.size()); ++i)
        walk(e[i], a[i], path + "[" + std::to_string(i) + "]");
      return;
    }
    if (e != a) add(path, "expected " + shortDump(e) + ", got " + shortDump(a));
  }
};

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

} // namespace

std::vector<std::string> jsonDifferences(const json &expected, const json &actual,
                                         std::size_t limit) {
  Walker w;
  w.walk(expected, actual, "$");
  if (w.lines.size() > limit) {
    w.lines.resize(limit);
    w.lines.push_back("... " + std::to_string(w.total - limit) + " more differences");
  }
  return w.lines;
}

std::string textDifference(const std::string &expected, const std::string &actual,
                           std::size_t context) {
  if (expected == actual) return "";
  const std::vector<std::string> e = splitLines(expected), a = splitLines(actual);
  std::size_t first = 0;
  while (first < e.size() && first < a.size() && e[first] == a[first]) ++first;
  std::ostringstream os;
  if (first == e.size() && first == a.size()) {
    os << "texts differ only in the final newline (expected "
       << (expected.empty() || expected.back() != '\n' ? "none" : "one") << ")\n";
    return os.str();
  }
  os << "first difference at line " << first + 1 << " (expected " << e.size()
     << " lines, got " << a.size() << "):\n";
  for (std::size_t i = first; i < first + context && (i < e.size() || i < a.size()); ++i) {
    if (i < e.size()) os << "  - " << e[i] << "\n";
    else os << "  - <end of expected>\n";
    if (i < a.size()) os << "  + " << a[i] << "\n";
    else os << "  + <end of output>\n";
  }
  return os.str();
}

} // namespace warplens::golden
