/// \file
/// Fuzz target sass_decoder: the SASS engine's decoder (simulator/sassemu/Decoder.cpp) and its
/// opcode-family selectors (OpTable.cpp, *Ops.cpp) on any text, then a bounded run of the decoded
/// program. Input: one instruction text per line as nvdisasm prints it ("@!P0 IMAD.WIDE R2, R3,
/// 0x4, R4 ;"; a leading /*pc*/ and trailing /* */ comments are dropped), label lines ".L_x_3:"
/// naming the next instruction's pc; other lines starting with '.' or '//' are skipped.
/// Instruction i sits at pc 16 * i. When every line decodes and has semantics (at most 256
/// instructions), the program runs as kernel "k" (one 8-byte parameter holding a 256-byte buffer,
/// one 4-byte parameter = 3, a 64-byte local frame, 256 bytes of static shared, constant bank 3)
/// on one block of 64 threads under an instruction budget of 20000 thread-instructions, then
/// again on 4 blocks three ways: fully, address-only with every block run, and address-only with
/// block symmetry (blocks 1-3 may be replicas). Where two of them succeed their memory events
/// must be the same (an order-free hash of every event); a proof rule that disagrees with the
/// engine is a finding too.
#include "FuzzTargets.h"

#include "launch/LaunchSpec.h"
#include "sass/SassListing.h"
#include "sassemu/Cubin.h"
#include "sassemu/Decoder.h"
#include "sassemu/Engine.h"
#include "sassemu/Exec.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace warplens::fuzz {

namespace {

class NullListener : public model::AccessListener {
public:
  void onAccess(const model::AccessEvent &) override {}
};

/// The multiset of events seen (replicas replayed by the default onReplicas): a sum of per-event
/// hashes, so the order of warps and blocks does not matter.
class HashListener : public model::AccessListener {
public:
  std::uint64_t events = 0, sum = 0;
  void onAccess(const model::AccessEvent &e) override {
    std::uint64_t h = mix(e.site) ^ mix(std::uint64_t(e.space) << 8 | std::uint64_t(e.op) << 16 | e.widthBytes);
    h = mix(h ^ (std::uint64_t(e.block) << 32 | e.warp));
    h = mix(h ^ (std::uint64_t(e.skipped) | std::uint64_t(e.companion) << 1 | std::uint64_t(e.minWavefronts) << 8 |
                 std::uint64_t(std::uint32_t(e.tileWavefronts)) << 16));
    h = mix(h ^ e.active.bits);
    for (unsigned l = 0; l < 32; ++l)
      if (e.active.test(l)) h = mix(h ^ e.addr[l].value ^ (std::uint64_t(l) << 58));
    sum += h;
    ++events;
  }

private:
  static std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
  }
};

