/// \file
/// The CLI verbs. Each takes the arguments after the verb name and returns the exit status
/// (0 success, 1 checked mismatch, 2 bad input); messages go to `err`, results to `out`.
#pragma once

#include "launch/LaunchSpec.h"
#include "util/Expected.h"

#include <iosfwd>
#include <string>
#include <vector>

namespace boost::program_options {
class options_description;
}

namespace warplens::cli {

using Args = std::vector<std::string>;

int patternMain(const Args &args, std::ostream &out, std::ostream &err);
int replayMain(const Args &args, std::ostream &out, std::ostream &err);
int analyzeMain(const Args &args, std::ostream &out, std::ostream &err);
int suiteMain(const Args &args, std::ostream &out, std::ostream &err);
int probeMain(const Args &args, std::ostream &out, std::ostream &err);
int compareMain(const Args &args, std::ostream &out, std::ostream &err);
int explainMain(const Args &args, std::ostream &out, std::ostream &err);
/// warplens fit: time-model coefficients from measured durations (perf/TimeFit.h).
int fitMain(const Args &args, std::ostream &out, std::ostream &err);
/// The launch options `analyze` and `explain` share: FILE.cu|.ptx --kernel --grid --block
/// [--arg]... [--dynamic-shared] [--check] [--nvcc-flag]... | --spec FILE.json [--name LAUNCH].
struct LaunchCommand {
  std::string input, kernel, grid, block, spec, name, check;
  std::vector<std::string> args, nvccFlags;
  unsigned dynamicShared = 0;
};
/// Adds the LaunchCommand options to `desc`, storing into `cmd` (the positional input is "input").
void addLaunchOptions(boost::program_options::options_description &desc, LaunchCommand &cmd);
/// The launches a LaunchCommand names (every launch of the spec file unless --name); errors name
/// the option or --arg token.
Expected<std::vector<launch::LaunchSpec>> launchSpecs(const LaunchCommand &cmd);
/// Help text of --arg tokens (with an example).
const char *launchArgHelp();

/// Prints every known architecture (warplens --list-arches).
int listArchesMain(std::ostream &out, std::ostream &err);

} // namespace warplens::cli
