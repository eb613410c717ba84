/// \file
/// Boost program_options table of `pattern`/`explain`, value checks with messages that name the
/// option and value, and the --help text that teaches the expression language.
#include "analysis/pattern/PatternCommandLine.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace po = boost::program_options;

namespace warplens::analysis {

namespace {

po::options_description table() {
  po::options_description d("options");
  d.add_options()
      ("help,h", "this help")
      ("space", po::value<std::string>(), "shared | global (required)")
      ("op", po::value<std::string>()->default_value("ld"), "ld | st")
      ("index", po::value<std::string>(), "element index expression (required)")
      ("elem", po::value<std::string>(), "bytes per element and lane: 1, 2, 4, 8, 16 (required)")
      ("block", po::value<std::string>(), "block shape X,Y,Z (required; Y, Z default to 1)")
      ("grid", po::value<std::string>()->default_value("1,1,1"), "grid shape X,Y,Z")
      ("let", po::value<std::vector<std::string>>()->composing(),
       "NAME=EXPR, a named sub-expression (repeatable, evaluated in order)")
      ("base", po::value<std::string>()->default_value("0"), "byte address of element 0 (decimal or 0x hex)")
      ("arch", po::value<std::string>()->default_value("sm_90"), "architecture (warplens --list-arches)")
      ("warp", po::value<std::string>(), "the N-th warp of block (0,0,0) (default 0)")
      ("all", po::bool_switch(), "every warp of the grid: totals and a histogram")
      ("mask", po::value<std::string>(), "active-lane expression (non-zero = active)")
      ("format", po::value<std::string>()->default_value("text"), "output format");
  return d;
}

Expected<std::uint64_t> parseUnsigned(const std::string &opt, const std::string &s) {
  std::uint64_t v = 0;
  bool hex = s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  std::size_t i = hex ? 2 : 0;
  bool ok = i < s.size();
  for (; ok && i < s.size(); ++i) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[i])));
    unsigned d = std::isdigit(static_cast<unsigned char>(c)) ? unsigned(c - '0')
                 : (hex && c >= 'a' && c <= 'f')             ? unsigned(c - 'a' + 10)
                                                             : 99;
    if (d >= (hex ? 16u : 10u) || v > (~std::uint64_t(0) - d) / (hex ? 16 : 10)) ok = false;
    else v = v * (hex ? 16 : 10) + d;
  }
  if (!ok) return Error{opt + ": '" + s + "' is not a non-negative integer"};
  return v;
}

Expected<Dim3> parseDim(const std::string &opt, const std::string &s) {
  std::vector<unsigned> parts;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ',')) {
    auto v = parseUnsigned(opt, item);
    if (!v || *v == 0 || *v > 0x7fffffffu)
      return Error{opt + ": '" + s + "' is not X,Y,Z (one to three positive integers); bad part '" +
                   item + "'"};
    parts.push_back(static_cast<unsigned>(*v));
  }
  if (parts.empty() || parts.size() > 3 || (!s.empty() && s.back() == ','))
    return Error{opt + ": '" + s + "' is not X,Y,Z (one to three positive integers)"};
  Dim3 d;
  d.x = parts[0];
  if (parts.size() > 1) d.y = parts[1];
  if (parts.size() > 2) d.z = parts[2];
  return d;
}

std::string trim(const std::string &s) {
  auto b = s.find_first_not_of(" \t");
  auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

} // namespace