std::string trimmed(const std::string &s) {
  std::size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

/// The instruction text of one input line ("" for none): /*pc*/ prefix and /* */ tail removed.
std::string instructionText(std::string line) {
  line = trimmed(line);
  if (line.rfind("/*", 0) == 0) {
    std::size_t e = line.find("*/");
    line = e == std::string::npos ? std::string() : trimmed(line.substr(e + 2));
  }
  std::size_t c = line.find("/*");
  if (c != std::string::npos) line = trimmed(line.substr(0, c));
  return line;
}

void checkOperand(const sassemu::Operand &o, const std::string &text) {
  using sassemu::OpKind;
  if ((o.kind == OpKind::Reg && o.index > 255) || (o.kind == OpKind::UReg && o.index > 63) ||
      ((o.kind == OpKind::Pred || o.kind == OpKind::UPred) && o.index > 7) ||
      (o.kind == OpKind::Barrier && o.index > 15))
    violated("sass_decoder", "register index out of range accepted: " + text);
  if ((o.idxKind == OpKind::Reg && o.idx > 255) || (o.idxKind == OpKind::UReg && o.idx > 63) ||
      (o.hasUidx && o.uidx > 63))
    violated("sass_decoder", "address register out of range accepted: " + text);
}

const sassemu::Cubin &cubin() {
  static const sassemu::Cubin c = [] {
    sassemu::Cubin c;
    sassemu::CubinKernel k;
    k.name = "k";
    k.params = {{0, 0, 8}, {1, 8, 4}};
    k.paramBytes = 12;
    k.sharedBytes = 0x400 + 256;
    k.registers = 32;
    k.frameBytes = 64;
    k.stackBytes = 64;
    c.kernels["k"] = k;
    std::vector<std::uint8_t> bank3(64);
    for (std::size_t i = 0; i < bank3.size(); ++i) bank3[i] = static_cast<std::uint8_t>(i);
    c.banks[3] = bank3;
    return c;
  }();
  return c;
}

launch::LaunchSpec spec() {
  launch::LaunchSpec s;
  s.name = s.kernel = "k";
  s.specFile = "fuzz.json";
  s.block = {64, 1, 1};
  launch::ArgSpec buf;
  buf.isBuffer = true;
  buf.buffer = "b0";
  buf.type = launch::ScalarType::U8;
  buf.count = 256;
  launch::ArgSpec n;
  n.type = launch::ScalarType::I32;
  n.intValue = 3;
  s.args = {buf, n};
  return s;
}

} // namespace

