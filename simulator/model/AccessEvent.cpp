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

AccessEvent BlockReplicas::moved(std::size_t k, std::size_t i) const {
  AccessEvent e = (*events)[k];
  std::uint64_t d = static_cast<std::uint64_t>(shift((*group)[k], i));
  if (d)
    for (unsigned l = 0; l < 32; ++l)
      if (e.active.test(l)) e.addr[l].value += d;
  e.block = blockLinear[i];
  return e;
}

void AccessListener::onReplicas(const BlockReplicas &r) {
  for (std::size_t i = 0; i < r.blocks.size(); ++i)
    for (std::size_t k = 0; k < r.events->size(); ++k) onAccess(r.moved(k, i));
}

} // namespace warplens::model
