/// \file
/// Reading measurements for `warplens compare`: warplens result JSON, or Nsight Compute CSV
/// (`ncu --csv --page raw`, or `ncu --csv --page source --print-source sass`), told apart by content.
#pragma once

#include "launch/Result.h"
#include "util/Expected.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace warplens::analysis {

struct MeasuredInput {
  std::vector<launch::LaunchResult> launches;
  /// Per-instruction fields the input actually carries (a CSV may lack some columns).
  std::set<std::string> instructionFields;
  std::string format; ///< "warplens-json", "ncu-raw-csv", "ncu-source-csv"
};

/// RFC 4180-ish: quoted cells, doubled quotes, CRLF; lines starting with "==" (ncu log lines
/// such as ==PROF==) are skipped.
std::vector<std::vector<std::string>> parseCsv(const std::string &text);

/// "1,234,567" / " 42 " / "3.5" → number; "", "-", "n/a" → nullopt.
std::optional<double> parseCsvNumber(const std::string &cell);

/// Wide raw page: a header row with "Kernel Name" (and "ID"), an optional units row, one row
/// per kernel launch; every column named like a metric ("a__b") becomes a metric. Byte units
/// with a prefix (Kbyte, Mbyte, ...) are scaled to bytes. Also accepts the long layout
/// ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value").
Expected<std::vector<launch::LaunchResult>> parseNcuRawCsv(const std::string &text,
                                                           const std::string &file);

/// Source page with SASS: per kernel a "Kernel Name" row, a header row holding "Address" and
/// "Source", then one row per SASS instruction. Memory instructions (by opcode: LDG STG LDS STS
/// LDL STL LD ST ATOM(S/G) RED LDSM) become records; pcs are made relative to the first address.
/// Column mapping: "Instructions Executed" → executed; "Predicated-On Thread Instructions
/// Executed" → threads; "L2 Theoretical Sectors Global" → sectors; "... Global Ideal" →
/// sectors_ideal; "L1 Wavefronts Shared" (older: "Memory L1 Transactions Shared") → wavefronts;
/// "... Ideal" → wavefronts_ideal; raw smsp__sass_* names are accepted as well.
Expected<MeasuredInput> parseNcuSourceCsv(const std::string &text, const std::string &file);

/// Reads PREDICTED or MEASURED: JSON if the first non-blank character is '{', else ncu CSV.
Expected<MeasuredInput> loadMeasured(const std::string &path);
/// The same for text already read from `path`.
Expected<MeasuredInput> parseMeasured(const std::string &text, const std::string &path);

} // namespace warplens::analysis
