/// \file
/// GroupingListener: rewrites PTX-level access events into SASS-level ones. Components of one
/// multi-component SASS instruction are buffered per warp and emitted as one wide event once all
/// have arrived and agree (same active lanes, lane address + component offset). Copies of an
/// unrolled loop get a warp's executions as ptxas runs them: passes of U on the main body, the
/// remainder on the tails (see unrolledLoopBody); other copies round-robin. Skipped events count
/// as executions of guarded (if-converted) SASS instructions only.
#include "sass/Grouping.h"

#include <algorithm>
#include <cctype>

namespace warplens::sass {
namespace {

std::uint64_t warpKey(const model::AccessEvent &e) {
  return (static_cast<std::uint64_t>(e.block) << 5) | (e.warp & 31u);
}

} // namespace

bool hasGuardPredicate(const std::string &text) {
  std::size_t i = text.find_first_not_of(" \t");
  if (i == std::string::npos || text[i] != '@') return false;
  ++i;
  if (i < text.size() && text[i] == '!') ++i;
  if (i < text.size() && text[i] == 'U') ++i;
  return i + 1 < text.size() && text[i] == 'P' &&
         std::isdigit(static_cast<unsigned char>(text[i + 1]));
}

GroupingListener::GroupingListener(const Grouping &grouping, model::AccessListener &downstream)
    : grouping_(&grouping), downstream_(&downstream) {
  guarded_.assign(grouping.sassSites.size(), 0);
  for (std::size_t i = 0; i < grouping.sassSites.size(); ++i) {
    const model::SiteInfo &site = grouping.sassSites[i];
    if (site.site < guarded_.size() && site.sassPc && hasGuardPredicate(site.sassText))
      guarded_[site.site] = 1;
  }
  std::uint32_t maxId = grouping.byPtxSite.empty() ? 0 : grouping.byPtxSite.rbegin()->first;
  if (maxId < (1u << 20)) {
    flat_.assign(maxId + 1, nullptr);
    for (const auto &[id, m] : grouping.byPtxSite) flat_[id] = &m;
  }
}

GroupingListener::GroupingListener(const Grouping &grouping,
                                   std::unique_ptr<model::AccessListener> downstream)
    : GroupingListener(grouping, *downstream) {
  owned_ = std::move(downstream);
}

const Grouping::Member *GroupingListener::member(std::uint32_t ptxSite) const {
  if (!flat_.empty() || grouping_->byPtxSite.empty())
    return ptxSite < flat_.size() ? flat_[ptxSite] : nullptr;
  auto it = grouping_->byPtxSite.find(ptxSite);
  return it == grouping_->byPtxSite.end() ? nullptr : &it->second;
}

unsigned unrolledLoopBody(std::size_t copies) {
  if (copies < 3 || ((copies + 1) & copies) != 0) return 0; // copies + 1 a power of two
  return static_cast<unsigned>((copies + 1) / 2);
}

void GroupingListener::endLoops(std::optional<std::uint64_t> warp) {
  auto it = warp ? passes_.lower_bound({*warp, 0}) : passes_.begin();
  while (it != passes_.end() && (!warp || it->first.first == *warp)) {
    std::vector<model::AccessEvent> rest = std::move(it->second);
    const std::uint32_t ptxSite = it->first.second;
    it = passes_.erase(it);
    if (rest.empty()) continue;
    const Grouping::Member &m = *member(ptxSite);
    const std::size_t u = unrolledLoopBody(m.copies.size());
    ++remainders_;
    // Tails of U/2, ..., 1 copies follow the main body in pc order; each runs once if the
    // remainder still holds its size (largest first), the last one as often as needed.
    std::size_t next = 0, tail = u, size = u / 2;
    while (next < rest.size()) {
      if (rest.size() - next >= size || size == 1) {
        for (std::size_t k = 0; k < size && next < rest.size(); ++k)
          route(rest[next++], m, m.copies[tail + k]);
      }
      if (size > 1) {
        tail += size;
        size /= 2;
      }
    }
  }
}

void GroupingListener::onAccess(const model::AccessEvent &event) {
  if (!passes_.empty() && passBlock_ && *passBlock_ != event.block) endLoops(std::nullopt);
  passBlock_ = event.block;
  const Grouping::Member *found = this->member(event.site);
  if (event.skipped) { // only a guarded SASS instruction executes it: leave loop state alone
    bool any = found && guarded(found->sassSite);
    for (std::size_t k = 0; found && !any && k < found->copies.size(); ++k)
      any = guarded(found->copies[k]);
    if (!any) {
      ++skippedDropped_;
      return;
    }
  }
  if (!found || found->copies.size() <= 1) {
    if (!passes_.empty()) endLoops(warpKey(event)); // the warp left its unrolled loops
  }
  if (!found) {
    ++unknown_;
    downstream_->onAccess(event);
    return;
  }
  const Grouping::Member &member = *found;
  std::uint32_t sassSite = member.sassSite;
  if (const unsigned u = unrolledLoopBody(member.copies.size())) {
    std::vector<model::AccessEvent> &pass = passes_[{warpKey(event), event.site}];
    pass.push_back(event);
    if (pass.size() < u) return;
    for (std::size_t k = 0; k < u; ++k) route(pass[k], member, member.copies[k]); // no re-entry
    pass.clear();
    return;
  }
  if (member.copies.size() > 1) {
    auto block = counts_.find(event.block);
    if (block == counts_.end()) {
      if (countBlocks_.size() >= kMaxBlocks) {
        counts_.erase(countBlocks_.front());
        countBlocks_.pop_front();
      }
      countBlocks_.push_back(event.block);
      block = counts_.emplace(event.block, std::unordered_map<std::uint64_t, std::uint64_t>{}).first;
    }
    std::uint64_t k = block->second[(static_cast<std::uint64_t>(event.warp) << 32) | event.site]++;
    sassSite = member.copies[k % member.copies.size()];
  }
  route(event, member, sassSite);
}

void GroupingListener::route(const model::AccessEvent &event, const Grouping::Member &member,
                             std::uint32_t sassSite) {
  if (event.skipped) {
    if (!guarded(sassSite)) { // this copy kept its branch
      ++skippedDropped_;
      return;
    }
    ++skippedExecuted_;
    model::AccessEvent executed = event; // predicated off in every lane, executed all the same
    executed.skipped = false;
    executed.active = LaneMask::none();
    const model::Space space = grouping_->sassSites[sassSite].space;
    if (space != model::Space::Generic) executed.space = space;
    return route(executed, member, sassSite);
  }
  const model::SiteInfo *info = sassSite < grouping_->sassSites.size() &&
                                        grouping_->sassSites[sassSite].site == sassSite
                                    ? &grouping_->sassSites[sassSite]
                                    : nullptr;
  if (member.components <= 1) {
    model::AccessEvent out = event;
    out.site = sassSite;
    if (info && info->sassPc) out.op = info->op;
    downstream_->onAccess(out);
    return;
  }
  std::uint64_t wk = warpKey(event);
  std::vector<Pending> &list = pending_[wk];
  auto p = std::find_if(list.begin(), list.end(),
                        [&](const Pending &x) { return x.sassSite == sassSite; });
  if (p == list.end()) {
    list.push_back(Pending{sassSite, member.components, {}});
    p = list.end() - 1;
  } else if (std::any_of(p->parts.begin(), p->parts.end(), [&](const auto &part) {
               return part.first == member.offsetBytes;
             })) {
    flushSplit(*p); // the previous execution never completed
    p->parts.clear();
  }
  p->parts.emplace_back(member.offsetBytes, event);
  if (p->parts.size() < p->components) return;
  finish(*p);
  list.erase(p);
  if (list.empty()) pending_.erase(wk);
}

void GroupingListener::finish(Pending &pending) {
  std::sort(pending.parts.begin(), pending.parts.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  const model::AccessEvent &lead = pending.parts.front().second;
  bool consistent = pending.parts.front().first == 0;
  for (const auto &[offset, e] : pending.parts) {
    if (!consistent) break;
    if (e.active != lead.active || e.space != lead.space) consistent = false;
    for (unsigned lane = 0; consistent && lane < 32; ++lane)
      if (lead.active.test(lane) && e.addr[lane].value != lead.addr[lane].value + offset)
        consistent = false;
  }
  if (!consistent) return flushSplit(pending);
  model::AccessEvent out = lead;
  out.site = pending.sassSite;
  const model::SiteInfo *info = pending.sassSite < grouping_->sassSites.size()
                                    ? &grouping_->sassSites[pending.sassSite]
                                    : nullptr;
  unsigned total = 0;
  for (const auto &part : pending.parts) total += part.second.widthBytes;
  out.widthBytes = static_cast<std::uint8_t>(info ? info->widthBytes : total);
  if (info && info->sassPc) out.op = info->op;
  ++merged_;
  downstream_->onAccess(out);
}

void GroupingListener::flushSplit(Pending &pending) {
  for (auto &part : pending.parts) {
    model::AccessEvent out = part.second;
    out.site = pending.sassSite;
    ++split_;
    downstream_->onAccess(out);
  }
}

void GroupingListener::onEnd() {
  endLoops(std::nullopt);
  for (auto &[key, list] : pending_)
    for (Pending &p : list) flushSplit(p);
  pending_.clear();
  downstream_->onEnd();
}

} // namespace warplens::sass
