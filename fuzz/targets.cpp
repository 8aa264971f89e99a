// Reader + round-trip functions of the fuzz targets (targets.hpp). Round trips:
//   topology (any reader)  -> JSON -> topology: identical (name, nodes, channel order, faults)
//                          -> DOT, edge list  -> topology: same network, name, faults
//                             (a writer may refuse with Unsupported: a label an edge list
//                             cannot hold, ...; refusing is fine, changing the network is not)
//   anynet                 -> anynet -> topology: same network (anynet has no names, labels
//                             or faults, and renumbers switches, so only anynet's own output
//                             is compared)
//   schedule               -> JSON -> schedule: every field equal, and writing again gives
//                             the same text; the verifier runs on what was read (it must
//                             name malformed content, never crash on it)
//   message list           -> list of display names -> list: identical
//   spec string            -> like a topology read (small size limits keep runs fast)
#include "targets.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "ccsched/topology/io.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched::fuzz {
namespace {

std::string_view format_name(TopologyFormat f) {
  switch (f) {
    case TopologyFormat::json:
      return "json";
    case TopologyFormat::dot:
      return "dot";
    case TopologyFormat::edges:
      return "edges";
    case TopologyFormat::anynet:
      return "anynet";
    case TopologyFormat::node_link:
      return "node-link";
  }
  return "?";
}

[[noreturn]] void fail(const std::string& what) { throw RoundTripFailure(what); }

std::vector<std::tuple<NodeId, NodeId>> sorted_channels(const std::vector<Channel>& list,
                                                        bool unique) {
  std::vector<std::tuple<NodeId, NodeId>> out;
  for (const auto& c : list) out.emplace_back(c.from, c.to);
  std::sort(out.begin(), out.end());
  if (unique) out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// "" when equal. `exact`: channel order and fault multiset too (JSON keeps both).
std::string difference(const Topology& a, const Topology& b, bool exact, bool names = true) {
  if (names && a.name() != b.name())
    return fmt::format("name \"{}\" became \"{}\"", a.name(), b.name());
  if (a.node_count() != b.node_count())
    return fmt::format("{} nodes became {}", a.node_count(), b.node_count());
  for (NodeId v = 0; v < a.node_count(); ++v) {
    if (a.kind(v) != b.kind(v)) return fmt::format("node {} changed kind", v);
    if (names && a.label(v) != b.label(v))
      return fmt::format("label of node {}: \"{}\" became \"{}\"", v, a.label(v), b.label(v));
  }
  if (a.channel_count() != b.channel_count())
    return fmt::format("{} channels became {}", a.channel_count(), b.channel_count());
  if (exact ? a.channels() != b.channels()
            : sorted_channels(a.channels(), false) != sorted_channels(b.channels(), false))
    return "the channels differ";
  if (names &&
      sorted_channels(a.fault_records(), !exact) != sorted_channels(b.fault_records(), !exact))
    return "the fault records differ";
  return {};
}

void check_same(const Topology& a, const Topology& b, bool exact, const std::string& how,
                bool names = true) {
  if (const auto d = difference(a, b, exact, names); !d.empty())
    fail(fmt::format("{}: {}", how, d));
}

// Writes `t` as `format` and reads it back; nullopt-like false when the writer refuses.
bool round_trip(const Topology& t, TopologyFormat format, Topology& back) {
  std::string text;
  try {
    text = write_topology(t, format);
  } catch (const Unsupported&) {
    return false;
  }
  try {
    back = read_topology(text, format, "round trip");
  } catch (const Error& e) {
    fail(fmt::format("the {} writer's output does not read back: {}\n--- output ---\n{}",
                     format_name(format), e.what(), text));
  }
  return true;
}

// Every round trip a topology that some reader accepted must survive.
void check_topology(const Topology& t, TopologyFormat source) {
  Topology back;
  if (!round_trip(t, TopologyFormat::json, back))
    fail("the JSON writer refused a network a reader accepted");
  check_same(t, back, true, "topology -> json -> topology");
  for (const auto format : {TopologyFormat::dot, TopologyFormat::edges})
    if (round_trip(t, format, back))
      check_same(t, back, false, fmt::format("topology -> {} -> topology", format_name(format)));
  // Node-link names every node by its label, or by its id when it has none
  // (io_node_link.cpp), so names, labels and faults survive.
  if (round_trip(t, TopologyFormat::node_link, back))
    check_same(t, back, false, "topology -> node-link -> topology");
  if (source == TopologyFormat::anynet) {
    if (!round_trip(t, TopologyFormat::anynet, back))
      fail("the anynet writer refused a network the anynet reader accepted");
    check_same(t, back, false, "anynet -> topology -> anynet -> topology", false);
  }
}

// An edge list names its node count ("nodes 999999", or just "999999 0"), so a few bytes
// can make a network of up to the reader's limit (10^6 nodes). Reading it is exercised;
// round-tripping it through four formats takes longer than the fuzzer's 30 s timeout under
// ASan, so networks above this size are only read.
constexpr int kMaxRoundTripNodes = 50'000;

Outcome run_topology(std::string_view input, TopologyFormat format) {
  Topology t;
  try {
    t = read_topology(input, format, "fuzz");
  } catch (const Error&) {
    return Outcome::rejected;
  }
  if (t.node_count() <= kMaxRoundTripNodes) check_topology(t, format);
  return Outcome::accepted;
}

// --- schedules ---------------------------------------------------------------------------

std::string schedule_difference(const Schedule& a, const Schedule& b) {
  if (const auto d = difference(a.topology, b.topology, true); !d.empty())
    return fmt::format("topology: {}", d);
  const auto& ca = a.collective;
  const auto& cb = b.collective;
  if (ca.kind != cb.kind || ca.senders != cb.senders || ca.receivers != cb.receivers ||
      ca.blocks != cb.blocks)
    return "collective";
  if (ca.messages.size() != cb.messages.size()) return "message count";
  for (std::size_t i = 0; i < ca.messages.size(); ++i) {
    const auto& ma = ca.messages[i];
    const auto& mb = cb.messages[i];
    if (ma.id != mb.id || ma.origin != mb.origin || ma.targets != mb.targets)
      return fmt::format("messages[{}]", i);
  }
  const auto& ma = a.model;
  const auto& mb = b.model;
  if (ma.ports != mb.ports || ma.switching != mb.switching || ma.routing != mb.routing ||
      ma.combining != mb.combining ||
      (ma.routing == Routing::nonminimal && ma.extra_hops != mb.extra_hops))
    return "model";
  if (a.steps != b.steps) return "steps";
  if (a.transfers.size() != b.transfers.size()) return "transfer count";
  for (std::size_t i = 0; i < a.transfers.size(); ++i) {
    const auto& ta = a.transfers[i];
    const auto& tb = b.transfers[i];
    if (ta.step != tb.step || ta.path != tb.path || ta.messages != tb.messages ||
        (is_reduction(ca) &&
         (ta.blocks != tb.blocks || ta.send != tb.send || ta.recv != tb.recv)))
      return fmt::format("transfers[{}]", i);
  }
  if (a.lower_bound != b.lower_bound) return "lower_bound";
  if (a.optimal != b.optimal) return "optimal";
  if (a.optimal_within != b.optimal_within) return "optimal_within";
  if (a.direct_delivery_bound != b.direct_delivery_bound) return "direct_delivery_bound";
  if (a.solver.has_value() != b.solver.has_value()) return "solver";
  if (a.solver && (a.solver->engine != b.solver->engine || a.solver->seed != b.solver->seed ||
                   a.solver->seconds != b.solver->seconds))
    return "solver";
  return {};
}

// A node name for a message list: the label, else the decimal id.
std::string list_text(const Topology& t, const std::vector<Message>& messages) {
  std::string out;
  for (const auto& m : messages) {
    out += t.display_name(m.origin);
    for (const auto target : m.targets) {
      out += ' ';
      out += t.display_name(target);
    }
    out += '\n';
  }
  return out;
}

}  // namespace

Outcome run_topology_json(std::string_view input) {
  return run_topology(input, TopologyFormat::json);
}
Outcome run_topology_dot(std::string_view input) {
  return run_topology(input, TopologyFormat::dot);
}
Outcome run_topology_edges(std::string_view input) {
  return run_topology(input, TopologyFormat::edges);
}
Outcome run_topology_anynet(std::string_view input) {
  return run_topology(input, TopologyFormat::anynet);
}

Outcome run_schedule_json(std::string_view input) {
  Schedule s;
  try {
    s = read_schedule_json(input, "fuzz");
  } catch (const Error&) {
    return Outcome::rejected;
  }
  // The verifier promises to name malformed content as violations; it must not throw.
  (void)verify_schedule(s);
  check_topology(s.topology, TopologyFormat::json);
  const std::string text = write_schedule_json(s);
  Schedule back;
  try {
    back = read_schedule_json(text, "round trip");
  } catch (const Error& e) {
    fail(fmt::format("the schedule writer's output does not read back: {}\n--- output ---\n{}",
                     e.what(), text));
  }
  if (const auto d = schedule_difference(s, back); !d.empty())
    fail(fmt::format("schedule -> json -> schedule: {} differs", d));
  if (write_schedule_json(back) != text) fail("writing the read-back schedule gives other text");
  return Outcome::accepted;
}

const std::vector<std::string>& message_networks() {
  // No labels; labels that are words of digits (Kautz); labels with punctuation and
  // switches (fat ring: processors "0.0".., switches "r0"..); coordinates "(0,1)".
  static const std::vector<std::string> networks = {"ring:6", "kautz:2,2", "fat:ring:3,2",
                                                    "mesh:2x3"};
  return networks;
}

Outcome run_messages(std::string_view input) {
  static const std::vector<Topology> topologies = [] {
    std::vector<Topology> out;
    for (const auto& spec : message_networks()) out.push_back(make_topology(spec));
    return out;
  }();
  if (input.empty()) return Outcome::rejected;
  const auto& t = topologies[static_cast<unsigned char>(input[0]) % topologies.size()];
  std::vector<Message> messages;
  try {
    messages = read_message_list(t, input.substr(1), "fuzz");
  } catch (const Error&) {
    return Outcome::rejected;
  }
  for (const auto& m : messages) {
    if (!t.is_processor(m.origin)) fail("a message list origin is not a processor");
    for (const auto target : m.targets)
      if (!t.is_processor(target) || target == m.origin) fail("a bad target was accepted");
  }
  const auto text = list_text(t, messages);
  std::vector<Message> back;
  try {
    back = read_message_list(t, text, "round trip");
  } catch (const Error& e) {
    fail(fmt::format("the written message list does not read back: {}\n{}", e.what(), text));
  }
  if (back.size() != messages.size()) fail("message count changed in the round trip");
  for (std::size_t i = 0; i < back.size(); ++i)
    if (back[i].origin != messages[i].origin || back[i].targets != messages[i].targets)
      fail(fmt::format("message {} changed in the round trip", i));
  return Outcome::accepted;
}

Outcome run_spec(std::string_view input) {
  // Small limits: the default ones (10^6 nodes) are right for users but make a fuzzer spend
  // seconds per input; the limit check itself is what is exercised either way.
  const SpecLimits limits{.max_nodes = 5'000, .max_channels = 50'000};
  Topology t;
  try {
    t = make_topology(input, limits);
  } catch (const Error&) {
    return Outcome::rejected;
  }
  check_topology(t, TopologyFormat::json);
  return Outcome::accepted;
}

const std::vector<Target>& all_targets() {
  static const std::vector<Target> targets = {
      {"topology_json", run_topology_json},
      {"topology_dot", run_topology_dot},
      {"topology_edges", run_topology_edges},
      {"topology_anynet", run_topology_anynet},
      {"schedule_json", run_schedule_json},
      {"messages", run_messages},
      {"spec", run_spec},
  };
  return targets;
}

const Target& target(std::string_view name) {
  for (const auto& t : all_targets())
    if (t.name == name) return t;
  throw std::invalid_argument(fmt::format("unknown fuzz target '{}'", name));
}

}  // namespace ccsched::fuzz
