/// \file
/// Command-line options shared by `warplens pattern` and `warplens explain` (Boost
/// program_options), parsed into PatternOptions; and their teaching --help text.
#pragma once

#include "analysis/pattern/PatternReport.h"
#include "util/Expected.h"

#include <string>
#include <string_view>
#include <vector>

namespace warplens::analysis {

struct PatternCommand {
  PatternOptions options;
  std::string format = "text";
  bool help = false;
};

/// Parses `args` (the words after the verb). `formats` lists the accepted --format values.
/// Errors name the option and the offending value.
Expected<PatternCommand> parsePatternCommand(const std::vector<std::string> &args,
                                             std::string_view verb,
                                             const std::vector<std::string> &formats);

/// The options table and the language reference, for `warplens <verb> --help`.
std::string patternOptionsHelp(std::string_view verb);
/// The expression language reference with examples.
std::string expressionHelp();

} // namespace warplens::analysis
