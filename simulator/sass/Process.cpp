/// \file
/// posix_spawn-based process runner: no shell, stdout to a file, stderr captured via a temp file.
#include "sass/Process.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace warplens::sass {
namespace {

std::string tempPath(const char *tag) {
  static std::atomic<int> counter{0};
  std::filesystem::path dir = std::filesystem::temp_directory_path();
  return (dir / ("warplens-" + std::to_string(::getpid()) + "-" + std::to_string(++counter) +
                 "-" + tag))
      .string();
}

std::string slurp(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

} // namespace

Expected<ProcessResult> runProcess(const std::vector<std::string> &argv,
                                   const std::string &stdoutPath) {
  if (argv.empty()) return Error{"runProcess: empty command"};
  std::string errPath = tempPath("stderr");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1,
                                   stdoutPath.empty() ? "/dev/null" : stdoutPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                   0600);
  std::vector<char *> args;
  for (const std::string &a : argv) args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    std::error_code ec;
    std::filesystem::remove(errPath, ec);
    return Error{argv[0] + ": cannot start: " + std::strerror(rc)};
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ProcessResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.stderrText = slurp(errPath);
  std::error_code ec;
  std::filesystem::remove(errPath, ec);
  return result;
}

std::string captureOutput(const std::vector<std::string> &argv) {
  std::string outPath = tempPath("stdout");
  auto r = runProcess(argv, outPath);
  std::string text = r.ok() && r->exitCode == 0 ? slurp(outPath) : std::string();
  std::error_code ec;
  std::filesystem::remove(outPath, ec);
  return text;
}

} // namespace warplens::sass
