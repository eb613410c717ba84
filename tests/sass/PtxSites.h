/// \file
/// Test helper: a minimal PTX scan that lists each kernel's memory instructions as SiteInfo the
/// way the emulator describes them (ids in file order, .loc lines, space/op/width), so grouping
/// tests do not depend on the PTX parser.
#pragma once

#include "model/Site.h"

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace warplens::sass::fixtures {

inline unsigned ptxTypeBytes(const std::string &t) {
  if (t.size() < 2) return 0;
  std::string digits = t.substr(1);
  if (digits.find_first_not_of("0123456789") != std::string::npos) return 0;
  return static_cast<unsigned>(std::stoi(digits)) / 8;
}

/// Kernel mangled name → its memory sites (ld/st/atom/red of any space but param).
inline std::map<std::string, std::vector<model::SiteInfo>> ptxSites(const std::string &path) {
  std::map<std::string, std::vector<model::SiteInfo>> out;
  std::map<int, std::string> files;
  std::ifstream in(path);
  std::string line, kernel, file;
  std::vector<std::string> lines;
  while (std::getline(in, line)) lines.push_back(line);
  for (const std::string &l : lines) { // .file comes at the end of nvcc's PTX
    std::istringstream ws(l);
    std::string w, name;
    int id = 0;
    if (ws >> w && w == ".file" && ws >> id >> name) files[id] = name.substr(1, name.size() - 2);
  }
  int srcLine = -1;
  std::uint32_t next = 0;
  for (std::size_t n = 0; n < lines.size(); ++n) {
    std::istringstream ws(lines[n]);
    std::string w;
    if (!(ws >> w)) continue;
    if (w == ".entry" || (w == ".visible" && lines[n].find(".entry") != std::string::npos)) {
      std::size_t e = lines[n].find(".entry");
      std::istringstream ns(lines[n].substr(e + 6));
      ns >> kernel;
      kernel = kernel.substr(0, kernel.find('('));
      next = 0;
      continue;
    }
    if (w == ".loc") {
      int f = 0;
      ws >> f >> srcLine;
      file = files[f];
      continue;
    }
    if (!w.empty() && w[0] == '@') ws >> w;
    std::vector<std::string> parts;
    std::stringstream ps(w);
    std::string p;
    while (std::getline(ps, p, '.')) parts.push_back(p);
    if (parts.empty()) continue;
    model::SiteInfo s;
    if (parts[0] == "ld" || parts[0] == "ldu") s.op = model::Op::Load;
    else if (parts[0] == "st") s.op = model::Op::Store;
    else if (parts[0] == "atom") s.op = model::Op::Atomic;
    else if (parts[0] == "red") s.op = model::Op::Reduce;
    else continue;
    s.space = model::Space::Generic;
    unsigned vec = 1, bytes = 0;
    for (const std::string &q : parts) {
      if (q == "global") s.space = model::Space::Global;
      else if (q == "shared" || q.rfind("shared::", 0) == 0) s.space = model::Space::Shared;
      else if (q == "local") s.space = model::Space::Local;
      else if (q == "param") s.space = model::Space::Param;
      else if (q == "const") s.space = model::Space::Const;
      else if (q == "v2") vec = 2;
      else if (q == "v4") vec = 4;
      else if (unsigned b = ptxTypeBytes(q)) bytes = b;
    }
    if (s.space == model::Space::Param) continue;
    s.widthBytes = vec * bytes;
    s.site = next++;
    s.ptxLine = static_cast<int>(n + 1);
    std::size_t b = lines[n].find_first_not_of(" \t");
    s.ptxText = lines[n].substr(b);
    s.sourceFile = file;
    s.sourceLine = srcLine;
    out[kernel].push_back(s);
  }
  return out;
}

} // namespace warplens::sass::fixtures
