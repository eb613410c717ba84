/// \file
/// Fuzz target launch_spec: parseSpecText() (one launch or a suite, with its "check" object) on
/// any bytes, relative to a scratch folder holding k.ptx and a 64-byte init file in.bin; specs
/// whose buffers total at most 64 KiB then get their buffers made and their check run (outputs =
/// inputs, so checks mostly fail: what matters is that they end).
#include "FuzzTargets.h"

#include "launch/LaunchSpec.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <unistd.h>

namespace warplens::fuzz {

namespace {

std::string scratchDir() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/warplens-fuzz-spec-XXXXXX";
    const char *d = ::mkdtemp(tmpl);
    if (!d) violated("launch_spec", "mkdtemp failed");
    std::ofstream(std::string(d) + "/k.ptx") << ".version 8.0\n";
    std::ofstream(std::string(d) + "/in.bin") << std::string(64, '\x01');
    return std::string(d);
  }();
  return dir;
}

} // namespace

int launchSpec(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  const std::string path = scratchDir() + "/suite.json";
  auto specs = launch::parseSpecText(text, path);
  if (!specs) {
    if (specs.error().message.rfind(path, 0) != 0) violated("launch_spec", specs.error().message);
    return 0;
  }
  for (const auto &s : *specs) {
    std::uint64_t bytes = 0;
    std::map<std::string, bool> seen;
    for (const auto &a : s.args)
      if (a.isBuffer && seen.emplace(a.buffer, true).second) bytes += a.count * launch::sizeOf(a.type);
    if (bytes > (64u << 10)) continue;
    auto in = launch::makeBuffers(s);
    if (!in) continue; // file: of the wrong size
    auto out = launch::makeBuffers(s);
    if (!out) violated("launch_spec", "second makeBuffers failed");
    auto check = launch::runCheck(s, *in, *out);
    if (!check && check.error().message.empty()) violated("launch_spec", "empty check error");
  }
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(launchSpec)
