/// \file
/// Names of memory spaces and operations, as they appear in reports, JSON and traces.
#include "model/AccessEvent.h"

namespace warplens::model {
namespace {
constexpr std::string_view kSpaceNames[] = {"global", "shared", "local", "const", "param", "generic"};
constexpr std::string_view kOpNames[] = {"ld", "st", "atom", "red"};
} // namespace

std::string_view toString(Space s) {
  auto i = static_cast<unsigned>(s);
  return i < std::size(kSpaceNames) ? kSpaceNames[i] : "?";
}

std::string_view toString(Op o) {
  auto i = static_cast<unsigned>(o);
  return i < std::size(kOpNames) ? kOpNames[i] : "?";
}

std::optional<Space> parseSpace(std::string_view s) {
  for (unsigned i = 0; i < std::size(kSpaceNames); ++i)
    if (s == kSpaceNames[i]) return static_cast<Space>(i);
  return std::nullopt;
}

std::optional<Op> parseOp(std::string_view s) {
  for (unsigned i = 0; i < std::size(kOpNames); ++i)
    if (s == kOpNames[i]) return static_cast<Op>(i);
  return std::nullopt;
}

} // namespace warplens::model
