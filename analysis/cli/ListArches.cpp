/// \file
/// `warplens --list-arches`: every architecture data file, with its parent and description.
#include "analysis/cli/Verbs.h"
#include "arch/ArchSpec.h"

#include <ostream>

namespace warplens::cli {

int listArchesMain(std::ostream &out, std::ostream &err) {
  for (const std::string &name : arch::listArches()) {
    auto spec = arch::loadArch(name);
    if (!spec) {
      err << "warplens: " << spec.error().message << "\n";
      return 2;
    }
    out << name << "  " << (spec->inherits.empty() ? "-" : "inherits " + spec->inherits) << "  "
        << spec->description << "\n";
  }
  return 0;
}

} // namespace warplens::cli
