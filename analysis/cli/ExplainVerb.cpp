/// \file
/// `warplens explain`: the teaching view of one pattern (same options as `pattern`): what
/// conflicts, why, and which padding or swizzle removes it. Kernel instructions: not yet.
#include "analysis/cli/Verbs.h"
#include "analysis/pattern/PatternCommandLine.h"
#include "analysis/pattern/PatternExplainer.h"
#include "analysis/views/PatternExplainView.h"

#include <ostream>

namespace warplens::cli {

namespace {

/// The analyzed-kernel form: a positional file or --kernel/--spec/--pc/--line.
bool isKernelForm(const Args &args) {
  if (!args.empty() && !args.front().empty() && args.front()[0] != '-') return true;
  for (const std::string &a : args)
    for (const char *k : {"--kernel", "--spec", "--pc", "--line", "--instruction"})
      if (a == k || a.rfind(std::string(k) + "=", 0) == 0) return true;
  return false;
}

} // namespace

int explainMain(const Args &args, std::ostream &out, std::ostream &err) {
  if (isKernelForm(args)) {
    err << "warplens explain: explaining one instruction of an analyzed kernel is not available "
           "yet.\n  Use `warplens analyze FILE --kernel NAME ...` for per-instruction counts, and "
           "`warplens explain --space shared|global --index EXPR ...` to explain an index "
           "pattern.\n";
    return 2;
  }
  auto cmd = analysis::parsePatternCommand(args, "explain", {"text", "json"});
  if (!cmd) {
    err << "warplens explain: " << cmd.error().message << "\n";
    return cmd.error().status;
  }
  if (cmd->help) {
    out << "usage: warplens explain --space shared|global --index EXPR --elem BYTES --block X,Y,Z\n"
           "         [options of warplens pattern] [--format text|json]\n\n"
           "Explains one index pattern: what conflicts (or wastes sectors), which lanes collide on\n"
           "which bank and why, and which rewrite removes it — padding each row (+1, +2, ...\n"
           "elements, when the index has the form row*W + col with W a number or a --let of a\n"
           "number), padding every bank row (index + index/32), or an XOR swizzle (col ^ row);\n"
           "for global memory swapping tx/ty or aligning --base. Every candidate is evaluated\n"
           "with the same model and its wavefronts/sectors shown.\n\n"
        << analysis::patternOptionsHelp("explain");
    return 0;
  }
  auto ex = analysis::explainPattern(cmd->options);
  if (!ex) {
    err << "warplens explain: " << ex.error().message << "\n";
    return ex.error().status;
  }
  if (cmd->format == "json") out << analysis::explainToJson(*ex).dump(2) << "\n";
  else out << analysis::renderExplainText(*ex);
  return 0;
}

} // namespace warplens::cli
