/// \file
/// The human-readable dump of a trace: JSON Lines, a header object then one event per line
/// (addresses as hex strings, null for inactive lanes).
#pragma once

#include "model/AccessEvent.h"
#include "trace/TraceFormat.h"
#include "util/Expected.h"

#include <iosfwd>
#include <string>

namespace warplens::trace {

/// {"trace":"warplens","version":1,"arch":"sm_90","kernel":"k","sites":[{"site":0,"label":".."}]}
std::string headerToJsonLine(const TraceHeader &header);
/// {"site":3,"space":"shared","op":"ld","width":4,"block":0,"warp":1,"active":"0xffffffff",
///  "addr":["0x100",null,...]}
std::string eventToJsonLine(const model::AccessEvent &event);
/// Writes the header line and one line per event of the trace at `path`; returns the event count.
Expected<std::uint64_t> dumpJsonl(const std::string &path, std::ostream &out);

} // namespace warplens::trace
