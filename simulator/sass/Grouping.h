/// \file
/// Groups the emulator's PTX-level memory sites into the SASS instructions ptxas emitted (four
/// ld.shared.f32 at +0/4/8/12 → one LDS.128), and a listener that merges their events per warp
/// into one wide event per SASS instruction execution.
#pragma once

#include "model/AccessEvent.h"
#include "model/Site.h"
#include "sass/SassListing.h"
#include "util/Expected.h"

#include <map>
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
  };
  std::map<std::uint32_t, Member> byPtxSite;
  std::vector<std::string> notes; ///< anything that could not be matched, said plainly
};

Expected<Grouping> groupAccesses(const std::vector<model::SiteInfo> &ptxSites,
                                 const SassFunction &function);

/// Rewrites PTX-level events into SASS-level events for `downstream`: components of one SASS
/// instruction executed by the same warp are merged into one event of the SASS width.
class GroupingListener : public model::AccessListener {
public:
  GroupingListener(const Grouping &grouping, model::AccessListener &downstream);
  void onAccess(const model::AccessEvent &event) override;
  void onEnd() override;

private:
  const Grouping *grouping_;
  model::AccessListener *downstream_;
};

} // namespace warplens::sass