Expected<PatternCommand> parsePatternCommand(const std::vector<std::string> &args,
                                             std::string_view verb,
                                             const std::vector<std::string> &formats) {
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(args).options(table()).run(), vm);
    po::notify(vm);
  } catch (const po::error &e) {
    return Error{"warplens " + std::string(verb) + ": " + e.what() +
                 " (warplens " + std::string(verb) + " --help)"};
  }
  PatternCommand cmd;
  if (vm.count("help")) {
    cmd.help = true;
    return cmd;
  }
  PatternOptions &o = cmd.options;
  for (const char *req : {"space", "index", "elem", "block"})
    if (!vm.count(req))
      return Error{"missing --" + std::string(req) + " (see warplens " + std::string(verb) +
                   " --help)"};
  const std::string space = vm["space"].as<std::string>();
  if (space == "shared") o.space = model::Space::Shared;
  else if (space == "global") o.space = model::Space::Global;
  else return Error{"--space: '" + space + "'; expected shared or global"};
  const std::string op = vm["op"].as<std::string>();
  if (op == "ld") o.op = model::Op::Load;
  else if (op == "st") o.op = model::Op::Store;
  else return Error{"--op: '" + op + "'; expected ld or st"};
  o.index = vm["index"].as<std::string>();
  WL_TRY(elem, parseUnsigned("--elem", vm["elem"].as<std::string>()));
  if (elem != 1 && elem != 2 && elem != 4 && elem != 8 && elem != 16)
    return Error{"--elem: '" + vm["elem"].as<std::string>() + "'; expected 1, 2, 4, 8 or 16"};
  o.elem = static_cast<unsigned>(elem);
  WL_TRY(block, parseDim("--block", vm["block"].as<std::string>()));
  o.block = block;
  WL_TRY(grid, parseDim("--grid", vm["grid"].as<std::string>()));
  o.grid = grid;
  WL_TRY(base, parseUnsigned("--base", vm["base"].as<std::string>()));
  o.base = base;
  o.arch = vm["arch"].as<std::string>();
  if (vm.count("mask")) o.mask = vm["mask"].as<std::string>();
  o.all = vm["all"].as<bool>();
  if (vm.count("warp")) {
    if (o.all) return Error{"--warp and --all: choose one"};
    WL_TRY(w, parseUnsigned("--warp", vm["warp"].as<std::string>()));
    if (w > 0xffffffu) return Error{"--warp: '" + vm["warp"].as<std::string>() + "' is too large"};
    o.warp = static_cast<unsigned>(w);
  }
  if (vm.count("let")) {
    for (const std::string &let : vm["let"].as<std::vector<std::string>>()) {
      auto eq = let.find('=');
      if (eq == std::string::npos || trim(let.substr(0, eq)).empty() ||
          trim(let.substr(eq + 1)).empty())
        return Error{"--let: '" + let + "' is not NAME=EXPR (e.g. --let row=ty)"};
      o.lets.emplace_back(trim(let.substr(0, eq)), let.substr(eq + 1));
    }
  }
  cmd.format = vm["format"].as<std::string>();
  if (std::find(formats.begin(), formats.end(), cmd.format) == formats.end()) {
    std::string list;
    for (const auto &f : formats) list += (list.empty() ? "" : "|") + f;
    return Error{"--format: '" + cmd.format + "'; expected " + list};
  }
  return cmd;
}

std::string expressionHelp() {
  return R"(expressions (--index, --mask, --let):
  variables  tx ty tz      thread index in the block        ntx nty ntz  block shape
             bx by bz      block index in the grid          nbx nby nbz  grid shape
             gx gy gz      global thread index (gx = bx*ntx + tx, ...)
             lane          0..31 in the warp                warp         warp index in the block
             NAME          any --let NAME=EXPR defined before use
  numbers    64-bit signed integers, decimal or 0x hex
  operators  (C precedence, tightest first)
             unary - ! ~  |  * / %  |  + -  |  << >>  |  < <= > >=  |  == !=  |  &  |  ^  |  |
             |  &&  ||  (comparisons give 0 or 1; && and || short-circuit)
  functions  min(a, b)  max(a, b)
  The index is in elements: byte address = index * --elem + --base.
  Warps are 32 consecutive linear thread ids, linear = tx + ty*ntx + tz*ntx*nty; a partial last
  warp has inactive lanes, and so do lanes where --mask is 0.
)";
}

std::string patternOptionsHelp(std::string_view verb) {
  std::ostringstream os;
  os << table() << "\n" << expressionHelp();
  os << R"X(
examples:
  # transpose through a 32x32 float tile: reading a column is a 32-way bank conflict ...
  warplens )X" << verb << R"X( --space shared --index "tx*32 + ty" --elem 4 --block 32,8
  # ... padding each row to 33 floats puts the column in 32 different banks
  warplens )X" << verb << R"X( --space shared --index "tx*33 + ty" --elem 4 --block 32,8
  # an XOR swizzle does the same without extra memory
  warplens )X" << verb << R"X( --space shared --let row=tx --let col=ty --index "row*32 + (col ^ row)" --elem 4 --block 32,8
  # global: a float array read one element off 32-byte alignment touches 5 sectors, not 4
  warplens )X" << verb << R"X( --space global --index "gx + 1" --elem 4 --block 256 --grid 4
)X";
  return os.str();
}

} // namespace warplens::analysis
