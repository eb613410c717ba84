/// \file
/// `warplens probe` (placeholder until its issue lands: says so and exits 2).
#include "analysis/cli/Verbs.h"

#include <ostream>

namespace warplens::cli {

int probeMain(const Args &, std::ostream &, std::ostream &err) {
  err << "warplens probe: not built yet\n";
  return 2;
}

} // namespace warplens::cli
