/// \file
/// The event every address source (PTX emulator, trace reader, pattern evaluator) emits for one
/// warp-level memory instruction, and the listener interface that models and writers implement.
#pragma once

#include "util/Types.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace warplens::model {

enum class Space : std::uint8_t { Global, Shared, Local, Const, Param, Generic };
enum class Op : std::uint8_t { Load, Store, Atomic, Reduce };

std::string_view toString(Space s);
std::string_view toString(Op o);
/// Inverse of toString ("global", "shared", ...; "ld", "st", "atom", "red"); nullopt if unknown.
std::optional<Space> parseSpace(std::string_view s);
std::optional<Op> parseOp(std::string_view s);

/// One warp executing one memory instruction.
/// `site` identifies the instruction (an index the producer defines: PTX instruction index within
/// the kernel, SASS pc, or pattern number). Addresses of inactive lanes are unspecified.
/// `widthBytes` is the per-lane access size: 1, 2, 4, 8 or 16.
struct AccessEvent {
  std::uint32_t site = 0;
  Space space = Space::Global;
  Op op = Op::Load;
  std::uint8_t widthBytes = 4;
  LaneMask active;
  std::array<ByteAddress, 32> addr{};
  std::uint32_t block = 0; ///< linear block index in the grid
  std::uint32_t warp = 0;  ///< warp index inside the block
  /// The warp jumped over this instruction: all its active lanes took a forward branch whose
  /// target lies past it (`active` is empty, addresses unset). Not an execution at PTX level;
  /// ptxas may have if-converted the branch into a predicated SASS instruction that the warp
  /// does execute (sass::GroupingListener decides). Listeners that count executions of the
  /// events they see directly must ignore skipped events.
  bool skipped = false;
  /// A further part of an execution already counted by the previous event of the same site
  /// (the shared-memory write of an LDGSTS after its global read): models add its costs, but
  /// listeners that count executions or threads do not count it again.
  bool companion = false;
  /// Shared events: the instruction takes at least this many wavefronts whatever the banks say
  /// (LDGSTS writes shared memory once per 128-byte global line it read; H100-measured).
  std::uint8_t minWavefronts = 0;
  /// Shared atomics with a per-lane operand (ATOMS.ADD, MIN, MAX, AND, OR, XOR, EXCH, CAS; PTX
  /// atom.shared other than add 1): every active lane is an access of its own, lanes on one word
  /// do not share it, so a phase takes as many wavefronts as the most lanes any one bank serves
  /// (H200-measured on kernels/timing/atoms_study: 2 to 32 lanes per word take 2 to 32
  /// wavefronts; ATOMS.POPC.INC, atomicAdd(&w, 1), adds the lane count once per word and is
  /// counted as a load).
  bool laneSerial = false;
  /// Shared events of a warpgroup MMA (HGMMA) reading its operand tiles through descriptors:
  /// when >= 0, the wavefronts (and ideal wavefronts) of this execution, with no bank model and
  /// no LSU hardware wavefronts (H100: the SASS metric counts (A + B tile bytes) / 128 per
  /// warpgroup, on one of its warps; the l1tex__data_pipe_lsu_* counters count nothing).
  std::int32_t tileWavefronts = -1;
};

/// Blocks of a launch that make exactly the events of one representative block, each event's
/// addresses moved by a fixed number of bytes per block step (the SASS engine's block symmetry in
/// address-only mode, sassemu/Symmetry.h, proves it: same control flow and guards in every block,
/// every address affine in the block index, every move a multiple of 128 bytes). Event k of
/// `events` made by replica i has the addresses of its active lanes moved by shift(group[k], i)
/// and block = blockLinear[i]; nothing else changes.
struct BlockReplicas {
  const std::vector<AccessEvent> *events = nullptr;  ///< the representative's events, in order
  const std::vector<std::uint32_t> *group = nullptr; ///< per event: its row of `coef`
  std::vector<std::array<std::int64_t, 3>> coef;     ///< bytes per block step in x, y, z
  std::array<std::uint32_t, 3> rep{0, 0, 0};         ///< the representative block
  std::vector<std::array<std::uint32_t, 3>> blocks;  ///< the replicas (never the representative)
  std::vector<std::uint32_t> blockLinear;

  std::int64_t shift(std::size_t g, std::size_t i) const {
    std::int64_t s = 0;
    for (int d = 0; d < 3; ++d)
      s += coef[g][d] * (std::int64_t(blocks[i][d]) - std::int64_t(rep[d]));
    return s;
  }
  /// Event k as replica i makes it.
  AccessEvent moved(std::size_t k, std::size_t i) const;
};

/// Receives access events. Models, statistics and trace writers implement this.
class AccessListener {
public:
  virtual ~AccessListener() = default;
  virtual void onAccess(const AccessEvent &event) = 0;
  /// The events of `r`'s replicas (in addition to the representative's, already seen through
  /// onAccess). The default replays every moved event through onAccess; listeners whose result
  /// needs less (per-site sums, per-block counts) override it to cost far less than the replay.
  virtual void onReplicas(const BlockReplicas &r);
  /// Called once when a producer has emitted every event (flush buffers, close files).
  virtual void onEnd() {}
};

} // namespace warplens::model
