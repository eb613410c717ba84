/// \file
/// One golden case (a folder under tests/golden/ with `cmd`, `expected.json`/`expected.txt`,
/// optional `expected_status` and `requires`): discovery, and running the CLI from the repo root.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace warplens::golden {

/// What a case folder holds.
struct GoldenCase {
  std::string name;                        ///< folder name
  std::filesystem::path dir;
  std::string args;                        ///< `cmd`: warplens arguments, shell-quoted, one line
  int expectedStatus = 0;                  ///< `expected_status`, 0 when absent
  std::optional<std::string> expectedText; ///< `expected.txt`: stdout (status 0) or stderr
  std::optional<std::string> expectedJson; ///< `expected.json`: stdout of the JSON run
  std::vector<std::string> requirements;      ///< `requires`: lines "TOOL [TEXT IN TOOL --version]"
};

/// Output of one CLI run.
struct CliOutput {
  int status = -1; ///< exit status, -1 when killed by a signal
  std::string out, err;
};

/// Every sub-folder of `root` that holds a `cmd` file, sorted by name.
std::vector<GoldenCase> discoverCases(const std::filesystem::path &root);

/// Reads one case folder; an unreadable or empty `cmd` gives args "".
GoldenCase loadCase(const std::filesystem::path &dir);

/// True when `args` already choose an output format (`--format X` or `--format=X`).
bool hasFormatOption(const std::string &args);

/// The arguments of the JSON run: `args` as is when they choose a format, else `args --format json`.
std::string jsonArgs(const std::string &args);

/// Why the case cannot run here ("" when it can): a `requires` tool that is not found on $PATH,
/// $WARPLENS_CUDA_TOOLS, $CUDA_HOME/bin, /usr/local/cuda/bin or ROOT/.tools/cuda/bin (where the
/// CUDA toolchain runner looks), or whose `--version` lacks the required text.
std::string missingRequirement(const GoldenCase &c, const std::filesystem::path &repoRoot);

/// Runs `bin ARGS` through /bin/sh in `workDir` (so quoting in `cmd` follows the shell) and
/// captures stdout, stderr and the exit status. Every "WORKDIR/" in the output is removed, so that
/// absolute paths read as paths relative to the repo root. WARPLENS_CACHE points at an empty
/// folder made once per process: results never depend on a stale toolchain cache.
CliOutput runCli(const std::string &bin, const std::string &args,
                 const std::filesystem::path &workDir);

/// The whole content of a file ("" when it cannot be read).
std::string readFile(const std::filesystem::path &path);

} // namespace warplens::golden
