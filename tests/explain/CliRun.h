/// \file
/// Runs the warplens CLI for the explain/trace tests: exit status and output (stdout, or stdout
/// with stderr), and per-process temporary paths.
#pragma once

#include <cstdio>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace warplens::test {

struct CliRun {
  int status = -1;
  std::string out;
};

/// `warplens ARGS` from the repo root; stderr is merged into `out` when `withStderr`.
inline CliRun warplens(const std::string &args, bool withStderr = false) {
  std::string cmd = "cd " WARPLENS_SOURCE_DIR " && " + std::string(WARPLENS_BIN) + " " + args +
                    (withStderr ? " 2>&1" : " 2>/dev/null");
  CliRun r;
  FILE *p = popen(cmd.c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int st = pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline std::string tempPath(const std::string &name) {
  return (std::filesystem::temp_directory_path() /
          ("warplens_explain_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

/// The committed transpose fixture (PTX + SASS listing): no CUDA toolchain needed.
inline std::string fixtureArgs() {
  return std::string("--spec ") + WARPLENS_TEST_DATA + "/transpose16_small.json --sass " +
         WARPLENS_SOURCE_DIR + "/tests/sass/fixtures/seeds/transpose.sass";
}

} // namespace warplens::test
