/// \file
/// Cold-L2 DRAM model: predicts `dram__bytes_read.sum` from the distinct global sectors read (ld,
/// atom, red) over the whole launch under the architecture's fetch rule (arch "dram" group:
/// DRAM reads happen in aligned units of `readFetchBytes`; a sector that stores write only in
/// part is filled from DRAM, one sector, when `fillPartialWrites` and no read brought it), and
/// the bytes written (distinct sectors stored).
/// L2 capacity (sessions 8 and 21): a fetch unit read again (either sector) is fetched again (a
/// whole unit) when its line was evicted since the unit's last read: when one of the line's reuse
/// times in between has a footprint (Footprint.h: the distinct 128-byte lines touched in that many
/// line accesses, on average over the launch, times the sampling factor) above the L2's reuse
/// capacity. The clock (ReuseClock.h) counts line accesses, every worker's reads and writes; each
/// unit keeps the longest reuse time of its line since its last read (an eviction drops the whole
/// line, whichever unit brought it back). The capacity is the device's measured one
/// (DeviceSpec::l2ReuseBytes: 30 MiB on the H100, 35 MiB on the H200, from uniform random gathers
/// over 8 to 128 MiB, kernels/timing/l2_study.json), not the 50 MB of the whitepaper.
/// Until session 21 the rule compared the reuse time itself with 50 MB, which re-fetched data read
/// over and over while it stayed in the L2 (CSR SpMV's 16 MiB vector x gathered at random between
/// streams of 128 MiB, heldout14_csr_spmv: 465 MB predicted, 177 read on the H100; now 151) and
/// missed others (latency_chase_132x512_32: 59 predicted, 101 read; now 101). Scattered 4-byte
/// reads fill the L2 a line each: random gathers from a 256 MiB table read 1071 MB on the H100 for
/// 16.8M gathers (gather_rand_16M_t64M; this rule: 1079), a permutation gather of a 64 MiB table
/// 838 (heldout5_gather_perm_16M), a 16 MiB table read 8 times one float per sector 17
/// (heldout2_gather_stride8_4M: every line whole, no re-fetch).
/// Written sectors (session 11; still the reuse time against the arch's l2Bytes, not the
/// footprint): a sector written again after more than the L2's capacity of line reads and writes
/// since its previous write was evicted in between: written back once more (32
/// bytes written), and, where that earlier stay left it partly written, filled from DRAM (32 bytes
/// read). A paged KV-cache write scattering 2-byte values into 32-byte sectors 16 times each over a
/// 128 MiB cache reads 901 MB and writes 974 MB on the H100 for 128 MiB of input
/// (heldout10_reshape_and_cache_u16). Whether the earlier stay was partial is the worker's own mask
/// of it, or, where another worker wrote it, this store's.
/// Does not model when dirty lines reach DRAM (dram__bytes_write of a kernel depends on what stays
/// in L2), or code fetches.
#pragma once

#include "arch/ArchSpec.h"
#include "model/AccessEvent.h"
#include "model/Footprint.h"
#include "model/ReuseClock.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace warplens::model {

/// Listener; one per worker thread, merged afterwards. Memory: a bitmap of 4 KiB per MiB of
/// global address space read, and 256 KiB of byte masks per MiB written.
class DramSectorModel : public AccessListener {
public:
  explicit DramSectorModel(const arch::ArchSpec &arch);
  DramSectorModel(const DramSectorModel &config, bool empty); ///< the same rules, nothing marked
  void onAccess(const AccessEvent &event) override;
  /// Marks each replica's sectors: per group of events the representative's distinct sectors
  /// read and byte masks written, moved by the replica's shift (whole sectors: 128-byte moves).
  void onReplicas(const BlockReplicas &r) override;
  void merge(const DramSectorModel &other);
  /// Sampling: the byte and sector counts below are multiplied by `f` (blocks in the grid per
  /// block run), as if the blocks not run touched as many sectors of their own.
  void setScale(double f) { scale_ = f; }
  /// The launch's read clock (shared by the workers' models; nullptr: the capacity rule is off) and
  /// the factor its distances are multiplied by (a sampled run's blocks in the grid per block run).
  void setReuseClock(ReuseClock *clock, double distanceScale = 1) { clock_ = clock, distanceScale_ = distanceScale; }
  /// Re-reads fetched again because the L2 no longer held them (fetch units); bytes: x the unit.
  /// Those whose reuse time's footprint (the distinct lines touched in that many line accesses,
  /// Footprint.h) exceeds the L2: none when the launch's lines all fit. Call after the workers
  /// are done and merged (it reads the clock's last stamps).
  std::uint64_t refetches() const;
  /// The same at another L2 capacity (bytes; the rule's reuse capacity, setReuseCapacity).
  std::uint64_t refetchesAt(double capacityBytes) const;
  std::uint64_t refetchBytesAt(double capacityBytes) const { return refetchesAt(capacityBytes) * fetchSectors_ * sectorBytes_; }
  /// The L2 bytes the read rule works with (default: the arch's l2Bytes; a device's measured
  /// l2ReuseBytes, perf/DeviceSpec.h). The write rule keeps the arch's l2Bytes (session 11).
  void setReuseCapacity(double bytes) { reuseCapacity_ = bytes, refetchCache_ = -1; }
  double reuseCapacity() const { return reuseCapacity_; }
  /// The launch's line footprint (lines, accesses and reuse times; Footprint.h), from the clock.
  Footprint footprint() const;
  /// Plus the partly written sectors filled again after an eviction (see the file comment).
  std::uint64_t refetchBytes() const { return (refetches() * fetchSectors_ + refills()) * sectorBytes_; }
  /// Sectors written back before their last write (evicted, written again): extra 32-byte writes.
  std::uint64_t rewrites() const;
  /// Of those, the stays that left the sector partly written: 32-byte fill reads.
  std::uint64_t refills() const;
  std::uint64_t refillBytes() const { return refills() * sectorBytes_; }

