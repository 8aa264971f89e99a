// Domain id aliases shared by every module (docs/ARCHITECTURE.md, "Conventions" 6): one place, so a node id
// and a channel id never get mixed up by accident in a signature.
#pragma once

#include <cstdint>
#include <limits>

namespace ccsched {

using NodeId = std::int32_t;     // 0..n-1, as in FORMATS.md
using ChannelId = std::int32_t;  // index into Topology::channels()
using MessageId = std::int32_t;  // index into Collective::messages
using Step = std::int32_t;       // 1..steps, as in FORMATS.md

inline constexpr NodeId kNoNode = -1;
inline constexpr ChannelId kNoChannel = -1;
inline constexpr int kUnreachable = std::numeric_limits<int>::max();

}  // namespace ccsched
