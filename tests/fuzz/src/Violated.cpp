/// \file
/// The shared failure path of the fuzz targets (see FuzzTargets.h).
#include "FuzzTargets.h"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace warplens::fuzz {

void violated(const char *target, const std::string_view what) {
  std::fprintf(stderr, "fuzz target %s: invariant broken: %s\n", target, std::string(what).c_str());
  std::abort();
}

} // namespace warplens::fuzz
