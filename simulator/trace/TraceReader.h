/// \file
/// TraceReader: reads a binary warp-access trace (TraceFormat.h) back into AccessEvents. Every
/// problem (wrong magic or version, truncation, corrupt fields) is an Error naming the file, the
/// byte offset and the record number.
#pragma once

#include "model/AccessEvent.h"
#include "trace/TraceFormat.h"
#include "util/Expected.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace warplens::trace {

class TraceReader {
public:
  /// Opens `path` and reads the header.
  static Expected<TraceReader> open(const std::string &path);
  /// Reads from an open stream (taking ownership); `name` is used in messages.
  static Expected<TraceReader> open(std::FILE *file, const std::string &name);

  const TraceHeader &header() const { return header_; }
  /// Reads the next event into `event`: true, or false once the end marker has been read and
  /// checked (record count, nothing after it).
  Expected<bool> next(model::AccessEvent &event);
  std::uint64_t recordsRead() const { return records_; }

private:
  struct FileCloser {
    void operator()(std::FILE *f) const { if (f) std::fclose(f); }
  };
  explicit TraceReader(std::string path, std::FILE *file);
  bool read(void *dst, std::size_t n); ///< false at end of file (partial reads count as false)
  template <class T> bool get(T &v) { return read(&v, sizeof v); }
  Expected<std::string> getString(const char *what);
  Error fail(const std::string &what, std::uint64_t at) const;
  Status readHeader();

  std::string path_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::vector<unsigned char> buf_;
  std::size_t pos_ = 0, end_ = 0;
  std::uint64_t offset_ = 0; ///< file offset of buf_[pos_]
  TraceHeader header_;
  std::uint64_t records_ = 0;
  bool done_ = false;
  bool headerDone_ = false; ///< errors after the header also name the record (0-based)
};

/// Feeds every event of the trace at `path` to `listener`, then calls onEnd(). Returns the header.
Expected<TraceHeader> replayTrace(const std::string &path, model::AccessListener &listener);

} // namespace warplens::trace
