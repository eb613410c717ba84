/// \file
/// The warplens command-line driver: picks the verb and hands it the remaining arguments.
#include "analysis/cli/Verbs.h"

#include <cstring>
#include <iostream>
#include <string>

namespace {

struct Verb {
  const char *name;
  int (*run)(const warplens::cli::Args &, std::ostream &, std::ostream &);
  const char *summary;
};

const Verb kVerbs[] = {
    {"pattern", warplens::cli::patternMain,
     "draw and count one index expression's warp accesses (banks, sectors)"},
    {"analyze", warplens::cli::analyzeMain,
     "emulate one kernel (.cu/.ptx) and predict per-instruction memory metrics"},
    {"suite", warplens::cli::suiteMain, "analyze every launch of a suite JSON"},
    {"probe", warplens::cli::probeMain, "run a suite on the GPU under CUPTI (measured JSON)"},
    {"compare", warplens::cli::compareMain, "predicted vs measured, per kernel and instruction"},
    {"explain", warplens::cli::explainMain, "teaching view of one pattern or instruction"},
    {"replay", warplens::cli::replayMain, "run the models over a recorded warp-access trace"},
    {"fit", warplens::cli::fitMain, "fit a device's time-model coefficients to measured durations"},
};

void usage(std::ostream &os) {
  os << "warplens: predict how CUDA kernels' warps touch memory, and check it on a GPU.\n\n"
        "usage: warplens <verb> [options]      (warplens <verb> --help for each)\n"
        "       warplens --list-arches\n\nverbs:\n";
  for (const Verb &v : kVerbs) os << "  " << v.name << std::string(10 - std::strlen(v.name), ' ')
                                  << v.summary << "\n";
  os << "\nexit status: 0 success, 1 checked mismatch, 2 bad input\n";
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(std::cerr);
    return 2;
  }
  std::string verb = argv[1];
  if (verb == "--help" || verb == "-h" || verb == "help") {
    usage(std::cout);
    return 0;
  }
  if (verb == "--list-arches") return warplens::cli::listArchesMain(std::cout, std::cerr);
  warplens::cli::Args rest(argv + 2, argv + argc);
  for (const Verb &v : kVerbs)
    if (verb == v.name) return v.run(rest, std::cout, std::cerr);
  std::cerr << "warplens: unknown verb '" << verb << "'\n\n";
  usage(std::cerr);
  return 2;
}
