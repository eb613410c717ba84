/// \file
/// `warplens analyze`: one kernel launch (from options or a spec file) through the offline
/// pipeline; prints per-instruction predictions as text, JSON or HTML.
#include "analysis/Pipeline.h"
#include "analysis/cli/Verbs.h"
#include "analysis/views/ReportBuilder.h"
#include "arch/ArchSpec.h"

#include <boost/program_options.hpp>

#include <filesystem>
#include <optional>
#include <ostream>
#include <sstream>

namespace warplens::cli {

namespace po = boost::program_options;
using nlohmann::json;

namespace {

const char *kArgHelp =
    "--arg SPEC, one per kernel parameter, in order:\n"
    "  buf:NAME:TYPE:COUNT[:INIT][@OFFSET]   a buffer of COUNT elements of TYPE; INIT is zero\n"
    "                                       (default), poison, iota, random:SEED or file:PATH;\n"
    "                                       @OFFSET passes the pointer OFFSET bytes in\n"
    "  TYPE:VALUE                           a scalar, e.g. i32:2048, f32:0.5, u64:7\n"
    "  TYPE is i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64. Several args may name one buffer.\n"
    "example: warplens analyze kernels/transpose.cu --kernel transposeNaive_f32 --grid 64,256\n"
    "         --block 32,8 --arg buf:out:f32:4194304:poison --arg buf:in:f32:4194304:iota\n"
    "         --arg i32:2048 --arg i32:2048 --check '{\"out\":{\"transpose_of\":\"in\",\"rows\":2048,\"cols\":2048}}'\n";

Expected<json> parseDims(const std::string &text, const std::string &opt) {
  json dims = json::array();
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 10)
      return Error{opt + " '" + text + "': expected X[,Y[,Z]] positive integers"};
    dims.push_back(std::stoull(part));
  }
  if (dims.empty() || dims.size() > 3) return Error{opt + " '" + text + "': expected X[,Y[,Z]]"};
  return dims;
}

/// One --arg token → the launch spec's JSON argument object.
Expected<json> parseArgToken(const std::string &tok) {
  auto fail = [&](const std::string &why) { return Error{"--arg '" + tok + "': " + why}; };
  if (tok.rfind("buf:", 0) == 0) {
    std::vector<std::string> f;
    std::size_t pos = 4;
    for (int i = 0; i < 3; ++i) {
      std::size_t c = tok.find(':', pos);
      f.push_back(tok.substr(pos, c == std::string::npos ? std::string::npos : c - pos));
      if (c == std::string::npos) {
        pos = std::string::npos;
        break;
      }
      pos = c + 1;
    }
    if (f.size() < 3) return fail("expected buf:NAME:TYPE:COUNT[:INIT][@OFFSET]");
    std::string init = pos == std::string::npos ? "" : tok.substr(pos);
    std::string countText = f[2];
    std::string offset;
    std::string &tail = init.empty() ? countText : init;
    if (auto at = tail.rfind('@'); at != std::string::npos &&
                                   tail.find_first_not_of("0123456789", at + 1) == std::string::npos) {
      offset = tail.substr(at + 1);
      tail = tail.substr(0, at);
    }
    if (f[0].empty()) return fail("empty buffer name");
    if (countText.empty() || countText.find_first_not_of("0123456789") != std::string::npos ||
        countText.size() > 19)
      return fail("COUNT '" + countText + "' is not a positive integer");
    json a = {{"buffer", f[0]}, {"type", f[1]}, {"count", std::stoull(countText)}};
    if (!init.empty()) a["init"] = init;
    if (!offset.empty()) {
      if (offset.size() > 19) return fail("OFFSET too large");
      a["offset_bytes"] = std::stoull(offset);
    }
    return a;
  }
  std::size_t c = tok.find(':');
  if (c == std::string::npos) return fail("expected TYPE:VALUE or buf:NAME:TYPE:COUNT[:INIT]");
  std::string type = tok.substr(0, c), value = tok.substr(c + 1);
  json v;
  try {
    v = json::parse(value);
  } catch (const json::exception &) {
    return fail("VALUE '" + value + "' is not a number");
  }
  if (!v.is_number()) return fail("VALUE '" + value + "' is not a number");
  return json{{"value", v}, {"type", type}};
}

} // namespace

const char *launchArgHelp() { return kArgHelp; }

void addLaunchOptions(po::options_description &desc, LaunchCommand &c) {
  desc.add_options()
      ("kernel", po::value(&c.kernel), "kernel name: mangled, demangled or unique prefix")
      ("grid", po::value(&c.grid), "grid X[,Y[,Z]]")
      ("block", po::value(&c.block), "block X[,Y[,Z]]")
      ("arg", po::value(&c.args), "kernel parameter (see below), repeat in order")
      ("dynamic-shared", po::value(&c.dynamicShared), "dynamic shared memory bytes")
      ("check", po::value(&c.check), "functional check as JSON, as in a launch spec")
      ("nvcc-flag", po::value(&c.nvccFlags), "extra nvcc flag (repeat)")
      ("spec", po::value(&c.spec), "launch spec or suite JSON instead of the options above")
      ("name", po::value(&c.name), "with --spec: the launch to use (default: all)")
      ("input", po::value(&c.input), "the .cu or .ptx file");
}

