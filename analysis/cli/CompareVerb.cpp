/// \file
/// `warplens compare` (placeholder until its issue lands: says so and exits 2).
#include "analysis/cli/Verbs.h"

#include <ostream>

namespace warplens::cli {

int compareMain(const Args &, std::ostream &, std::ostream &err) {
  err << "warplens compare: not built yet\n";
  return 2;
}

} // namespace warplens::cli
