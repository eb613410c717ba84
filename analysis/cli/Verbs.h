/// \file
/// The CLI verbs. Each takes the arguments after the verb name and returns the exit status
/// (0 success, 1 checked mismatch, 2 bad input); messages go to `err`, results to `out`.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace warplens::cli {

using Args = std::vector<std::string>;

int patternMain(const Args &args, std::ostream &out, std::ostream &err);
int replayMain(const Args &args, std::ostream &out, std::ostream &err);
int analyzeMain(const Args &args, std::ostream &out, std::ostream &err);
int suiteMain(const Args &args, std::ostream &out, std::ostream &err);
int probeMain(const Args &args, std::ostream &out, std::ostream &err);
int compareMain(const Args &args, std::ostream &out, std::ostream &err);
int explainMain(const Args &args, std::ostream &out, std::ostream &err);
/// Prints every known architecture (warplens --list-arches).
int listArchesMain(std::ostream &out, std::ostream &err);

} // namespace warplens::cli
