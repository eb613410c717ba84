/// \file
/// The CUDA toolchain runner: finds nvcc/ptxas/nvdisasm/cuobjdump, compiles .cu to PTX + cubin,
/// disassembles to a SASS listing, and caches everything under a content-hash folder.
#include "sass/Toolchain.h"

#include "sass/Process.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace warplens::sass {
namespace {

std::string slurp(const fs::path &path, bool &ok) {
  std::ifstream f(path, std::ios::binary);
  ok = static_cast<bool>(f);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// 128-bit FNV-1a-style digest (two independent 64-bit lanes), printed as 32 hex digits.
class Digest {
public:
  void add(const std::string &bytes) {
    for (unsigned char c : bytes) {
      a_ = (a_ ^ c) * 0x100000001b3ull;
      b_ = (b_ ^ c) * 0x100000001b3ull + 0x9e3779b97f4a7c15ull;
    }
    a_ = (a_ ^ 0xff) * 0x100000001b3ull; // separator so ("ab","c") != ("a","bc")
    b_ = (b_ ^ 0xfe) * 0x100000001b3ull;
  }
  std::string hex() const {
    char buf[33];
    std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a_),
                  static_cast<unsigned long long>(b_));
    return buf;
  }

private:
  std::uint64_t a_ = 0xcbf29ce484222325ull;
  std::uint64_t b_ = 0x84222325cbf29ce4ull;
};

bool isExecutable(const fs::path &p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

std::vector<std::string> splitColon(const char *value) {
  std::vector<std::string> out;
  if (!value) return out;
  std::stringstream ss(value);
  std::string part;
  while (std::getline(ss, part, ':'))
    if (!part.empty()) out.push_back(part);
  return out;
}

void addToolsUpFrom(fs::path dir, std::vector<std::string> &folders) {
  std::error_code ec;
  for (int depth = 0; depth < 12 && !dir.empty(); ++depth) {
    fs::path candidate = dir / ".tools" / "cuda" / "bin";
    if (fs::is_directory(candidate, ec)) {
      folders.push_back(candidate.string());
      return;
    }
    if (dir == dir.parent_path()) return;
    dir = dir.parent_path();
  }
}

std::vector<std::string> defaultFolders() {
  std::vector<std::string> folders = splitColon(std::getenv("PATH"));
  for (const std::string &d : splitColon(std::getenv("WARPLENS_CUDA_TOOLS"))) folders.push_back(d);
  if (const char *home = std::getenv("CUDA_HOME")) folders.push_back(std::string(home) + "/bin");
  folders.push_back("/usr/local/cuda/bin");
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) addToolsUpFrom(exe.parent_path(), folders);
  fs::path cwd = fs::current_path(ec);
  if (!ec) addToolsUpFrom(cwd, folders);
  return folders;
}

/// path|size|mtime of a tool: changes whenever the tool is replaced.
std::string toolIdentity(const std::string &path) {
  if (path.empty()) return "-";
  std::error_code ec;
  auto size = fs::file_size(path, ec);
  auto time = fs::last_write_time(path, ec).time_since_epoch().count();
  return path + "|" + std::to_string(size) + "|" + std::to_string(time);
}

std::string toolVersion(const std::string &path, const std::string &name) {
  std::string text = captureOutput({path, "--version"});
  std::size_t p = text.find("release ");
  if (p == std::string::npos) return name;
  std::size_t e = text.find_first_of(", \n", p + 8);
  return name + " " + text.substr(p + 8, e == std::string::npos ? std::string::npos : e - p - 8);
}

/// Adds the bytes of every `#include "x"` reachable from `file` (next to the includer or in an
/// -I folder) to the digest.
void digestIncludes(const fs::path &file, const std::string &text,
                    const std::vector<std::string> &flags, std::set<std::string> &seen,
                    Digest &digest) {
  std::vector<fs::path> dirs{file.parent_path()};
  for (std::size_t i = 0; i < flags.size(); ++i) {
    if (flags[i].rfind("-I", 0) == 0 && flags[i].size() > 2) dirs.emplace_back(flags[i].substr(2));
    else if (flags[i] == "-I" && i + 1 < flags.size()) dirs.emplace_back(flags[i + 1]);
  }
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::size_t h = line.find_first_not_of(" \t");
    if (h == std::string::npos || line[h] != '#') continue;
    std::size_t inc = line.find("include", h);
    std::size_t q1 = line.find('"', h);
    if (inc == std::string::npos || q1 == std::string::npos || q1 < inc) continue;
    std::size_t q2 = line.find('"', q1 + 1);
    if (q2 == std::string::npos) continue;
    std::string name = line.substr(q1 + 1, q2 - q1 - 1);
    for (const fs::path &d : dirs) {
      fs::path candidate = d / name;
      std::error_code ec;
      if (!fs::is_regular_file(candidate, ec)) continue;
      std::string key = fs::weakly_canonical(candidate, ec).string();
      if (!seen.insert(key).second) break;
      bool ok = false;
      std::string bytes = slurp(candidate, ok);
      digest.add(key);
      digest.add(bytes);
      digestIncludes(candidate, bytes, flags, seen, digest);
      break;
    }
  }
}