Expected<std::vector<launch::LaunchSpec>> launchSpecs(const LaunchCommand &c) {
  std::vector<launch::LaunchSpec> specs;
  if (!c.spec.empty()) {
    if (!c.input.empty() || !c.kernel.empty() || !c.grid.empty() || !c.block.empty() ||
        !c.args.empty())
      return Error{"--spec: give either a spec file or FILE --kernel --grid --block, not both"};
    WL_TRY(loaded, launch::loadSpecFile(c.spec));
    for (auto &s : loaded)
      if (c.name.empty() || s.name == c.name) specs.push_back(std::move(s));
    if (specs.empty()) {
      std::string names;
      for (const auto &s : loaded) names += " " + s.name;
      return Error{c.spec + ": --name '" + c.name + "': no such launch (have:" + names + ")"};
    }
    return specs;
  }
  if (c.input.empty()) return Error{"missing input FILE.cu|FILE.ptx (or --spec FILE.json); see --help"};
  for (const auto &[opt, v] : {std::pair<const char *, const std::string *>{"kernel", &c.kernel},
                               {"grid", &c.grid}, {"block", &c.block}})
    if (v->empty()) return Error{std::string("--") + opt + " is required with an input file"};
  json j = {{"name", c.kernel}, {"source", c.input}, {"kernel", c.kernel}, {"args", json::array()}};
  WL_TRY(g, parseDims(c.grid, "--grid"));
  WL_TRY(b, parseDims(c.block, "--block"));
  j["grid"] = g;
  j["block"] = b;
  if (c.dynamicShared) j["dynamic_shared_bytes"] = c.dynamicShared;
  for (const auto &t : c.args) {
    WL_TRY(a, parseArgToken(t));
    j["args"].push_back(a);
  }
  if (!c.nvccFlags.empty()) j["nvcc_flags"] = c.nvccFlags;
  if (!c.check.empty()) {
    try {
      j["check"] = json::parse(c.check);
    } catch (const json::exception &e) {
      return Error{"--check: not valid JSON: " + std::string(e.what())};
    }
  }
  auto s = launch::parseLaunch(j, std::filesystem::current_path().string(), "command line");
  if (!s) {
    Error e = s.error();
    // Name the --arg token behind "args[i]" too.
    auto p = e.message.find("args[");
    if (p != std::string::npos) {
      std::size_t i = std::strtoul(e.message.c_str() + p + 5, nullptr, 10);
      if (i < c.args.size()) e.message += " (--arg '" + c.args[i] + "')";
    }
    return e;
  }
  specs.push_back(std::move(*s));
  return specs;
}

