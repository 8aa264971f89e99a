// The verifier: checks the validity rules of FORMATS.md (the ten rules, and R1-R3 for
// reductions) and names every violation.
// It shares no code with the engines beyond the data types, so it catches their bugs.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// The reduction rules R1-R3 of FORMATS.md "Reductions", numbered after the ten rules so
// that one integer orders and names every rule. A reduction schedule is checked against
// rules 1-4, 8, 9, the step part of 10, and these three (which replace rules 5-7).
inline constexpr int kRuleBlocks = 11;       // R1
inline constexpr int kRuleExactlyOnce = 12;  // R2
inline constexpr int kRuleResult = 13;       // R3
// The claims a document makes about itself (FORMATS.md section 2, `lower_bound` and
// `optimal`), checked by verify_claims, apart from validity.
inline constexpr int kRuleClaims = 14;

// One broken rule at one place. The fields that do not apply are empty; `text` is the
// whole line `ccsched verify` prints ("rule 3 (channels): step 2, transfers 4 and 7 both
// use channel 5 (3->8)", "rule R2 (exactly once): step 2, transfer 3: ..."). Every member
// has an initializer so designated initializers may name only the fields that apply.
struct Violation {
  int rule = 0;  // 1..10 as numbered in FORMATS.md; kRuleBlocks.. for R1..R3
  std::optional<Step> step{};
  std::optional<int> transfer{};  // index into Schedule::transfers
  std::optional<ChannelId> channel{};
  std::optional<NodeId> node{};
  std::optional<MessageId> message{};
  std::optional<int> block{};  // reductions: the block of the accumulator concerned
  std::string text{};          // one line, human readable
};

// Every violation, in rule order (1..10, then R1..R3; within a rule, in transfer / message
// order). Empty means valid. Never throws on malformed content (node ids out of range,
// empty paths, unknown message ids, block ids out of range): those are violations too.
std::vector<Violation> verify_schedule(const Schedule& s);

// The same, keeping only the first `max_violations` (0: all) of them; `total` receives how
// many there are. A schedule broken throughout has millions (a million transfers in one
// step), which the rest are counted without being written out.
std::vector<Violation> verify_schedule(const Schedule& s, std::size_t max_violations,
                                       std::size_t& total);

// The same, stopping early when `stop()` answers true (it is asked between the rules and
// inside the long ones): nullopt when it stopped, every violation otherwise. For a design
// that checks a candidate of a million transfers (seconds) while Ctrl-C or the clock may
// end the run.
std::optional<std::vector<Violation>> verify_schedule(const Schedule& s,
                                                      std::function<bool()> stop);

// The claims the schedule contradicts: a `lower_bound` above its own `steps` (a valid
// schedule of `steps` steps proves the bound wrong), or `optimal` with `steps` above
// `lower_bound` (FORMATS.md: optimal means steps == lower_bound, the bound raised by
// the proof when there is one). Empty when the claims are consistent or absent. Rule
// kRuleClaims; independent of the validity rules (a valid schedule may claim wrongly).
std::vector<Violation> verify_claims(const Schedule& s);

// The transfers of the valid schedule `s` that are not needed: deleting any one of them
// alone leaves a valid schedule (a copy of a sum the receiver already holds, a relay
// nobody forwards), its step dropped when that leaves it empty. Found by deleting each in turn and running this verifier again, so the
// judgement shares no code with the engines' pruning pass. The cost grows as transfers ×
// (transfers + processors × channels); above `max_work` of those units the check is not
// made and the answer is nullopt. Indices into s.transfers, increasing. `ccsched verify`
// prints them as a warning.
std::optional<std::vector<std::size_t>> redundant_transfers(const Schedule& s,
                                                            double max_work = 2e8);

// "paths", "steps", "channels", ... for rule 1..10 (FORMATS.md headings, lower case);
// "blocks", "exactly once", "result" for R1..R3; "claims"; "unknown" otherwise.
std::string_view rule_name(int rule);

// How FORMATS.md writes the rule: "3" for rule 3, "R2" for kRuleExactlyOnce, "claims"
// for kRuleClaims.
std::string rule_label(int rule);

}  // namespace ccsched
