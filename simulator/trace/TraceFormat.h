/// \file
/// The warp-access trace format (version 1), shared by TraceWriter and TraceReader. Little-endian:
///   "WLTRACE" 0x00 | u32 version | str arch | str kernel | u32 nSites { u32 site, str label }
///   records: u8 'R' | u32 site | u8 space | u8 op | u8 width | u8 flags | u32 active | u32 block |
///            u32 warp | [active != 0: u64 address of the lowest active lane, then per further
///            active lane an i32 delta from it (flags bit 0) or a u64 address]
///   end:     u8 'E' | u64 record count          (str = u16 length + bytes)
/// Inactive lanes' addresses are not stored (they read back as 0).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace warplens::trace {

inline constexpr char kMagic[8] = {'W', 'L', 'T', 'R', 'A', 'C', 'E', '\0'};
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::uint8_t kRecordTag = 'R';
inline constexpr std::uint8_t kEndTag = 'E';
inline constexpr std::uint8_t kFlagDeltas32 = 1;
/// Reader limits: a site table holds at most one entry per PTX instruction of a kernel; the
/// record limit bounds replay time (2^36 records is ~2 TB of trace).
inline constexpr std::uint32_t kMaxSites = 1u << 24;
inline constexpr std::uint64_t kMaxRecords = 1ull << 36;

/// What a trace says about itself.
struct TraceHeader {
  std::string arch;   ///< "sm_90" (the arch the producer assumed; replay may override)
  std::string kernel; ///< kernel or pattern name
  /// Optional labels for sites ("ld.shared.f32 [%r5]" / "transpose.cu:42").
  std::vector<std::pair<std::uint32_t, std::string>> sites;
};

} // namespace warplens::trace
