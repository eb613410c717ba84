/// \file
/// Writes the binary trace: a buffered byte stream of little-endian fields (TraceFormat.h).
#include "trace/TraceWriter.h"

#include <bit>
#include <cerrno>
#include <cstring>

namespace warplens::trace {
namespace {

template <class T> void put(std::vector<unsigned char> &b, T v) {
  static_assert(std::endian::native == std::endian::little, "trace writer assumes little-endian");
  const auto *p = reinterpret_cast<const unsigned char *>(&v);
  b.insert(b.end(), p, p + sizeof v);
}

void putString(std::vector<unsigned char> &b, const std::string &s) {
  std::size_t n = s.size() > 0xffff ? 0xffff : s.size();
  put<std::uint16_t>(b, std::uint16_t(n));
  b.insert(b.end(), s.begin(), s.begin() + std::ptrdiff_t(n));
}

constexpr std::size_t kFlushBytes = 1 << 20;

} // namespace

TraceWriter::TraceWriter(std::string path, std::FILE *file) : path_(std::move(path)), file_(file) {
  buf_.reserve(kFlushBytes + 512);
}

Expected<std::unique_ptr<TraceWriter>> TraceWriter::create(const std::string &path,
                                                           const TraceHeader &header) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) return Error::at(path, std::string("cannot create trace file: ") + std::strerror(errno));
  std::unique_ptr<TraceWriter> w(new TraceWriter(path, f));
  w->buf_.insert(w->buf_.end(), kMagic, kMagic + 8);
  put<std::uint32_t>(w->buf_, kVersion);
  putString(w->buf_, header.arch);
  putString(w->buf_, header.kernel);
  put<std::uint32_t>(w->buf_, std::uint32_t(header.sites.size()));
  for (const auto &[site, label] : header.sites) {
    put<std::uint32_t>(w->buf_, site);
    putString(w->buf_, label);
  }
  return w;
}

TraceWriter::~TraceWriter() { onEnd(); }

void TraceWriter::onAccess(const model::AccessEvent &e) {
  if (!file_) return;
  buf_.push_back(kRecordTag);
  put<std::uint32_t>(buf_, e.site);
  buf_.push_back(std::uint8_t(e.space));
  buf_.push_back(std::uint8_t(e.op));
  buf_.push_back(e.widthBytes);
  const std::uint32_t mask = e.active.bits;
  std::uint64_t base = 0;
  bool deltas32 = true;
  if (mask) {
    base = e.addr[std::countr_zero(mask)].value;
    for (std::uint32_t m = mask; m; m &= m - 1) {
      auto d = std::int64_t(e.addr[std::countr_zero(m)].value - base);
      if (d < INT32_MIN || d > INT32_MAX) deltas32 = false;
    }
  }
  buf_.push_back(deltas32 ? kFlagDeltas32 : 0);
  put<std::uint32_t>(buf_, mask);
  put<std::uint32_t>(buf_, e.block);
  put<std::uint32_t>(buf_, e.warp);
  if (mask) {
    put<std::uint64_t>(buf_, base);
    for (std::uint32_t m = mask & (mask - 1); m; m &= m - 1) {
      std::uint64_t a = e.addr[std::countr_zero(m)].value;
      if (deltas32) put<std::int32_t>(buf_, std::int32_t(std::int64_t(a - base)));
      else put<std::uint64_t>(buf_, a);
    }
  }
  ++records_;
  if (buf_.size() >= kFlushBytes) flush();
}

void TraceWriter::flush() {
  if (!file_ || buf_.empty()) return;
  if (std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size()) failed_ = true;
  buf_.clear();
}

void TraceWriter::onEnd() {
  if (!file_) return;
  buf_.push_back(kEndTag);
  put<std::uint64_t>(buf_, records_);
  flush();
  if (std::fclose(file_) != 0) failed_ = true;
  file_ = nullptr;
}

Status TraceWriter::status() const {
  if (failed_) return Error::at(path_, "write failed (disk full or I/O error)");
  return {};
}

} // namespace warplens::trace