int sassDecoder(const std::uint8_t *data, std::size_t size) {
  const std::string input(reinterpret_cast<const char *>(data), size);
  sass::SassFunction fn;
  fn.name = "k";
  std::size_t pos = 0;
  while (pos < input.size() && fn.instructions.size() < 512) {
    std::size_t nl = input.find('\n', pos);
    std::string line = input.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? input.size() : nl + 1;
    std::string t = instructionText(line);
    if (t.empty() || t.rfind("//", 0) == 0) continue;
    if (t.front() == '.') {
      if (t.back() == ':') fn.labels.emplace_back(t.substr(0, t.size() - 1), 16 * fn.instructions.size());
      continue;
    }
    sass::SassInstruction si;
    si.pc = 16 * fn.instructions.size();
    si.text = t;
    fn.instructions.push_back(si);
  }
  const sassemu::LabelMap labels(fn.labels.begin(), fn.labels.end());
  // WARPLENS_FUZZ_VERBOSE=1: say why an input does not run and how a run ended (writing seeds).
  static const bool verbose = std::getenv("WARPLENS_FUZZ_VERBOSE") != nullptr;
  bool runnable = !fn.instructions.empty() && fn.instructions.size() <= 256;
  for (const sass::SassInstruction &si : fn.instructions) {
    auto in = sassemu::decodeText(si.text, si.pc, labels);
    if (!in) {
      if (in.error().message.rfind("pc 0x", 0) != 0) violated("sass_decoder", in.error().message);
      if (verbose) std::fprintf(stderr, "decode: %s\n", in.error().message.c_str());
      runnable = false;
      continue;
    }
    if (in->opcode.empty() || in->base.empty()) violated("sass_decoder", "no opcode: " + si.text);
    checkOperand(in->guard, in->text);
    for (const sassemu::Operand &o : in->ops) checkOperand(o, in->text);
    sassemu::Selector sel = sassemu::selectorFor(in->base);
    if (!sel) {
      if (verbose) std::fprintf(stderr, "no family: %s\n", in->text.c_str());
      runnable = false;
      continue;
    }
    const std::string err = sel(*in);
    if (!err.empty() || !in->fn) {
      if (verbose) std::fprintf(stderr, "select: %s: %s\n", in->text.c_str(), err.c_str());
      runnable = false;
    }
    if (in->emit && (in->width == 0 || in->width > 16 || (in->width & (in->width - 1))))
      violated("sass_decoder", "memory width " + std::to_string(in->width) + ": " + in->text);
  }
  if (!runnable) return 0;
  const launch::LaunchSpec s = spec();
  std::vector<launch::HostBuffer> buffers(1);
  buffers[0].name = "b0";
  buffers[0].type = launch::ScalarType::U8;
  buffers[0].count = 256;
  buffers[0].bytes.resize(256);
  for (std::size_t i = 0; i < 256; ++i) buffers[0].bytes[i] = static_cast<std::uint8_t>(i);
  const std::vector<launch::HostBuffer> initial = buffers;
  emu::EmuOptions opt;
  opt.threads = 1;
  opt.instructionBudget = 20000;
  auto run = sassemu::runLaunch(
      fn, cubin(), s, buffers, [] { return std::make_unique<NullListener>(); }, opt, "fuzz.sass");
  if (!run && run.error().message.empty()) violated("sass_decoder", "empty engine error");
  if (verbose)
    std::fprintf(stderr, "run: %s\n", run ? ("ok, " + std::to_string(run->stats.threadInstructions) +
                                               " thread-instructions").c_str()
                                           : run.error().message.c_str());
  if (run && run->stats.threadInstructions > opt.instructionBudget)
    violated("sass_decoder", "ran past the instruction budget");
  // Again on a grid of 4 blocks, three ways: fully, address-only running every block, and
  // address-only with block symmetry (sassemu/Symmetry.cpp: block 0 proves, blocks 1-3 may be
  // replicas). The budget bounds the work done (replicas are not executed), so each covers at
  // most 4 budgets. Address-only mode and replication promise the events of full execution.
  launch::LaunchSpec s4 = s;
  s4.grid = {4, 1, 1};
  struct Way {
    const char *name;
    bool addressOnly, replicate;
    bool ok = false;
    std::uint64_t events = 0, sum = 0;
  } ways[3] = {{"full", false, false}, {"address-only", true, false}, {"address-only with replicas", true, true}};
  for (Way &w : ways) {
    opt.addressOnly = w.addressOnly;
    opt.replicate = w.replicate;
    std::vector<launch::HostBuffer> mem = initial; // a run's stores must not feed the next one's loads
    auto r = sassemu::runLaunch(
        fn, cubin(), s4, mem, [] { return std::make_unique<HashListener>(); }, opt, "fuzz.sass");
    if (!r && r.error().message.empty()) violated("sass_decoder", std::string("empty engine error (4 blocks, ") + w.name + ")");
    if (verbose)
      std::fprintf(stderr, "run of 4 blocks, %s: %s\n", w.name,
                   r ? ("ok, " + std::to_string(r->stats.threadInstructions) + " thread-instructions, " +
                        std::to_string(r->stats.replicatedBlocks) + " blocks replicated")
                           .c_str()
                     : r.error().message.c_str());
    if (!r) continue;
    if (r->stats.threadInstructions > 4 * opt.instructionBudget || r->stats.replicatedBlocks > (w.replicate ? 3u : 0u))
      violated("sass_decoder", std::string("4-block run (") + w.name + ") covered more than 4 budgets or replicated too many blocks");
    if (!r->stats.symmetryRuleError.empty())
      violated("sass_decoder", "block-symmetry rule error: " + r->stats.symmetryRuleError);
    w.ok = true;
    for (const auto &l : r->listeners) {
      const auto &h = static_cast<const HashListener &>(*l);
      w.events += h.events, w.sum += h.sum;
    }
  }
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j)
      if (ways[i].ok && ways[j].ok && (ways[i].events != ways[j].events || ways[i].sum != ways[j].sum))
        violated("sass_decoder", std::string("4-block runs differ: ") + ways[i].name + " " +
                                     std::to_string(ways[i].events) + " events, " + ways[j].name + " " +
                                     std::to_string(ways[j].events) + " events (or their addresses)");
  return 0;
}

} // namespace warplens::fuzz

WARPLENS_FUZZ_ENTRY(sassDecoder)
