// The verifier: checks the ten validity rules of FORMATS.md and names every violation.
// It shares no code with the engines beyond the data types, so it catches their bugs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

struct Violation {
  int rule = 0;                          // 1..10 as numbered in FORMATS.md
  std::optional<Step> step;
  std::optional<int> transfer;           // index into Schedule::transfers
  std::optional<ChannelId> channel;
  std::optional<NodeId> node;
  std::optional<MessageId> message;
  std::string text;                      // one line, human readable
};

std::vector<Violation> verify_schedule(const Schedule& s);

}  // namespace ccsched
