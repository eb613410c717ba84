/// \file
/// Runs an external program without a shell (posix_spawn), sending its stdout to a file and
/// capturing its stderr as text. Used for nvcc, ptxas, nvdisasm and cuobjdump.
#pragma once

#include "util/Expected.h"

#include <string>
#include <vector>

namespace warplens::sass {

struct ProcessResult {
  int exitCode = -1;      ///< the program's exit status; -1 when it died on a signal
  std::string stderrText; ///< everything it wrote to stderr
};

/// Runs argv[0] (an absolute path) with `argv`; stdout goes to `stdoutPath` ("" = discarded).
/// An Error only when the program cannot be started at all.
Expected<ProcessResult> runProcess(const std::vector<std::string> &argv,
                                   const std::string &stdoutPath);

/// Runs a program and returns its stdout as text (for `--version`); empty on any failure.
std::string captureOutput(const std::vector<std::string> &argv);

} // namespace warplens::sass
