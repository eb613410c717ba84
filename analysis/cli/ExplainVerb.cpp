/// \file
/// `warplens explain`: the teaching view of one pattern (same options as `pattern`): what
/// conflicts, why, and which padding or swizzle removes it; or of instructions of an analyzed
/// kernel (--pc / --line): totals, the costliest warp drawn lane by lane, what ideal would take.
#include "analysis/Pipeline.h"
#include "analysis/cli/Verbs.h"
#include "analysis/pattern/PatternCommandLine.h"
#include "analysis/pattern/PatternExplainer.h"
#include "analysis/views/InstructionViews.h"
#include "analysis/views/PatternExplainView.h"
#include "arch/ArchSpec.h"

#include <boost/program_options.hpp>

#include <optional>
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

namespace po = boost::program_options;

const char *kKernelUsage =
    "usage: warplens explain FILE.cu|FILE.ptx --kernel NAME --grid X,Y,Z --block X,Y,Z\n"
    "                        [--arg SPEC]... (--pc 0xNN | --line N)\n"
    "       warplens explain --spec FILE.json [--name LAUNCH] (--pc 0xNN | --line N)\n"
    "       common: [--sass auto|FILE|none] [--arch sm_90] [--format text|json] [--threads N]\n\n"
    "Analyzes the launch as `warplens analyze` does and explains one memory instruction (--pc:\n"
    "its SASS pc) or every memory instruction of a source line (--line; the PTX line when the\n"
    "PTX has no line info): SASS/PTX text and source line, the launch totals, the histogram of\n"
    "per-execution cost, and the costliest warp (most wavefronts for shared, most sectors for\n"
    "global; ties: lowest block and warp) lane by lane: address → word → bank, or address →\n"
    "sector, the bank diagram or sector map, conflict ways, how many executions were as bad,\n"
    "and what it would take to be ideal (for shared conflicts: row paddings and an XOR swizzle\n"
    "evaluated on that warp with the same model).\n"
    "Exit status: 0 ok, 2 bad input (an unknown --pc or a --line without memory instructions\n"
    "is named, with the pcs/lines that exist).\n\n";

/// "0x1c0", "1c0" with 0x, or decimal.
std::optional<std::uint64_t> parsePc(const std::string &text) {
  if (text.empty()) return std::nullopt;
  const bool hex = text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0;
  const std::string digits = hex ? text.substr(2) : text;
  if (digits.empty() || digits.size() > 16 ||
      digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoull(digits, nullptr, hex ? 16 : 10);
}

int explainKernel(const Args &args, std::ostream &out, std::ostream &err) {
  po::options_description desc("options");
  LaunchCommand launchCmd;
  std::string engine = "auto";
  std::string sass = "auto", arch = "sm_90", format = "text", pcText;
  int line = 0;
  unsigned threads = 0;
  desc.add_options()("help,h", "this help");
  addLaunchOptions(desc, launchCmd);
  std::string deviceName; // --device (time model)
  desc.add_options()
      ("pc", po::value(&pcText), "SASS pc of the instruction (0x01c0, as analyze prints it)")
      ("line", po::value(&line), "source line: explain every memory instruction on it")
      ("sass", po::value(&sass), "auto | none | FILE (a cuobjdump/nvdisasm listing)")
      ("engine", po::value(&engine),
       "auto | sass | ptx: sass executes the cubin's own SASS (exact per instruction, the default "
       "when nvcc and nvdisasm are available); ptx emulates the PTX and maps accesses to SASS")
      ("arch", po::value(&arch), "architecture (warplens --list-arches)")
      ("device", po::value(&deviceName),
       "GPU of the time model: h100_sxm (default for sm_90), h200, or FILE.json")
      ("format", po::value(&format), "text | json")
      ("threads", po::value(&threads), "emulator worker threads (0 = all cores)");
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  auto fail = [&](const Error &e) {
    err << "warplens explain: " << e.message << "\n";
    return e.status ? e.status : 2;
  };
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    return fail(Error{e.what()});
  }
  if (vm.count("help")) {
    out << kKernelUsage << desc << "\n" << launchArgHelp();
    return 0;
  }
  if (format != "text" && format != "json")
    return fail(Error{"--format: unknown format '" + format + "' (expected text or json)"});
  if (vm.count("pc") == vm.count("line"))
    return fail(Error{"give exactly one of --pc 0xNN or --line N (see warplens explain FILE --help)"});
  std::optional<std::uint64_t> pc;
  if (vm.count("pc")) {
    pc = parsePc(pcText);
    if (!pc) return fail(Error{"--pc '" + pcText + "': expected a SASS pc such as 0x01c0"});
  }
  auto specs = launchSpecs(launchCmd);
  if (!specs) return fail(specs.error());
  if (specs->size() > 1)
    return fail(Error{launchCmd.spec + ": holds " + std::to_string(specs->size()) +
                      " launches; pick one with --name"});
  auto archSpec = arch::loadArch(arch);
  if (!archSpec) return fail(Error{"--arch: " + archSpec.error().message});

  analysis::AnalyzeOptions opt;
  opt.arch = arch;
  opt.device = deviceName;
  opt.sass = sass;
  opt.engine = engine;
  opt.threads = threads;
  analysis::Pipeline pipeline(opt);
  analysis::RunDetail detail;
  detail.wantWorst = true;
  const launch::LaunchSpec &spec = specs->front();
  auto result = pipeline.analyze(spec, &detail);
  if (!result) return fail(result.error());
  auto which = analysis::selectInstructions(*result, pc, vm.count("line") ? std::optional<int>(line)
                                                                          : std::nullopt);
  if (!which) return fail(which.error());
  auto rep = analysis::explainInstructions(*result, detail, *which, spec, *archSpec);
  rep.selector = pc ? "--pc " + pcText : "--line " + std::to_string(line);
  if (format == "json") out << analysis::instructionExplainToJson(rep).dump(2) << "\n";
  else out << analysis::renderInstructionExplainText(rep);
  return 0;
}

} // namespace

int explainMain(const Args &args, std::ostream &out, std::ostream &err) {
  if (isKernelForm(args)) return explainKernel(args, out, err);
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
           "with the same model and its wavefronts/sectors shown.\n"
           "One instruction of a kernel instead: warplens explain FILE --kernel ... --pc 0xNN\n"
           "(or --line N, or --spec FILE.json); see warplens explain FILE --help.\n\n"
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