  std::uint64_t sectorsRead() const;
  /// DRAM bytes read: readFetchBytes x the fetch units covering the sectors read, plus one
  /// sector per partly written sector not already fetched (when the rule fills them).
  std::uint64_t bytesRead() const;
  std::uint64_t sectorsWritten() const;
  /// DRAM bytes written: the distinct sectors written, plus the rewrites.
  std::uint64_t bytesWritten() const { return (sectorsWritten() + rewrites()) * sectorBytes_; }
  /// Written sectors whose 32 bytes were not all written (and were not read).
  std::uint64_t sectorsPartlyWritten() const;

private:
  static constexpr std::uint64_t kLineBytes = 128; ///< L2 line (the capacity rule counts lines)
  static constexpr unsigned kPageShift = 15; ///< sectors per page = 32768 (1 MiB of 32-byte sectors)
  static constexpr std::size_t kWords = (std::size_t(1) << kPageShift) / 64;
  static constexpr std::size_t kSectors = std::size_t(1) << kPageShift;
  void mark(std::uint64_t sector, bool newLine = true);
  /// A store's bytes of one sector: ORs them into the sector's mask; with the clock, a rewrite
  /// after an eviction starts the mask again.
  void writeSector(std::uint64_t sector, std::uint32_t mask, bool newLine);
  bool fitsInL2() const;
  /// The page of write masks holding `sector` (allocated on first write; the last one is cached).
  std::vector<std::uint32_t> &writePage(std::uint64_t sector);
  void orWriteMask(std::uint64_t sector, std::uint32_t mask);

  double scale_ = 1;
  unsigned sectorShift_ = 5;
  unsigned sectorBytes_ = 32;
  unsigned fetchSectors_ = 1;       ///< readFetchBytes / sectorBytes
  bool fillPartialWrites_ = false;
  double distanceScale_ = 1;
  std::uint64_t capacity_ = 0;     ///< L2 bytes (0: rule off); the write rule's
  double reuseCapacity_ = 0;       ///< the read rule's
  /// Per re-read of a fetch unit, the longest reuse time of its line since the unit's last read.
  TimeHistogram unitGap_;
  TimeHistogram lineReuse_, lineFirst_; ///< of lines touched (read or written): r_t, f_i
  mutable std::int64_t refetchCache_ = -1;
  std::uint64_t rewrites_ = 0, refills_ = 0;
  ReuseClock *clock_ = nullptr;
  ReuseClock::Cursor cursor_;
  ReuseClock::Cursor writeCursor_; ///< written sectors' stamps: keys with kWriteKey set
  ReuseClock::Page linePage_;      ///< lines' stamps: keys with kLineKey set
  ReuseClock::Page gapPage_;       ///< fetch units' longest line gaps: keys with kGapKey set
  static constexpr std::uint64_t kWriteKey = std::uint64_t(1) << 62;
  static constexpr std::uint64_t kLineKey = std::uint64_t(1) << 61;
  static constexpr std::uint64_t kGapKey = std::uint64_t(1) << 60;
  void touchLine(std::uint64_t sector, std::uint32_t now);
  std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> pages_;
  /// Per page, byte masks per sector: [0, kSectors) every byte written, [kSectors, 2 kSectors) the
  /// bytes written since the sector's last eviction (its current stay in the L2).
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> written_;
  std::uint64_t lastPage_ = ~0ull;
  std::vector<std::uint64_t> *last_ = nullptr;
  std::uint64_t lastWritePage_ = ~0ull;
  std::vector<std::uint32_t> *lastWrite_ = nullptr;
};

} // namespace warplens::model
