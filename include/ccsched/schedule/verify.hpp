// The verifier: checks the ten validity rules of FORMATS.md and names every violation.
// It shares no code with the engines beyond the data types, so it catches their bugs.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// One broken rule at one place. The fields that do not apply are empty; `text` is the
// whole line `ccsched verify` prints ("rule 3 (channels): step 2, transfers 4 and 7 both
// use channel 5 (3->8)"). Every member has an initializer so designated initializers
// may name only the fields that apply.
struct Violation {
  int rule = 0;  // 1..10 as numbered in FORMATS.md
  std::optional<Step> step{};
  std::optional<int> transfer{};  // index into Schedule::transfers
  std::optional<ChannelId> channel{};
  std::optional<NodeId> node{};
  std::optional<MessageId> message{};
  std::string text{};  // one line, human readable
};

// Every violation of the ten rules, in rule order (within a rule, in transfer / message
// order). Empty means valid. Never throws on malformed content (node ids out of range,
// empty paths, unknown message ids): those are violations too.
std::vector<Violation> verify_schedule(const Schedule& s);

// "paths", "steps", "channels", ... for rule 1..10 (FORMATS.md headings, lower case).
std::string_view rule_name(int rule);

}  // namespace ccsched
