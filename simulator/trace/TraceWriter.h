/// \file
/// TraceWriter: an AccessListener that records every event into a versioned binary trace file
/// (TraceFormat.h). Single-threaded: feed it from one producer thread.
#pragma once

#include "model/AccessEvent.h"
#include "trace/TraceFormat.h"
#include "util/Expected.h"

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace warplens::trace {

class TraceWriter : public model::AccessListener {
public:
  /// Creates (truncates) `path` and writes the header. Error names the path.
  static Expected<std::unique_ptr<TraceWriter>> create(const std::string &path,
                                                       const TraceHeader &header);
  ~TraceWriter() override; ///< finishes the file (end marker) if onEnd() was not called

  void onAccess(const model::AccessEvent &event) override;
  /// Writes the end marker and closes the file. Further events are ignored.
  void onEnd() override;
  /// Ok, or the first write error (e.g. disk full), naming the path.
  Status status() const;
  std::uint64_t records() const { return records_; }

private:
  TraceWriter(std::string path, std::FILE *file);
  void flush();

  std::string path_;
  std::FILE *file_ = nullptr;
  std::vector<unsigned char> buf_;
  std::uint64_t records_ = 0;
  bool failed_ = false;
};

} // namespace warplens::trace