int analyzeMain(const Args &args, std::ostream &out, std::ostream &err) {
  po::options_description desc("options");
  LaunchCommand launchCmd;
  std::string engine = "auto";
  std::string mode = "auto";
  std::string sass = "auto", arch = "sm_90", format = "text", output, tracePath, htmlOut,
      measuredPath;
  unsigned threads = 0;
  std::uint64_t sampleBlocks = 0; // --sample-blocks
  desc.add_options()("help,h", "this help");
  addLaunchOptions(desc, launchCmd);
  std::string deviceName; // --device (time model)
  desc.add_options()
      ("sass", po::value(&sass), "auto | none | FILE (a cuobjdump/nvdisasm listing)")
      ("engine", po::value(&engine),
       "auto | sass | ptx: sass executes the cubin's own SASS (exact per instruction, the default "
       "when nvcc and nvdisasm are available); ptx emulates the PTX and maps accesses to SASS")
      ("mode", po::value(&mode),
       "auto | full | address (SASS engine): address skips every instruction no address, guard or "
       "branch depends on (an SGEMM's FFMAs): identical counts, no values, no functional check; "
       "auto picks it for launches without a check")
      ("sample-blocks", po::value(&sampleBlocks),
       "run only N blocks (one per equal stratum of the grid) and extrapolate every count, with "
       "a 95% confidence interval per instruction in the JSON \"sampling\"; for launches too "
       "large to run whole. Only without a functional check; 0 (default) = exact, every block")
      ("arch", po::value(&arch), "architecture (warplens --list-arches)")
      ("device", po::value(&deviceName),
       "GPU of the time model: h100_sxm (default for sm_90), h200, or FILE.json")
      ("format", po::value(&format), "text | json | html")
      ("output,o", po::value(&output), "write here instead of stdout")
      ("html", po::value(&htmlOut), "also write the HTML report to this file")
      ("measured", po::value(&measuredPath),
       "HTML report: add measured columns and verdicts from this probe JSON or ncu CSV")
      ("threads", po::value(&threads), "emulator worker threads (0 = all cores)")
      ("trace", po::value(&tracePath),
       "also write the access events the models see (after SASS grouping, with SASS site ids; "
       "labels give pc, SASS, PTX and source line) to this versioned trace FILE.wlt for "
       "`warplens replay`; the emulator then runs on one worker so the events are in one file, "
       "in order. One launch only.");
  po::positional_options_description pos;
  pos.add("input", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    err << "warplens analyze: " << e.what() << "\n";
    return 2;
  }
  if (vm.count("help")) {
    out << "usage: warplens analyze FILE.cu|FILE.ptx --kernel NAME --grid X,Y,Z --block X,Y,Z\n"
           "                        [--arg SPEC]... [--check JSON]\n"
           "       warplens analyze --spec FILE.json [--name LAUNCH]\n"
           "       common: [--sass auto|FILE|none] [--arch sm_90] [--format text|json|html]\n"
           "               [-o FILE] [--threads N] [--trace FILE.wlt]\n"
           "               [--html FILE] [--measured FILE]\n\n"
           "Emulates the launch and predicts, per memory instruction, requests, 32-byte sectors,\n"
           "ideal sectors, shared wavefronts and conflict ways (Nsight Compute metric names).\n"
           "--trace records the warp accesses (one worker); `warplens replay FILE.wlt` then\n"
           "reproduces the per-instruction sectors and wavefronts from the file alone.\n"
           "Exit status: 0 ok, 1 functional check failed, 2 bad input.\n\n"
        << desc << "\n" << kArgHelp;
    return 0;
  }
  auto fail = [&](const Error &e) {
    err << "warplens analyze: " << e.message << "\n";
    return e.status ? e.status : 2;
  };
  if (format != "text" && format != "json" && format != "html")
    return fail(Error{"--format: unknown format '" + format + "' (expected text, json or html)"});

  const bool html = format == "html" || !htmlOut.empty();
  if (!measuredPath.empty() && !html)
    return fail(Error{"--measured '" + measuredPath +
                      "': only the HTML report uses it; add --html FILE or --format html "
                      "(or use warplens compare)"});
  auto specs = launchSpecs(launchCmd);
  if (!specs) return fail(specs.error());
  if (!tracePath.empty() && specs->size() > 1)
    return fail(Error{"--trace '" + tracePath + "': " + launchCmd.spec + " holds " +
                      std::to_string(specs->size()) + " launches; pick one with --name"});

  analysis::AnalyzeOptions opt;
  opt.arch = arch;
  opt.device = deviceName;
  opt.sass = sass;
  opt.engine = engine;
  opt.mode = mode;
  if (sampleBlocks > 65536) { // one per-block collector each: keep memory bounded
    err << "warplens analyze: --sample-blocks " << sampleBlocks << ": at most 65536 blocks can be sampled\n";
    return 2;
  }
  opt.sampleBlocks = sampleBlocks;
  opt.threads = threads;
  opt.tracePath = tracePath;
  analysis::Pipeline pipeline(opt);
  std::vector<launch::LaunchResult> results;
  analysis::Report report;
  report.title = "warplens report: " + (launchCmd.spec.empty() ? launchCmd.input : launchCmd.spec);
  report.command = "warplens analyze " + (launchCmd.spec.empty() ? launchCmd.input : launchCmd.spec);
  std::optional<arch::ArchSpec> archSpec;
  if (html) {
    auto a = arch::loadArch(arch);
    if (!a) return fail(Error{"--arch: " + a.error().message});
    archSpec = std::move(*a);
  }
  std::vector<std::string> sourceDirs;
  for (const auto &s : *specs) {
    analysis::RunDetail detail;
    detail.wantWorst = html; // the report draws the costliest warp of costly instructions
    auto r = pipeline.analyze(s, &detail);
    if (!r) return fail(r.error());
    if (html) {
      report.launches.push_back(analysis::reportLaunch(*r, &detail, &s, &*archSpec));
      sourceDirs.push_back(std::filesystem::path(s.source).parent_path().string());
    }
    results.push_back(std::move(*r));
  }
  std::string page;
  if (html) {
    auto p = analysis::renderReportPage(std::move(report), measuredPath, sourceDirs);
    if (!p) return fail(p.error());
    page = std::move(*p);
    if (!htmlOut.empty())
      if (auto w = analysis::writeOutput(page, htmlOut, out); !w) return fail(w.error());
  }
  auto text = format == "html" ? Expected<std::string>(page) : analysis::renderResults(results, format);
  if (!text) return fail(text.error());
  if (auto w = analysis::writeOutput(*text, output, out); !w) return fail(w.error());
  int status = 0;
  for (const auto &r : results)
    if (r.checkPassed && !*r.checkPassed) {
      err << "warplens analyze: " << r.name << ": functional check FAILED: " << r.checkDetail << "\n";
      status = 1;
    }
  return status;
}

} // namespace warplens::cli
