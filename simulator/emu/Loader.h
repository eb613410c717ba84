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

} // namespace warplens::emu
