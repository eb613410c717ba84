/// \file
/// Trace format: write/read round trip (every field, inactive lanes, far-apart addresses),
/// header and site table, JSONL dump, and errors for wrong magic/version, truncation at every
/// byte, corrupt fields and trailing data, each naming the file, byte offset and record.
#include "trace/TraceJsonl.h"
#include "trace/TraceReader.h"
#include "trace/TraceWriter.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

namespace warplens::trace {
namespace {

namespace fs = std::filesystem;
using model::AccessEvent;

std::string tempPath(const std::string &name) {
  return (fs::temp_directory_path() / ("warplens_trace_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::vector<AccessEvent> sampleEvents() {
  std::mt19937_64 rng(7);
  std::vector<AccessEvent> v;
  for (unsigned i = 0; i < 300; ++i) {
    AccessEvent e;
    e.site = unsigned(rng() % 5) + (i == 7 ? 0x90000000u : 0);
    e.space = model::Space(rng() % 6);
    e.op = model::Op(rng() % 4);
    e.widthBytes = std::uint8_t(1u << (rng() % 5));
    e.active = LaneMask{i % 10 == 0 ? 0u : i % 3 == 0 ? 0xffffffffu : std::uint32_t(rng())};
    e.block = unsigned(rng() % 1000);
    e.warp = unsigned(rng() % 32);
    std::uint64_t base = rng() % (std::uint64_t(1) << 47);
    for (unsigned l = 0; l < 32; ++l) {
      if (!e.active.test(l)) continue; // inactive lanes read back as 0
      // Every 4th event spreads lanes > 2^31 apart (64-bit addresses), others stay close.
      e.addr[l] = ByteAddress{i % 4 == 1 ? rng() : base + (rng() % 4096) * 4};
    }
    v.push_back(e);
  }
  return v;
}

bool same(const AccessEvent &a, const AccessEvent &b) {
  return a.site == b.site && a.space == b.space && a.op == b.op && a.widthBytes == b.widthBytes &&
         a.active == b.active && a.block == b.block && a.warp == b.warp && a.addr == b.addr;
}

TraceHeader sampleHeader() { return {"sm_90", "transposeNaive", {{0, "ld.global.f32"}, {3, "st.global.f32"}}}; }

std::string writeSample(const std::string &name, const std::vector<AccessEvent> &events) {
  std::string path = tempPath(name);
  auto w = TraceWriter::create(path, sampleHeader());
  EXPECT_TRUE(w.ok());
  for (const AccessEvent &e : events) (*w)->onAccess(e);
  (*w)->onEnd();
  EXPECT_TRUE((*w)->status().ok());
  EXPECT_EQ((*w)->records(), events.size());
  return path;
}

std::string errorOf(const std::string &path) {
  auto r = TraceReader::open(path);
  if (!r) return r.error().message;
  AccessEvent e;
  for (;;) {
    auto more = r->next(e);
    if (!more) return more.error().message;
    if (!more.value()) return "";
  }
}

TEST(Trace, RoundTripKeepsEveryField) {
  auto events = sampleEvents();
  std::string path = writeSample("roundtrip.wlt", events);
  auto r = TraceReader::open(path);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->header().arch, "sm_90");
  EXPECT_EQ(r->header().kernel, "transposeNaive");
  ASSERT_EQ(r->header().sites.size(), 2u);
  EXPECT_EQ(r->header().sites[1].first, 3u);
  EXPECT_EQ(r->header().sites[1].second, "st.global.f32");
  AccessEvent e;
  for (std::size_t i = 0; i < events.size(); ++i) {
    auto more = r->next(e);
    ASSERT_TRUE(more.ok()) << more.error().message;
    ASSERT_TRUE(more.value());
    EXPECT_TRUE(same(e, events[i])) << "record " << i;
  }
  auto end = r->next(e);
  ASSERT_TRUE(end.ok()) << end.error().message;
  EXPECT_FALSE(end.value());
  EXPECT_EQ(r->recordsRead(), events.size());
  fs::remove(path);
}

TEST(Trace, RecordsAreCompact) {
  AccessEvent e;
  e.active = LaneMask::all();
  for (unsigned l = 0; l < 32; ++l) e.addr[l] = ByteAddress{0x7f0000000000ull + 4 * l};
  std::string path = writeSample("compact.wlt", {e});
  // header: 8 magic + 4 version + (2+5) arch + (2+14) kernel + 4 count + (4+2+13) + (4+2+13) = 77;
  // record: 21 fixed + 8 base + 31 * 4 deltas = 153; end marker: 9.
  EXPECT_EQ(fs::file_size(path), 77u + 153u + 9u);
  fs::remove(path);
}

TEST(Trace, TruncationAtAnyByteIsAnError) {
  auto events = sampleEvents();
  events.resize(3);
  std::string path = writeSample("full.wlt", events);
  std::string bytes = readBytes(path);
  std::string cut = tempPath("cut.wlt");
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    writeBytes(cut, bytes.substr(0, n));
    std::string err = errorOf(cut);
    ASSERT_FALSE(err.empty()) << "prefix of " << n << " bytes read without error";
    EXPECT_NE(err.find(cut), std::string::npos) << err;
    EXPECT_NE(err.find("byte "), std::string::npos) << err;
  }
  // Cut inside the third record: the message names the record (0-based 2) and where it starts.
  writeBytes(cut, bytes.substr(0, bytes.size() - 9 - 3)); // drop the end marker and 3 bytes
  std::string err = errorOf(cut);
  EXPECT_NE(err.find("(record 2)"), std::string::npos) << err;
  EXPECT_NE(err.find("truncated"), std::string::npos) << err;
  fs::remove(path);
  fs::remove(cut);
}

TEST(Trace, WrongMagicVersionAndCorruptFields) {
  std::string path = writeSample("good.wlt", sampleEvents());
  std::string bytes = readBytes(path);
  std::string bad = tempPath("bad.wlt");

  writeBytes(bad, "PK\x03\x04 not a trace at all");
  std::string err = errorOf(bad);
  EXPECT_NE(err.find(bad + ": byte 0: not a warplens trace"), std::string::npos) << err;

  std::string v2 = bytes;
  v2[8] = 2;
  writeBytes(bad, v2);
  err = errorOf(bad);
  EXPECT_NE(err.find("byte 8: trace format version 2 is not supported"), std::string::npos) << err;

  // First record starts right after the header (77 bytes, see RecordsAreCompact). Its width byte
  // is at +7: set it to 3.
  std::string w3 = bytes;
  w3[77 + 7] = 3;
  writeBytes(bad, w3);
  err = errorOf(bad);
  EXPECT_NE(err.find("byte 84 (record 0): corrupt record: width 3"), std::string::npos) << err;

  std::string tag = bytes;
  tag[77] = 'X';
  writeBytes(bad, tag);
  err = errorOf(bad);
  EXPECT_NE(err.find("byte 77 (record 0): corrupt record: bad tag 0x58"), std::string::npos) << err;

  std::string space = bytes;
  space[77 + 5] = 9;
  writeBytes(bad, space);
  EXPECT_NE(errorOf(bad).find("corrupt record: space 9"), std::string::npos);

  writeBytes(bad, bytes + "x");
  err = errorOf(bad);
  EXPECT_NE(err.find("unexpected data after the end marker"), std::string::npos) << err;
  EXPECT_NE(err.find("byte " + std::to_string(bytes.size())), std::string::npos) << err;

  std::string count = bytes;
  count[bytes.size() - 8] ^= 1; // low byte of the record count
  writeBytes(bad, count);
  EXPECT_NE(errorOf(bad).find("end marker counts"), std::string::npos);

  EXPECT_NE(errorOf(tempPath("missing.wlt")).find("cannot open trace"), std::string::npos);
  fs::remove(path);
  fs::remove(bad);
}

TEST(Trace, WriterReportsUncreatableFile) {
  auto w = TraceWriter::create("/nonexistent-dir/x.wlt", {});
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message.find("/nonexistent-dir/x.wlt"), std::string::npos);
}

TEST(Trace, JsonlDumpIsOneReadableEventPerLine) {
  AccessEvent e;
  e.site = 3;
  e.space = model::Space::Shared;
  e.op = model::Op::Store;
  e.widthBytes = 8;
  e.active = LaneMask{0x5u};
  e.block = 2;
  e.warp = 1;
  e.addr[0] = ByteAddress{0x100};
  e.addr[2] = ByteAddress{0x110};
  std::string line = eventToJsonLine(e);
  EXPECT_EQ(line.substr(0, 109),
            R"({"site":3,"space":"shared","op":"st","width":8,"block":2,"warp":1,"active":"0x00000005","addr":["0x100",null,)");
  EXPECT_NE(line.find(R"("0x110",null)"), std::string::npos);

  std::string path = writeSample("jsonl.wlt", {e, e});
  std::ostringstream out;
  auto n = dumpJsonl(path, out);
  ASSERT_TRUE(n.ok()) << n.error().message;
  EXPECT_EQ(n.value(), 2u);
  std::string text = out.str();
  EXPECT_EQ(text.substr(0, 72), R"({"trace":"warplens","version":1,"arch":"sm_90","kernel":"transposeNaive")");
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 3);
  fs::remove(path);
}

} // namespace
} // namespace warplens::trace
