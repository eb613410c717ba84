/// \file
/// Fuzz target ptx_loader: parse, then for each .entry build a small launch whose arguments fit
/// the parameters (8-byte parameters get a 256-byte buffer), load it (layouts, limits, decoding)
/// and emulate one block of 64 threads under a small instruction budget.
#include "FuzzTargets.h"

#include "emu/Emulator.h"
#include "emu/Loader.h"
#include "launch/LaunchSpec.h"
#include "ptx/Module.h"
#include "ptx/Parser.h"

#include <nlohmann/json.hpp>

#include <string>

namespace warplens::fuzz {

namespace {

class NullListener : public model::AccessListener {
public:
  void onAccess(const model::AccessEvent &) override {}
};

launch::LaunchSpec launchFor(const ptx::Function &kernel) {
  launch::LaunchSpec s;
  s.name = kernel.name;
  s.kernel = kernel.name;
  s.specFile = "fuzz.json";
  s.block = {64, 1, 1};
  for (std::size_t i = 0; i < kernel.params.size(); ++i) {
    launch::ArgSpec a;
    switch (kernel.params[i].sizeBytes) {
    case 8:
      a.isBuffer = true;
      a.buffer = "b" + std::to_string(i);
      a.type = launch::ScalarType::U8;
      a.count = 256;
      a.init = "iota";
      break;
    case 2: a.type = launch::ScalarType::I16; a.intValue = 3; break;
    case 1: a.type = launch::ScalarType::I8; a.intValue = 3; break;
    default: a.type = launch::ScalarType::I32; a.intValue = 3; break;
    }
    s.args.push_back(a);
  }
  return s;
}

} // namespace

int ptxLoader(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  auto m = ptx::parseText(text, "fuzz.ptx");
  if (!m) return 0;
  // Module .global variables up to the loader's 1 GiB limit are legal and zero-filled; the limit
  // itself is unit-tested, so here large ones are skipped to keep each execution fast.
  for (const auto &g : (*m)->globals)
    if (g.sizeBytes > (16u << 20)) return 0;
  int entries = 0;
  for (const auto &f : (*m)->functions) {
    if (!f.isEntry || ++entries > 4) continue;
    const launch::LaunchSpec spec = launchFor(f);
    auto buffers = launch::makeBuffers(spec);
    if (!buffers) violated("ptx_loader", buffers.error().message);
    auto prog = emu::loadProgram(**m, f, spec, *buffers);
    if (!prog) {
      if (prog.error().message.empty()) violated("ptx_loader", "empty error message");
      continue;
    }
    // Site texts and file names go into result JSON: they must dump (valid UTF-8).
    for (const auto &site : (*prog)->sites)
      (void)nlohmann::json({site.ptxText, site.sourceFile}).dump();
    emu::EmuOptions opt;
    opt.threads = 1;
    opt.instructionBudget = 200000;
    auto run = emu::runLaunch(
        **m, spec, *buffers, [] { return std::make_unique<NullListener>(); }, opt);
    if (!run && run.error().message.empty()) violated("ptx_loader", "empty emulator error");
  }
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(ptxLoader)
