/// \file
/// findSkippedSites: which memory instructions each forward branch jumps over, computed once at
/// load time so that a uniformly taken branch costs one list walk. Does not decide whether the
/// hardware executes them (ptxas if-conversion); sass::GroupingListener does, from the SASS.
#include "emu/Loader.h"

#include <algorithm>
#include <utility>

namespace warplens::emu {

namespace {

model::Space eventSpace(ptx::StateSpace s) {
  switch (s) {
  case ptx::StateSpace::Shared: return model::Space::Shared;
  case ptx::StateSpace::Local: return model::Space::Local;
  default: return model::Space::Global; // as the memory handlers report an all-inactive access
  }
}

} // namespace

Status findSkippedSites(Program &prog) {
  std::size_t total = 0;
  std::vector<DInstr> &code = prog.code;
  // (target, source) of every branch, sorted by target: who may enter a region's middle.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> entries;
  for (std::uint32_t pc = 0; pc < code.size(); ++pc)
    if (code[pc].op == ptx::Opcode::Bra) entries.emplace_back(code[pc].target, pc);
  std::sort(entries.begin(), entries.end());

  for (std::uint32_t pc = 0; pc < code.size(); ++pc) {
    DInstr &br = code[pc];
    br.skip = kNone;
    if (br.op != ptx::Opcode::Bra || br.target <= pc + 1 || br.target > code.size()) continue;
    const std::uint32_t end = br.target; // region: (pc, end)
    bool hammock = true;
    std::vector<Program::Skip> events;
    for (std::uint32_t q = pc + 1; q < end && hammock; ++q) {
      const DInstr &in = code[q];
      if (in.op == ptx::Opcode::Bra && in.target <= q) hammock = false; // a loop inside or around
      if (!in.emit) continue;
      model::AccessEvent e;
      e.site = in.site;
      e.space = eventSpace(in.space);
      e.op = in.memOp;
      e.widthBytes = static_cast<std::uint8_t>(in.width * in.vec);
      e.active = LaneMask{0u};
      e.skipped = true;
      events.push_back({q, e});
    }
    if (!hammock || events.empty()) continue;
    // A branch from outside [pc, end) landing after the region's first instruction: the region
    // is not entered only from the top, not a shape ptxas predicates.
    auto it = std::upper_bound(entries.begin(), entries.end(), std::make_pair(pc + 1, kNone));
    for (; it != entries.end() && it->first < end && hammock; ++it)
      if (it->second < pc || it->second >= end) hammock = false;
    if (!hammock) continue;
    // Nested if-blocks repeat their inner instructions in every enclosing branch's list, so the
    // total grows with the square of the nesting; bound it (issue 14: no unbounded allocation).
    total += events.size();
    if (total > kMaxSkipEvents)
      return Error{prog.path + ": kernel '" + prog.kernel + "': forward branches jump over more " +
                   "than " + std::to_string(kMaxSkipEvents) +
                   " memory instructions in total (deeply nested if-blocks)"};
    br.skip = static_cast<std::uint32_t>(prog.skips.size());
    prog.skips.push_back(std::move(events));
  }
  return {};
}

} // namespace warplens::emu
