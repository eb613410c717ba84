/// \file
/// Inputs of the time model (perf/TimeModel.h) that need the access stream: an estimate of the
/// L1 → L2 read sectors (a sector that a block has already read is an L1 hit: the block's SM keeps
/// it; L1 capacity, other blocks on the same SM and evictions by stores are ignored) and the
/// distinct 128-byte lines of every global load and store request (L1 tag lookups, L1 → L2 store
/// transactions). Sees the same events as the DRAM model.
#pragma once

#include "model/AccessEvent.h"

#include <atomic>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace warplens::analysis {

class L1ReuseListener : public model::AccessListener {
public:
  /// At most this many blocks' sector sets are kept per listener; an older block's set is closed
  /// (its sectors counted as misses) when more blocks appear (workers run blocks one after another).
  static constexpr std::size_t kLiveBlocks = 256;

  /// `fetchSectors`: 32-byte sectors per DRAM fetch unit (the arch's dram.readFetchBytes / 32).
  explicit L1ReuseListener(unsigned fetchSectors = 2) : fetchSectors_(fetchSectors ? fetchSectors : 1) {}
  void onAccess(const model::AccessEvent &event) override;
  /// Lines: the representative's, times the replicas. Misses: the representative's distinct
  /// sectors per replica when all its loads move alike, else each replica's union counted.
  void onReplicas(const model::BlockReplicas &r) override;
  /// Adds `other`'s counts, its open blocks included.
  void merge(const L1ReuseListener &other);

  /// Estimated L1-miss sectors of global loads (distinct sectors per block, summed).
  std::uint64_t missSectors() const;
  std::uint64_t loadLines() const { return scaled(loadLines_); }
  /// Session 8: per load request, its distinct lines holding a sector the block had not read yet
  /// (L1 → L2 requests), summed.
  std::uint64_t missLines() const { return scaled(missLines_); }
  std::uint64_t storeLines() const { return scaled(storeLines_); }
  /// L1 cycles of global load requests, summed: per request the larger of its data-bank conflict
  /// degree (distinct 4-byte words in one of the 32 banks: different lines in the same bank take
  /// a wavefront each) and its distinct lines / kLinesPerWavefront (tag lookups), rounded up.
  /// Session 14: no address stage. Sessions 6-13 also charged distinct lane addresses / 16 (two
  /// cycles for any request of 32 distinct addresses), fitted on l1_lines_1 and l1_banks_2/4/8
  /// (2.3-2.4 cycles per request). ncu on the H100 (2026-11-24) shows those kernels are issue-bound
  /// (issue active 61%, L1 throughput 31%, one data-pipe wavefront per request), and heldout9's
  /// stencil27_3d ran 14.07M load requests of 32 distinct addresses in 1.71 SM cycles each, with
  /// 16.9M data-pipe wavefronts outside shared memory for them and 0.65M store requests
  /// (l1tex__data_pipe_lsu_wavefronts), where the address stage alone would take 2 cycles each.
  std::uint64_t loadWavefronts() const { return scaled(loadWavefronts_); }
  /// Distinct 1 KiB regions (DRAM pages) per global load request, summed: a round of loads spread
  /// over more pages waits for the slowest of more independent DRAM accesses (spread_chase).
  std::uint64_t loadRegions() const { return scaled(loadRegions_); }
  /// Per load site (the event's site id): its requests and those with at least one sector the
  /// block had not read before (L1 misses). A round of loads misses L1 as its loads do: a row read
  /// again later (softmax's second pass) hits in every round, a stream misses in every round
  /// (session 7, reread_rows).
  /// Session 18: `dram`, the missing requests with a missed sector whose DRAM fetch unit (arch
  /// dram.readFetchBytes) no earlier request of the same warp brought. The others wait for the L2
  /// only: the unit came with the warp's earlier fetch (heldout4 gemv_thread, one row per lane read
  /// 4 bytes at a time: L2 read hit rate 0.50 on the H100 with every L1 miss a first touch).
  struct SiteMisses {
    std::uint64_t requests = 0, missing = 0, dram = 0;
  };
  /// Indexed by site id (sites without loads: zeros).
  const std::vector<SiteMisses> &loadMissesBySite() const { return loadMisses_; }
  static constexpr unsigned kRegionShift = 10;
  /// L1 lines looked up per wavefront when the banks do not conflict: measured with l1_banks
  /// (16 and 32 lines per request in 32 banks: 3.8 and 7.2 cycles on the H100, 3.7 and 7.1 on the H200).
  static constexpr unsigned kLinesPerWavefront = 4;
  /// Global atomics and reductions (ATOMG, RED): lane operations, and line requests (a warp
  /// request's distinct 128-byte lines). Atomics are applied one request at a time per unit of
  /// L2, lanes on the same word one after another (atomic family of kernels/timing: 1 lane or 32
  /// lanes on one word cost 1.75 ns per lane op on the H100, 32 lanes on 32 words of a line 2.4
  /// ns per request). A unit holds the lines of one 1 KiB region whose address bit 8 agrees
  /// (atomic_lines: 8 lines 128 B apart queue as 4 lines' worth, 256 or 512 B apart as 2, 1 KiB
  /// or more apart as 1). Per unit, each request on one side (session 7, countAtomic): a chain
  /// (its most lanes on one word, as serial steps) or a pipeline (its sector passes and extra
  /// lines); and its lane ops.
  std::uint64_t atomicOps() const { return scaled(atomicOps_); }
  std::uint64_t atomicLineRequests() const { return scaled(atomicLineRequests_); }
  std::uint64_t hottestLineSteps() const { return scaled(hottest().steps); }
  std::uint64_t hottestLineOps() const { return scaled(hottest().ops); }
  /// The busiest unit's extra lines: per request, its distinct lines in the unit beyond the first
  /// (atomic_multiline: 32 lanes over 1, 2 or 4 lines of one unit cost 2.5, 3.0, 3.9 ns per request
  /// on the H100).
  std::uint64_t hottestLineExtra() const { return scaled(hottest().extraLines); }
  /// The busiest unit's sector passes (pipelined requests): per 32-byte sector of the unit, the most lanes
  /// on one of its words (lanes on one word are applied in turn, distinct words of a sector
  /// together). atomic_bins (session 7): 8 lines x 1 sector per request 3.2 ns (u32), 8 lines x
  /// 4 sectors 11.2 ns, 8 lines x 2 sectors with two lanes per word 11.8 ns (H100).
  std::uint64_t hottestLineSectorOps() const { return scaled(hottest().sectorOps); }
  /// At most this many distinct atomic lines are tracked per listener (the busiest line of a
  /// same-address pattern shows up long before); further lines count in the totals only.
  static constexpr std::size_t kAtomicLines = 1 << 20;
  struct AtomicLine {
    std::uint64_t steps = 0, ops = 0, extraLines = 0, sectorOps = 0;
    /// The busiest unit by its nominal time (the costs of countAtomic), then most ops.
    std::uint64_t rank() const { return 172 * steps + 55 * sectorOps + 45 * extraLines; }
    AtomicLine &operator+=(const AtomicLine &o) {
      steps += o.steps, ops += o.ops, extraLines += o.extraLines, sectorOps += o.sectorOps;
      return *this;
    }
  };
  /// Session 22: which sectors some block of the launch has read already, shared by the launch's
  /// workers: a bitmap indexed by a hash of the sector (a collision reads as "read before"; sized
  /// 8 bits per sector of the launch's buffers, so about one first read in 30 or fewer).
  class SeenSectors {
  public:
    explicit SeenSectors(std::uint64_t bufferBytes);
    /// Marks `sector` read; true if it was marked already.
    bool testAndSet(std::uint64_t sector);

