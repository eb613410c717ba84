/// \file
/// Groups the emulator's PTX-level memory sites into the SASS instructions ptxas emitted (four
/// ld.shared.f32 at +0/4/8/12 → one LDS.128), and a listener that merges their events per warp
/// into one wide event per SASS instruction execution.
#pragma once

#include "model/AccessEvent.h"
#include "model/Site.h"
#include "sass/SassListing.h"
#include "util/Expected.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace warplens::sass {

struct Grouping {
  /// One entry per SASS memory instruction; `site` ids are the new (SASS-level) ids.
  std::vector<model::SiteInfo> sassSites;
  /// PTX site → (SASS site id, byte offset of this component in the wide access, components)
  struct Member {
    std::uint32_t sassSite = 0;
    unsigned offsetBytes = 0;
    unsigned components = 1;
    /// When ptxas duplicated the instruction (unrolled a loop): every copy's SASS site id, in pc
    /// order (copies[0] == sassSite). n = 2U-1 copies (U a power of two ≥ 2) are read as ptxas
    /// lays out an unrolled counted loop: a main body of U copies, then tails of U/2, ..., 1
    /// (see unrolledLoopBody()); any other n: a warp's k-th execution goes to copies[k % n].
    std::vector<std::uint32_t> copies;
  };
  std::map<std::uint32_t, Member> byPtxSite;
  std::vector<std::string> notes; ///< anything that could not be matched, said plainly
};

/// Matches every PTX memory site to the SASS memory instruction that executes it (see
/// Grouping.cpp for the algorithm). Sites it cannot match stay PTX-level (own site, no sassPc)
/// with a note naming the source line. Every PTX site gets an entry in byPtxSite; sassSites ids
/// are 0..n-1: SASS instructions in pc order, then the PTX-level leftovers.
Expected<Grouping> groupAccesses(const std::vector<model::SiteInfo> &ptxSites,
                                 const SassFunction &function);

/// U when `copies` copies are a main body of U plus tails U/2, ..., 1 (copies = 2U-1, U a power
/// of two ≥ 2), else 0. A loop instance of m iterations then runs the main body floor(m/U) times
/// (iteration k of a pass on copy k) and the remainder m mod U on the tails, largest first — as
/// ptxas' unrolled loops do (checked on the seeds' SASS: the main body loops while ≥ U remain).
unsigned unrolledLoopBody(std::size_t copies);

/// The identity grouping: one site per PTX site (same ids), for when no SASS is available.
Grouping identityGrouping(const std::vector<model::SiteInfo> &ptxSites);

/// Address operand of a PTX memory instruction: "ld.shared.f32 %f2, [%r6+4];" → {"%r6", 4}.
struct PtxAddress {
  std::string base;
  std::int64_t offset = 0;
};
std::optional<PtxAddress> parsePtxAddress(const std::string &ptxText);

/// True when a SASS instruction's text opens with a guard predicate ("@!P1 LDG.E.128 ...",
/// "@P0 ...", "@UP2 ..."); "@PT"/"@!PT" and unguarded text are false.
bool hasGuardPredicate(const std::string &sassText);

/// Rewrites PTX-level events into SASS-level events for `downstream`: components of one SASS
/// instruction executed by the same warp are merged into one event of the SASS width.
/// Skipped events (the warp jumped over the PTX instruction, AccessEvent::skipped) become an
/// ordinary execution with no active lanes when the SASS instruction they reach carries a guard
/// predicate — ptxas turned the branch into predication, and a warp executes a predicated
/// instruction even with every lane off — and are dropped otherwise (ptxas kept the branch).
/// One per emulator worker (it keeps per-warp state); `grouping` must outlive it. Usage:
///   factory = [&] { return std::make_unique<GroupingListener>(
///                       grouping, std::make_unique<model::StatsCollector>(arch)); };
///   ... afterwards static_cast<GroupingListener &>(*l).downstream() is the StatsCollector.
/// Events of merged instructions reach `downstream` when their last component arrives.
class GroupingListener : public model::AccessListener {
public:
  GroupingListener(const Grouping &grouping, model::AccessListener &downstream);
  /// Owns its downstream listener.
  GroupingListener(const Grouping &grouping, std::unique_ptr<model::AccessListener> downstream);
  model::AccessListener &downstream() { return *downstream_; }
  void onAccess(const model::AccessEvent &event) override;
  void onEnd() override;

  /// Executions of multi-component instructions emitted as one wide event.
  std::uint64_t mergedExecutions() const { return merged_; }
  /// Component events emitted separately because masks/addresses were inconsistent, a component
  /// was missing, or a component repeated before the instruction was complete.
  std::uint64_t splitComponents() const { return split_; }
  /// Events whose site was not in the grouping (passed through unchanged).
  std::uint64_t unknownSites() const { return unknown_; }
  /// Loop instances whose remainder (m mod U > 0) went to tail copies.
  std::uint64_t remainders() const { return remainders_; }
  /// Skipped (PTX-level) events that reached a guarded SASS instruction (its components
  /// counted separately) / that were dropped (unguarded or unknown site).
  std::uint64_t skippedExecuted() const { return skippedExecuted_; }
  std::uint64_t skippedDropped() const { return skippedDropped_; }

private:
  struct Pending {
    std::uint32_t sassSite = 0;
    unsigned components = 0;
    std::vector<std::pair<unsigned, model::AccessEvent>> parts; ///< (offset, event)
  };
  void flushSplit(Pending &pending);
  void finish(Pending &pending);
  /// The part of onAccess after the copy is chosen: merge components or pass through.
  void route(const model::AccessEvent &event, const Grouping::Member &member,
             std::uint32_t sassSite);
  /// Ends the loop instances pending for warp key `warp` (all warps when nullopt): their remainders go
  /// to the tail copies.
  void endLoops(std::optional<std::uint64_t> warp);

  const Grouping *grouping_;
  model::AccessListener *downstream_;
  std::unordered_map<std::uint64_t, std::vector<Pending>> pending_;     ///< by warp
  const Grouping::Member *member(std::uint32_t ptxSite) const;

  std::unique_ptr<model::AccessListener> owned_;
  std::vector<const Grouping::Member *> flat_; ///< byPtxSite as a vector when ids are small
  /// Executions per (warp, PTX site) of duplicated sites, by block; only the most recent
  /// kMaxBlocks blocks are kept (a block that comes back restarts its round-robin).
  std::unordered_map<std::uint32_t, std::unordered_map<std::uint64_t, std::uint64_t>> counts_;
  std::deque<std::uint32_t> countBlocks_;
  static constexpr std::size_t kMaxBlocks = 512;
  /// Unrolled-loop members (unrolledLoopBody() > 0): executions of the current main-body pass
  /// per (warp key, PTX site), not yet emitted; a pass of U goes out at once, a shorter rest at
  /// the end of the loop instance (the warp touches a site without copies, a new block starts,
  /// or onEnd). Blocks come one after another from one emulator worker.
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::vector<model::AccessEvent>> passes_;
  std::optional<std::uint32_t> passBlock_;
  std::uint64_t merged_ = 0, split_ = 0, unknown_ = 0, remainders_ = 0;
  std::uint64_t skippedExecuted_ = 0, skippedDropped_ = 0;
  std::vector<std::uint8_t> guarded_; ///< by SASS site id: hasGuardPredicate(sassText)
  bool guarded(std::uint32_t sassSite) const {
    return sassSite < guarded_.size() && guarded_[sassSite];
  }
};

} // namespace warplens::sass
