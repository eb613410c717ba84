/// \file
/// Parsing untrusted JSON text (launch specs, suites, result files): nesting depth and size are
/// checked before nlohmann::json builds anything, so no input can exhaust the stack (dump() and
/// copies recurse) or memory; errors name the file and the line.
#pragma once

#include "util/Expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace warplens::launch {

inline constexpr unsigned kMaxJsonDepth = 64;             ///< nested arrays/objects
inline constexpr std::size_t kMaxJsonBytes = 256u << 20;  ///< 256 MiB of text

/// Parses `text` (from `path`, for messages): "file.json:3: nesting deeper than 64 levels",
/// "file.json: parse error at line 2, column 5: ...".
Expected<nlohmann::json> parseJsonText(const std::string &text, const std::string &path);

/// `v.dump()` cut to `max` characters with "..." (for messages quoting bad values).
std::string shortDump(const nlohmann::json &v, std::size_t max = 60);

/// `s` with every byte that is not part of a well-formed UTF-8 sequence (RFC 3629) replaced by
/// '?'. Text from input files (CSV cells, PTX/SASS file names) becomes result strings, and
/// nlohmann::json::dump() throws on invalid UTF-8.
std::string validUtf8(const std::string &s);

} // namespace warplens::launch
