/// \file
/// Kernel name matching for the probe (see KernelMatch.h). Pure host code.
#include "cupti_probe/KernelMatch.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace warplens::probe {

std::string demangle(const std::string &mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void *)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || !out) return mangled;
  return out.get();
}

namespace {

/// "ns::f<int>(float*, int)" → "ns::f<int>"; names without '(' unchanged.
std::string withoutParams(const std::string &demangled) {
  // The parameter list is the last top-level '(' ... ')' group.
  int depth = 0;
  for (std::size_t i = 0; i < demangled.size(); ++i) {
    char c = demangled[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '(' && depth == 0) {
      // Template functions demangle with their return type first ("void ns::f<int>(int*)").
      std::string head = demangled.substr(0, i);
      int d = 0;
      std::size_t start = 0;
      for (std::size_t j = 0; j < head.size(); ++j) {
        if (head[j] == '<') ++d;
        if (head[j] == '>') --d;
        if (head[j] == ' ' && d == 0) start = j + 1;
      }
      return head.substr(start);
    }
  }
  return demangled;
}

/// "ns::f<int>" → "f<int>"; also strips template arguments for a second form: "f".
std::string unqualified(const std::string &name) {
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i + 1 < name.size(); ++i) {
    char c = name[i];
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (depth == 0 && c == ':' && name[i + 1] == ':') start = i + 2;
  }
  return name.substr(start);
}

std::string stripTemplate(const std::string &name) {
  std::size_t lt = name.find('<');
  return lt == std::string::npos ? name : name.substr(0, lt);
}

std::string listOf(const std::vector<std::string> &names) {
  std::string s;
  for (const auto &n : names) {
    if (!s.empty()) s += ", ";
    std::string d = demangle(n);
    s += d == n ? n : n + " (" + d + ")";
  }
  return s.empty() ? "(none)" : s;
}

} // namespace

Expected<std::string> matchKernelName(const std::string &wanted,
                                      const std::vector<std::string> &mangledNames,
                                      const std::string &where) {
  if (wanted.empty()) return Error::at(where, "key 'kernel' is empty");
  // Rules from strongest to weakest; the first rule with exactly one hit wins, a rule with
  // several hits is ambiguous.
  using Rule = bool (*)(const std::string &wanted, const std::string &mangled);
  static const Rule rules[] = {
      [](const std::string &w, const std::string &m) { return w == m; },
      [](const std::string &w, const std::string &m) { return w == demangle(m); },
      [](const std::string &w, const std::string &m) { return w == withoutParams(demangle(m)); },
      [](const std::string &w, const std::string &m) {
        return w == unqualified(withoutParams(demangle(m)));
      },
      [](const std::string &w, const std::string &m) {
        return w == stripTemplate(unqualified(withoutParams(demangle(m))));
      },
      [](const std::string &w, const std::string &m) {
        return m.rfind(w, 0) == 0 || demangle(m).rfind(w, 0) == 0 ||
               unqualified(withoutParams(demangle(m))).rfind(w, 0) == 0;
      },
  };
  for (Rule rule : rules) {
    std::vector<std::string> hits;
    for (const auto &m : mangledNames)
      if (rule(wanted, m)) hits.push_back(m);
    if (hits.size() == 1) return hits.front();
    if (hits.size() > 1)
      return Error::at(where, "kernel '" + wanted + "' is ambiguous: " + listOf(hits));
  }
  return Error::at(where, "kernel '" + wanted + "' not found; the module has: " +
                              listOf(mangledNames));
}

} // namespace warplens::probe
