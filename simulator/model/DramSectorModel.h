/// \file
/// Cold-L2 DRAM model: predicts `dram__bytes_read.sum` from the distinct global sectors read (ld,
/// atom, red) over the whole launch under the architecture's fetch rule (arch "dram" group:
/// DRAM reads happen in aligned units of `readFetchBytes`; a sector that stores write only in
/// part is filled from DRAM, one sector, when `fillPartialWrites` and no read brought it), and
/// the bytes written (distinct sectors stored).
/// L2 capacity (session 8): a fetch unit read again (either sector) after more than the L2's
/// capacity in 128-byte lines of line reads since its last read (the launch's reads, every
/// worker's: ReuseClock.h; times the sampling factor) is fetched again (a whole fetch unit). The
/// L2 allocates whole lines, so scattered 4-byte reads fill it a line each: random gathers from a
/// 256 MiB table read 1071 MB from DRAM on the H100 for 16.8M gathers (gather_rand_16M_t64M;
/// this rule: 1071), a permutation gather of a 64 MiB table 838 (heldout5_gather_perm_16M), a
/// 16 MiB table read 8 times one float per sector 17 (heldout2_gather_stride8_4M: every line whole,
/// 128K lines between re-reads: no re-fetch).
/// Written sectors (session 11): a sector written again after more than the L2's capacity of line
/// reads and writes since its previous write was evicted in between: written back once more (32
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
  /// None when the launch's data (distinct sectors read and written) fits in the L2: its reads
  /// between two of a unit count every line read, not distinct lines, so data read over and over
  /// (SGEMM tiles) would look evicted while the L2 holds all of it.
  std::uint64_t refetches() const;
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
  std::uint64_t capacity_ = 0;     ///< L2 bytes (0: rule off)
  std::uint64_t refetches_ = 0;
  std::uint64_t rewrites_ = 0, refills_ = 0;
  ReuseClock *clock_ = nullptr;
  ReuseClock::Cursor cursor_;
  ReuseClock::Cursor writeCursor_; ///< written sectors' stamps: keys with kWriteKey set
  static constexpr std::uint64_t kWriteKey = std::uint64_t(1) << 62;
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
