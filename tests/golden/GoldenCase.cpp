/// \file
/// Golden case discovery and the CLI runner (std::system through /bin/sh, output to temp files).
#include "GoldenCase.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace warplens::golden {

namespace fs = std::filesystem;

std::string readFile(const fs::path &path) {
  std::ifstream f(path, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

namespace {

std::string trim(std::string s) {
  const char *ws = " \t\r\n";
  s.erase(0, s.find_first_not_of(ws) == std::string::npos ? s.size() : s.find_first_not_of(ws));
  s.erase(s.find_last_not_of(ws) + 1);
  return s;
}

std::optional<std::string> readIfExists(const fs::path &path) {
  if (!fs::exists(path)) return std::nullopt;
  return readFile(path);
}

/// Single-quotes a word for /bin/sh.
std::string shellQuote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// An empty toolchain cache folder for this process, removed at exit.
struct FreshCache {
  fs::path dir = fs::temp_directory_path() / ("warplens_golden_cache_" + std::to_string(::getpid()));
  FreshCache() {
    std::error_code ec;
    fs::remove_all(dir, ec);
    fs::create_directories(dir, ec);
  }
  ~FreshCache() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

void replaceAll(std::string &s, const std::string &from, const std::string &to) {
  for (std::size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size())
    s.replace(pos, from.size(), to);
}

/// Runs one /bin/sh line, stdout and stderr to temp files.
CliOutput runShell(const std::string &command) {
  static std::atomic<int> counter{0};
  const fs::path stem = fs::temp_directory_path() /
                        ("warplens_golden_" + std::to_string(::getpid()) + "_" +
                         std::to_string(counter++));
  const std::string out = stem.string() + ".out", err = stem.string() + ".err";
  const std::string line = "( " + command + " ) >" + shellQuote(out) + " 2>" + shellQuote(err) +
                           " </dev/null";
  CliOutput r;
  const int raw = std::system(line.c_str());
  r.status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = readFile(out);
  r.err = readFile(err);
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove(err, ec);
  return r;
}

} // namespace

GoldenCase loadCase(const fs::path &dir) {
  GoldenCase c;
  c.dir = dir;
  c.name = dir.filename().string();
  std::string cmd = readFile(dir / "cmd");
  c.args = trim(cmd.substr(0, cmd.find('\n')));
  if (auto status = readIfExists(dir / "expected_status")) c.expectedStatus = std::atoi(status->c_str());
  c.expectedText = readIfExists(dir / "expected.txt");
  c.expectedJson = readIfExists(dir / "expected.json");
  std::istringstream req(readIfExists(dir / "requires").value_or(""));
  for (std::string line; std::getline(req, line);)
    if (!trim(line).empty() && trim(line)[0] != '#') c.requirements.push_back(trim(line));
  return c;
}

std::vector<GoldenCase> discoverCases(const fs::path &root) {
  std::vector<GoldenCase> cases;
  std::error_code ec;
  for (const fs::directory_entry &e : fs::directory_iterator(root, ec))
    if (e.is_directory() && fs::exists(e.path() / "cmd")) cases.push_back(loadCase(e.path()));
  std::sort(cases.begin(), cases.end(),
            [](const GoldenCase &a, const GoldenCase &b) { return a.name < b.name; });
  return cases;
}

bool hasFormatOption(const std::string &args) {
  std::istringstream words(args);
  std::string w;
  while (words >> w)
    if (w == "--format" || w.rfind("--format=", 0) == 0) return true;
  return false;
}

std::string jsonArgs(const std::string &args) {
  return hasFormatOption(args) ? args : args + " --format json";
}

std::string missingRequirement(const GoldenCase &c, const fs::path &repoRoot) {
  const std::string path = "PATH=\"$PATH:${WARPLENS_CUDA_TOOLS:-}:${CUDA_HOME:-/usr/local/cuda}/bin:"
                           "/usr/local/cuda/bin:" + repoRoot.string() + "/.tools/cuda/bin\"";
  for (const std::string &r : c.requirements) {
    const std::string tool = r.substr(0, r.find(' '));
    const std::string text = r.find(' ') == std::string::npos ? "" : trim(r.substr(r.find(' ')));
    const CliOutput v = runShell(path + " " + shellQuote(tool) + " --version");
    if (v.status != 0) return tool + " not found";
    if (v.out.find(text) == std::string::npos)
      return tool + " --version does not say '" + text + "'";
  }
  return "";
}

CliOutput runCli(const std::string &bin, const std::string &args, const fs::path &workDir) {
  static FreshCache cache;
  CliOutput r = runShell("cd " + shellQuote(workDir.string()) + " && WARPLENS_CACHE=" +
                         shellQuote(cache.dir.string()) + " " + shellQuote(bin) + " " + args);
  const std::string prefix = workDir.string() + "/";
  replaceAll(r.out, prefix, "");
  replaceAll(r.err, prefix, "");
  return r;
}

} // namespace warplens::golden
