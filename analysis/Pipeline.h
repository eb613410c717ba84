/// \file
/// The offline analysis of one launch: compile (cached) → parse PTX → buffers → emulate with the
/// models listening (grouped into SASS instructions when a listing is available) → per-instruction
/// records, kernel totals, the cold-L2 DRAM estimate and the functional check.
#pragma once

#include "launch/LaunchSpec.h"
#include "launch/Result.h"
#include "util/Expected.h"

#include <map>
#include <memory>
#include <iosfwd>
#include <string>
#include <vector>

namespace warplens::ptx {
struct Module;
}

namespace warplens::analysis {

struct AnalyzeOptions {
  std::string arch = "sm_90";
  std::string sass = "auto"; ///< auto (listing from the toolchain) | none (PTX-level) | a listing file
  unsigned threads = 0;      ///< emulator worker threads; 0 = hardware concurrency
  std::string cacheDir;      ///< toolchain cache; empty = $WARPLENS_CACHE or ~/.cache/warplens
};

/// Note added whenever predictions are per PTX instruction.
inline constexpr const char *kNoSassNote =
    "SASS unavailable: per-PTX-instruction predictions; ptxas may merge accesses";

/// Runs launches, keeping compiled/parsed modules between them (a suite compiles each source once).
class Pipeline {
public:
  explicit Pipeline(AnalyzeOptions options);
  ~Pipeline();
  Expected<launch::LaunchResult> analyze(const launch::LaunchSpec &spec);

private:
  struct Compiled;
  Expected<const Compiled *> compiled(const launch::LaunchSpec &spec);

  AnalyzeOptions options_;
  std::map<std::string, std::unique_ptr<Compiled>> cache_; ///< source + flags → module, listing
};

/// Results rendered as `format` (text | json | html); JSON is {"launches": [...]}.
Expected<std::string> renderResults(const std::vector<launch::LaunchResult> &results,
                                    const std::string &format);
/// Writes `text` to `path`, or to `out` when path is empty or "-".
Status writeOutput(const std::string &text, const std::string &path, std::ostream &out);

/// One launch, no cache kept.
Expected<launch::LaunchResult> analyzeLaunch(const launch::LaunchSpec &spec,
                                             const AnalyzeOptions &options);

} // namespace warplens::analysis