  private:
    std::vector<std::atomic<std::uint64_t>> words_;
    unsigned bits_ = 20;
  };
  /// Session 22 (TimePrediction.cpp crossBlockL1Misses): with `seen`, the listener counts per sector
  /// the blocks that read it after the first (none: sharedSectorReaders() is empty).
  void setSeen(SeenSectors *seen) { seen_ = seen; }
  /// Per sector more than one block read: the blocks that read it (times the sampling scale), in
  /// increasing order. Under block replicas, replicas that move a group alike read its sectors
  /// alike (a group that does not move: every replica); groups where every replica moves apart
  /// are left out.
  std::vector<double> sharedSectorReaders() const;
  /// Sampling: every count multiplied by `f` (blocks in the grid per block run).
  void setScale(double f) { scale_ = f; }

  /// A block's distinct sectors: open addressing, linear probing (the access stream's hot path).
  class SectorSet {
  public:
    void insert(std::uint64_t key);
    std::size_t size() const { return size_; }
    std::vector<std::uint64_t> values() const; ///< in no particular order

  private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);
    std::vector<std::uint64_t> slots_;
    std::size_t size_ = 0;
  };

  /// A block's DRAM fetch units read so far: the warp that first read each and the stamp of its
  /// request (open addressing, linear probing; only first-touched sectors look here).
  class UnitMap {
  public:
    /// The value at `key`, inserting `value` when absent (then returns `value`).
    std::uint64_t findOrInsert(std::uint64_t key, std::uint64_t value);

  private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t(0);
    std::vector<std::uint64_t> keys_, values_;
    std::size_t size_ = 0;
  };
  struct BlockState {
    SectorSet set;
    UnitMap units;
  };

private:
  BlockState &blockSet(std::uint32_t block);
  std::uint64_t scaled(std::uint64_t v) const { return scale_ == 1 ? v : std::uint64_t(double(v) * scale_ + 0.5); }

  double scale_ = 1;

  unsigned fetchSectors_ = 2;
  std::uint64_t requestStamp_ = 0; ///< load requests seen (stamps UnitMap entries)
  std::unordered_map<std::uint32_t, BlockState> live_;
  std::uint32_t lastBlock_ = ~0u;
  BlockState *last_ = nullptr;
  std::deque<std::uint32_t> order_;
  std::uint64_t closedMisses_ = 0;
  std::uint64_t loadLines_ = 0, missLines_ = 0, storeLines_ = 0, loadWavefronts_ = 0, loadRegions_ = 0;
  std::vector<SiteMisses> loadMisses_;
  SeenSectors *seen_ = nullptr;
  std::unordered_map<std::uint64_t, std::uint64_t> readers_; ///< sector -> blocks reading it after the first
  SiteMisses &missesAt(std::uint32_t site) {
    if (site >= loadMisses_.size()) loadMisses_.resize(site + 1);
    return loadMisses_[site];
  }
  /// Adds `other`'s per-site counts `times` over (merge: once; replicas: once per replica).
  void addLoadMisses(const std::vector<SiteMisses> &other, std::uint64_t times);
  std::uint64_t atomicOps_ = 0, atomicLineRequests_ = 0;
  std::unordered_map<std::uint64_t, AtomicLine> atomicAt_; ///< per unit (1 KiB region, bit 8)
  AtomicLine hottest() const;
  void countAtomic(const model::AccessEvent &e, std::int64_t shift, std::uint64_t times);
};

} // namespace warplens::analysis
