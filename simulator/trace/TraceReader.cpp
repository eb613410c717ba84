/// \file
/// Reads the binary trace with a buffered cursor that knows its file offset, so every error can
/// say where the file went wrong.
#include "trace/TraceReader.h"

#include <bit>
#include <cerrno>
#include <cstring>

namespace warplens::trace {

TraceReader::TraceReader(std::string path, std::FILE *file)
    : path_(std::move(path)), file_(file), buf_(1 << 16) {}

Expected<TraceReader> TraceReader::open(const std::string &path) {
  std::FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) return Error::at(path, std::string("cannot open trace: ") + std::strerror(errno));
  return open(f, path);
}

Expected<TraceReader> TraceReader::open(std::FILE *file, const std::string &name) {
  TraceReader r(name, file);
  WL_CHECK(r.readHeader());
  return r;
}

Error TraceReader::fail(const std::string &what, std::uint64_t at) const {
  std::string where = path_ + ": byte " + std::to_string(at);
  if (headerDone_) where += " (record " + std::to_string(records_) + ")";
  return Error::at(where, what);
}

bool TraceReader::read(void *dst, std::size_t n) {
  auto *out = static_cast<unsigned char *>(dst);
  while (n > 0) {
    if (pos_ == end_) {
      pos_ = 0;
      end_ = std::fread(buf_.data(), 1, buf_.size(), file_.get());
      if (end_ == 0) return false;
    }
    std::size_t k = std::min(n, end_ - pos_);
    std::memcpy(out, buf_.data() + pos_, k);
    pos_ += k, offset_ += k, out += k, n -= k;
  }
  return true;
}

Expected<std::string> TraceReader::getString(const char *what) {
  std::uint64_t at = offset_;
  std::uint16_t n;
  if (!get(n)) return fail(std::string("truncated header: missing ") + what, at);
  std::string s(n, '\0');
  if (!read(s.data(), n)) return fail(std::string("truncated header: ") + what + " cut short", at);
  return s;
}

Status TraceReader::readHeader() {
  static_assert(std::endian::native == std::endian::little, "trace reader assumes little-endian");
  char magic[8];
  if (!read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0)
    return fail("not a warplens trace (wrong magic number; expected \"WLTRACE\")", 0);
  std::uint32_t version;
  if (!get(version)) return fail("truncated header: missing version", 8);
  if (version != kVersion)
    return fail("trace format version " + std::to_string(version) + " is not supported (this build reads " +
                    std::to_string(kVersion) + ")",
                8);
  WL_TRY(arch, getString("arch name"));
  WL_TRY(kernel, getString("kernel name"));
  header_.arch = std::move(arch);
  header_.kernel = std::move(kernel);
  std::uint64_t at = offset_;
  std::uint32_t nSites;
  if (!get(nSites)) return fail("truncated header: missing site count", at);
  if (nSites > kMaxSites)
    return fail("site table of " + std::to_string(nSites) + " entries exceeds the limit of " +
                    std::to_string(kMaxSites),
                at);
  for (std::uint32_t i = 0; i < nSites; ++i) {
    std::uint32_t site;
    at = offset_;
    if (!get(site)) return fail("truncated header: site table entry " + std::to_string(i), at);
    WL_TRY(label, getString("site label"));
    header_.sites.emplace_back(site, std::move(label));
  }
  headerDone_ = true;
  return {};
}

Expected<bool> TraceReader::next(model::AccessEvent &e) {
  if (done_) return false;
  const std::uint64_t start = offset_;
  std::uint8_t tag;
  if (!get(tag))
    return fail("truncated: file ends without the end marker after " + std::to_string(records_) +
                    " records",
                start);
  if (tag == kEndTag) {
    std::uint64_t count;
    if (!get(count)) return fail("truncated end marker", start);
    if (count != records_)
      return fail("end marker counts " + std::to_string(count) + " records but " +
                      std::to_string(records_) + " were read",
                  start);
    std::uint8_t extra;
    if (get(extra)) return fail("unexpected data after the end marker", offset_ - 1);
    done_ = true;
    return false;
  }
  if (records_ >= kMaxRecords)
    return fail("more than " + std::to_string(kMaxRecords) + " records", start);
  if (tag != kRecordTag) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", tag);
    return fail(std::string("corrupt record: bad tag ") + hex, start);
  }
  std::uint32_t site, mask, block, warp;
  std::uint8_t space, op, width, flags;
  if (!get(site) || !get(space) || !get(op) || !get(width) || !get(flags) || !get(mask) ||
      !get(block) || !get(warp))
    return fail("truncated record", start);
  if (space > std::uint8_t(model::Space::Generic))
    return fail("corrupt record: space " + std::to_string(space), start + 5);
  if (op > std::uint8_t(model::Op::Reduce))
    return fail("corrupt record: op " + std::to_string(op), start + 6);
  if (width == 0 || width > 16 || !std::has_single_bit(unsigned(width)))
    return fail("corrupt record: width " + std::to_string(width) + " (expected 1, 2, 4, 8 or 16)",
                start + 7);
  if (flags & ~kFlagDeltas32)
    return fail("corrupt record: flags " + std::to_string(flags), start + 8);
  e = model::AccessEvent{};
  e.site = site;
  e.space = model::Space(space);
  e.op = model::Op(op);
  e.widthBytes = width;
  e.active = LaneMask{mask};
  e.block = block;
  e.warp = warp;
  if (mask) {
    std::uint64_t base;
    if (!get(base)) return fail("truncated record: missing addresses", start);
    e.addr[std::countr_zero(mask)] = ByteAddress{base};
    for (std::uint32_t m = mask & (mask - 1); m; m &= m - 1) {
      std::uint64_t a;
      if (flags & kFlagDeltas32) {
        std::int32_t d;
        if (!get(d)) return fail("truncated record: missing addresses", start);
        a = base + std::uint64_t(std::int64_t(d));
      } else if (!get(a)) {
        return fail("truncated record: missing addresses", start);
      }
      e.addr[std::countr_zero(m)] = ByteAddress{a};
    }
  }
  ++records_;
  return true;
}

Expected<TraceHeader> replayTrace(const std::string &path, model::AccessListener &listener) {
  WL_TRY(reader, TraceReader::open(path));
  model::AccessEvent e;
  for (;;) {
    WL_TRY(more, reader.next(e));
    if (!more) break;
    listener.onAccess(e);
  }
  listener.onEnd();
  return reader.header();
}

} // namespace warplens::trace