std::string defaultCacheDir() {
  if (const char *c = std::getenv("WARPLENS_CACHE"); c && *c) return c;
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/warplens";
  return (fs::temp_directory_path() / "warplens-cache").string();
}

/// First line of stderr text that says something, for short notes.
std::string firstLine(const std::string &text) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) return line;
  return "(no message)";
}

struct Tools {
  std::string nvcc, ptxas, nvdisasm, cuobjdump;
};

/// Disassembles `cubin` into `listing`; returns the tool description or notes why not.
std::string disassemble(const Tools &tools, const fs::path &cubin, const fs::path &listing,
                        std::vector<std::string> &notes) {
  if (!tools.nvdisasm.empty()) {
    auto r = runProcess({tools.nvdisasm, "-gi", "-c", cubin.string()}, listing.string());
    if (r.ok() && r->exitCode == 0) return toolVersion(tools.nvdisasm, "nvdisasm");
    notes.push_back("nvdisasm failed: " + (r.ok() ? firstLine(r->stderrText) : r.error().message));
  }
  if (!tools.cuobjdump.empty()) {
    auto r = runProcess({tools.cuobjdump, "-sass", cubin.string()}, listing.string());
    if (r.ok() && r->exitCode == 0) {
      notes.push_back("nvdisasm not found: SASS listing from cuobjdump has no source lines; "
                      "PTX accesses are matched to SASS by order only");
      return toolVersion(tools.cuobjdump, "cuobjdump");
    }
    notes.push_back("cuobjdump failed: " +
                    (r.ok() ? firstLine(r->stderrText) : r.error().message));
  }
  if (tools.nvdisasm.empty() && tools.cuobjdump.empty())
    notes.push_back("nvdisasm and cuobjdump not found (run scripts/install-cuda-tools): "
                    "no SASS listing, predictions are PTX-level");
  else
    notes.push_back("no SASS listing: predictions are PTX-level");
  return {};
}

void writeMeta(const fs::path &path, const CompileOutput &out) {
  std::ofstream f(path);
  f << "tool " << out.sassTool << "\n";
  for (const std::string &n : out.notes) f << "note " << n << "\n";
}

bool readMeta(const fs::path &path, CompileOutput &out) {
  std::ifstream f(path);
  if (!f) return false;
  std::string line;
  while (std::getline(f, line)) {
    if (line.rfind("tool ", 0) == 0) out.sassTool = line.substr(5);
    else if (line.rfind("note ", 0) == 0) out.notes.push_back(line.substr(5));
  }
  return true;
}

} // namespace

std::string findTool(const std::string &name, const std::vector<std::string> &folders) {
  for (const std::string &d : folders) {
    fs::path p = fs::path(d) / name;
    if (isExecutable(p)) {
      std::error_code ec;
      fs::path abs = fs::absolute(p, ec);
      return ec ? p.string() : abs.string();
    }
  }
  return {};
}

std::string findTool(const std::string &name) { return findTool(name, defaultFolders()); }

