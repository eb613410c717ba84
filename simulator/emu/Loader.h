/// \file
/// Turns a parsed kernel (and the functions it calls) plus a launch into a Program: register
/// slots, memory layouts (shared, local, param), global buffer addresses, kernel parameter
/// bytes, pre-decoded instructions and the memory-instruction sites.
#pragma once

#include "emu/Program.h"
#include "launch/LaunchSpec.h"
#include "util/Expected.h"

#include <memory>

namespace warplens::emu {

/// Resolves the spec's kernel name (mangled, demangled or unique prefix) to an .entry.
Expected<const ptx::Function *> findKernel(const ptx::Module &module, const std::string &name);

/// Base address of each buffer in `buffers` (512-byte aligned, 512-byte gaps between them).
std::vector<std::uint64_t> bufferBases(const std::vector<launch::HostBuffer> &buffers);

Expected<std::unique_ptr<Program>> loadProgram(const ptx::Module &module,
                                               const ptx::Function &kernel,
                                               const launch::LaunchSpec &spec,
                                               std::vector<launch::HostBuffer> &buffers);

/// For every forward `bra` whose region (the instructions strictly between it and its target)
/// is a plain forward hammock — no backward branch inside, no branch from outside into its
/// middle — records the memory instructions of the region in Program::skips and sets the
/// branch's DInstr::skip. A warp whose active lanes all take such a branch emits one
/// AccessEvent{skipped = true, active = none} per recorded instruction (see CtrlHandlers.cpp).
/// Error when the lists would hold more than kMaxSkipEvents events in all (nested if-blocks
/// repeat their inner instructions in every enclosing list).
inline constexpr std::size_t kMaxSkipEvents = 1u << 18;
Status findSkippedSites(Program &prog);

} // namespace warplens::emu
