/// \file
/// The SASS execution engine's entry point: runs one kernel launch by executing the cubin's own
/// sm_90 SASS (the nvdisasm listing, plus kernel facts from the cubin) per warp over host buffers,
/// and emits one AccessEvent per executed memory instruction with that instruction's pc as site.
/// No grouping or guessing: the models see exactly the instructions the GPU executes. Does not
/// model timing, caches, scoreboards or the order in which independent warps run.
#pragma once

#include "emu/Emulator.h"
#include "launch/LaunchSpec.h"
#include "model/Site.h"
#include "sass/SassListing.h"
#include "sassemu/Cubin.h"
#include "util/Expected.h"

#include <string>
#include <vector>

namespace warplens::sassemu {

/// Every memory instruction of `fn` as a site (site id = pc / 16), or the first decoding error
/// (opcode/modifier the engine does not know, naming pc, text and source line).
Expected<std::vector<model::SiteInfo>> memorySites(const sass::SassFunction &fn, const std::string &where);

/// Runs `spec` with the kernel `fn` (its mangled name must be in `cubin`). `buffers` come from
/// launch::makeBuffers(spec) and hold the results afterwards. Errors: decoding, argument
/// mismatch, out-of-bounds or misaligned access (kind, address, buffer, thread, block, pc, source
/// line), trap, instruction budget.
Expected<emu::LaunchRun> runLaunch(const sass::SassFunction &fn, const Cubin &cubin,
                                   const launch::LaunchSpec &spec,
                                   std::vector<launch::HostBuffer> &buffers,
                                   const emu::ListenerFactory &makeListener,
                                   const emu::EmuOptions &options = {},
                                   const std::string &where = "");

} // namespace warplens::sassemu
