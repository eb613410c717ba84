/// \file
/// Cold-L2 DRAM read model: predicts `dram__bytes_read.sum` as sector size x the distinct global
/// sectors read (ld, atom, red) over the whole launch. Does not model L2 capacity (data read twice
/// after eviction counts once), stores (never fetched: L2 keeps byte masks), or DRAM writes.
#pragma once

#include "arch/ArchSpec.h"
#include "model/AccessEvent.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace warplens::model {

/// Listener; one per worker thread, merged afterwards. Memory is a bitmap of 4 KiB per MiB of
/// global address space that was read (proportional to data touched, not to events).
class DramSectorModel : public AccessListener {
public:
  explicit DramSectorModel(const arch::ArchSpec &arch);
  void onAccess(const AccessEvent &event) override;
  void merge(const DramSectorModel &other);

  std::uint64_t sectorsRead() const;
  std::uint64_t bytesRead() const { return sectorsRead() * sectorBytes_; }

private:
  static constexpr unsigned kPageShift = 15; ///< sectors per page = 32768 (1 MiB of 32-byte sectors)
  static constexpr std::size_t kWords = (std::size_t(1) << kPageShift) / 64;
  void mark(std::uint64_t sector);

  unsigned sectorShift_ = 5;
  unsigned sectorBytes_ = 32;
  std::unordered_map<std::uint64_t, std::vector<std::uint64_t>> pages_;
  std::uint64_t lastPage_ = ~0ull;
  std::vector<std::uint64_t> *last_ = nullptr;
};

} // namespace warplens::model
