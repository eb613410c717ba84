/// \file
/// `warplens pattern`: evaluates an index expression over a block's warps and shows banks,
/// sectors and the counts (text, JSON or SVG).
#include "analysis/cli/Verbs.h"
#include "analysis/pattern/PatternCommandLine.h"
#include "analysis/pattern/PatternRunner.h"
#include "analysis/views/PatternViews.h"

#include <ostream>

namespace warplens::cli {

int patternMain(const Args &args, std::ostream &out, std::ostream &err) {
  auto cmd = analysis::parsePatternCommand(args, "pattern", {"text", "json", "svg"});
  if (!cmd) {
    err << "warplens pattern: " << cmd.error().message << "\n";
    return cmd.error().status;
  }
  if (cmd->help) {
    out << "usage: warplens pattern --space shared|global --index EXPR --elem BYTES --block X,Y,Z\n"
           "         [--op ld|st] [--grid X,Y,Z] [--let NAME=EXPR]... [--base ADDR] [--arch sm_90]\n"
           "         [--warp N | --all] [--mask EXPR] [--format text|json|svg]\n\n"
           "Draws what each lane of a warp touches for one index expression: shared-memory banks\n"
           "and wavefronts (bank conflicts), or global 32-byte sectors (coalescing).\n\n"
        << analysis::patternOptionsHelp("pattern")
        << "\nsee also: warplens explain (same options) proposes padding and swizzles.\n";
    return 0;
  }
  auto report = analysis::runPattern(cmd->options);
  if (!report) {
    err << "warplens pattern: " << report.error().message << "\n";
    return report.error().status;
  }
  if (cmd->format == "json") out << analysis::patternToJson(*report).dump(2) << "\n";
  else if (cmd->format == "svg") out << analysis::renderPatternSvg(*report);
  else out << analysis::renderPatternText(*report);
  return 0;
}

} // namespace warplens::cli