Expected<CompileOutput> compile(const std::string &sourcePath, const ToolchainOptions &options) {
  fs::path source(sourcePath);
  bool ok = false;
  std::string bytes = slurp(source, ok);
  if (!ok) return Error::at(sourcePath, "cannot read source file");
  std::string ext = source.extension().string();
  bool isPtx = ext == ".ptx";
  if (!isPtx && ext != ".cu")
    return Error::at(sourcePath, "unknown input type '" + ext + "': expected .cu or .ptx");

  std::vector<std::string> folders =
      options.toolSearchPath.empty() ? defaultFolders() : options.toolSearchPath;
  Tools tools{findTool("nvcc", folders), findTool("ptxas", folders),
              findTool("nvdisasm", folders), findTool("cuobjdump", folders)};
  if (!isPtx && tools.nvcc.empty())
    return Error::at(sourcePath, "nvcc not found: install the CUDA toolkit or pass a .ptx");

  Digest digest;
  // Bump the recipe tag whenever the commands or their flags change (e.g. nvdisasm -gi).
  digest.add(isPtx ? "ptx-v2 nvdisasm -gi -c" : "cu-v2 nvdisasm -gi -c");
  digest.add(bytes);
  digest.add(options.arch);
  for (const std::string &f : options.nvccFlags) digest.add(f);
  if (!isPtx) {
    std::set<std::string> seen;
    digestIncludes(source, bytes, options.nvccFlags, seen, digest);
  }
  for (const std::string *t : {&tools.nvcc, &tools.ptxas, &tools.nvdisasm, &tools.cuobjdump})
    digest.add(toolIdentity(*t));

  fs::path cacheRoot = options.cacheDir.empty() ? defaultCacheDir() : options.cacheDir;
  std::string stem = source.stem().string();
  fs::path dir = cacheRoot / digest.hex();
  CompileOutput out;
  auto fill = [&](const fs::path &d) {
    out.ptxPath = isPtx ? fs::absolute(source).string() : (d / (stem + ".ptx")).string();
    if (fs::exists(d / (stem + ".cubin"))) out.cubinPath = (d / (stem + ".cubin")).string();
    if (fs::exists(d / (stem + ".sass"))) out.sassPath = (d / (stem + ".sass")).string();
  };
  std::error_code ec;
  if (fs::exists(dir / "meta.txt", ec) && readMeta(dir / "meta.txt", out)) {
    fill(dir);
    out.cached = true;
    return out;
  }

  fs::create_directories(cacheRoot, ec);
  if (ec) return Error::at(cacheRoot.string(), "cannot create cache folder: " + ec.message());
  fs::path tmp = cacheRoot / (digest.hex() + ".tmp" + std::to_string(::getpid()));
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp, ec);
  if (ec) return Error::at(tmp.string(), "cannot create folder: " + ec.message());

  std::string archFlag = "-arch=" + options.arch;
  fs::path cubin = tmp / (stem + ".cubin");
  bool haveCubin = false;
  if (!isPtx) {
    for (const char *kind : {"-ptx", "-cubin"}) {
      fs::path target = tmp / (stem + (std::string(kind) == "-ptx" ? ".ptx" : ".cubin"));
      std::vector<std::string> argv{tools.nvcc, archFlag, "-lineinfo", kind};
      argv.insert(argv.end(), options.nvccFlags.begin(), options.nvccFlags.end());
      argv.insert(argv.end(), {"-o", target.string(), fs::absolute(source).string()});
      WL_TRY(r, runProcess(argv, ""));
      if (r.exitCode != 0) {
        fs::remove_all(tmp, ec);
        return Error::at(sourcePath, "nvcc " + std::string(kind) + " failed (exit " +
                                         std::to_string(r.exitCode) + "):\n" + r.stderrText);
      }
    }
    haveCubin = true;
  } else if (!tools.ptxas.empty()) {
    WL_TRY(r, runProcess({tools.ptxas, archFlag, "-lineinfo", "-o", cubin.string(),
                          fs::absolute(source).string()},
                         ""));
    if (r.exitCode == 0) haveCubin = true;
    else
      out.notes.push_back("ptxas failed on " + sourcePath + ": " + firstLine(r.stderrText) +
                          "; predictions are PTX-level");
  } else {
    out.notes.push_back("ptxas not found: no SASS for " + sourcePath +
                        "; predictions are PTX-level");
  }
  if (haveCubin) {
    out.sassTool = disassemble(tools, cubin, tmp / (stem + ".sass"), out.notes);
    if (out.sassTool.empty()) fs::remove(tmp / (stem + ".sass"), ec);
  }
  writeMeta(tmp / "meta.txt", out);
  fs::rename(tmp, dir, ec);
  if (ec) { // another process filled the same entry first: use theirs
    fs::remove_all(tmp, ec);
    if (!fs::exists(dir / "meta.txt")) return Error::at(dir.string(), "cannot fill cache entry");
  }
  fill(dir);
  return out;
}

} // namespace warplens::sass
