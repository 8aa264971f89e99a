// The problem module: names of collectives, expansion of a collective request into its
// messages (FORMATS.md `messages`), the default communication model of a network, and
// link faults as the user writes them ("U-V", "U->V").
//
// Message order is deterministic: by origin, then by target (CUSTOM: by origin, then by
// target list, file order among equal messages), and a message's id is its index.
// Reductions have no messages; their sets and block count are all the collective is.
#include "ccsched/problem/problem.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cassert>
#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

// The most deliveries an AAB of several blocks may ask for (2^24: an AAB of one block on
// 4,096 processors, the size the designs and the verifier are measured at).
constexpr long long kMaxBroadcastDeliveries = 1LL << 24;

constexpr std::array<std::pair<CollectiveKind, std::string_view>, 13> kKindNames{{
    {CollectiveKind::OAB, "OAB"},
    {CollectiveKind::AAB, "AAB"},
    {CollectiveKind::OAS, "OAS"},
    {CollectiveKind::AAS, "AAS"},
    {CollectiveKind::AOG, "AOG"},
    {CollectiveKind::MNB, "MNB"},
    {CollectiveKind::MNS, "MNS"},
    {CollectiveKind::PERM, "PERM"},
    {CollectiveKind::CUSTOM, "CUSTOM"},
    {CollectiveKind::REDUCE, "REDUCE"},
    {CollectiveKind::ALLREDUCE, "ALLREDUCE"},
    {CollectiveKind::REDUCESCATTER, "REDUCESCATTER"},
    {CollectiveKind::SCAN, "SCAN"},
}};

std::string upper(std::string_view text) {
  std::string out(text);
  for (auto& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// "(processors 0..11)" when the processors are exactly the first ids, else the node range,
// so that an out-of-range message tells the user what would have been accepted.
std::string valid_range(const Topology& t) {
  const auto procs = t.processors();
  const bool dense = !procs.empty() && procs.back() == static_cast<NodeId>(procs.size()) - 1;
  if (dense) return fmt::format("processors 0..{}", procs.size() - 1);
  return fmt::format("nodes 0..{}, processors among them", t.node_count() - 1);
}

bool is_decimal(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Resolves an id or label that must name a processor. `role` ("root", "sender", ...) and
// `where` ("--root", "msgs.txt:3") go into the message; `make_error` picks the error type
// (options are InvalidParameter, file contents InvalidInput).
template <typename ErrorType>
NodeId resolve_processor(const Topology& t, std::string_view text, std::string_view role,
                         const std::string& where) {
  const auto node = t.find_node(text);
  if (!node) {
    if (is_decimal(text))
      throw ErrorType(fmt::format("{} {} is out of range ({})", role, text, valid_range(t)), where);
    throw ErrorType(fmt::format("{} '{}' names no node (give an id or a label)", role, text),
                    where);
  }
  if (!t.is_processor(*node))
    throw ErrorType(fmt::format("{} {} is a switch, not a processor", role, text), where);
  return *node;
}

std::vector<NodeId> resolve_set(const Topology& t, const std::vector<std::string>& items,
                                std::string_view role, const std::string& where) {
  std::set<NodeId> ids;
  for (const auto& item : items)
    ids.insert(resolve_processor<InvalidParameter>(t, item, role, where));
  return {ids.begin(), ids.end()};
}

NodeId resolve_root(const Topology& t, const CollectiveRequest& request) {
  if (t.processor_count() == 0) throw InvalidParameter("the network has no processors", "network");
  if (!request.root) return t.processors().front();
  return resolve_processor<InvalidParameter>(t, *request.root, "root", "--root");
}

// Like resolve_set, but in the order given (SCAN's prefix order); a repeat is an error
// rather than merged, since it would make the order ambiguous.
std::vector<NodeId> resolve_sequence(const Topology& t, const std::vector<std::string>& items,
                                     std::string_view role, const std::string& where) {
  std::vector<NodeId> out;
  for (const auto& item : items) {
    const NodeId v = resolve_processor<InvalidParameter>(t, item, role, where);
    if (std::find(out.begin(), out.end(), v) != out.end())
      throw InvalidParameter(fmt::format("{} {} is listed twice", role, item), where);
    out.push_back(v);
  }
  return out;
}

std::vector<NodeId> all_processors(const Topology& t) {
  return {t.processors().begin(), t.processors().end()};
}

std::vector<NodeId> others(const Topology& t, NodeId except) {
  std::vector<NodeId> out;
  for (const NodeId p : t.processors())
    if (p != except) out.push_back(p);
  return out;
}

void add_message(Collective& c, NodeId origin, std::vector<NodeId> targets) {
  if (targets.empty()) return;
  Message m;
  m.id = static_cast<MessageId>(c.messages.size());
  m.origin = origin;
  m.targets = std::move(targets);
  c.messages.push_back(std::move(m));
}

// Sorts by (origin, targets), keeps file order among equal messages, renumbers, and derives
// the sender / receiver sets from the messages.
void finish_from_messages(Collective& c) {
  std::stable_sort(c.messages.begin(), c.messages.end(), [](const Message& a, const Message& b) {
    return std::tie(a.origin, a.targets) < std::tie(b.origin, b.targets);
  });
  std::set<NodeId> senders, receivers;
  for (std::size_t i = 0; i < c.messages.size(); ++i) {
    c.messages[i].id = static_cast<MessageId>(i);
    senders.insert(c.messages[i].origin);
    receivers.insert(c.messages[i].targets.begin(), c.messages[i].targets.end());
  }
  c.senders.assign(senders.begin(), senders.end());
  c.receivers.assign(receivers.begin(), receivers.end());
}

std::vector<Message> read_message_file(const Topology& t, const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput("cannot open the message list", path);
  std::ostringstream text;
  text << in.rdbuf();
  return read_message_list(t, text.str(), path);
}

Collective make_permutation(const Topology& t, const CollectiveRequest& request) {
  Collective c;
  c.kind = CollectiveKind::PERM;
  if (request.custom_file) {
    c.messages = read_message_file(t, *request.custom_file);
    std::map<NodeId, int> origin_line, target_line;
    for (std::size_t i = 0; i < c.messages.size(); ++i) {
      const auto& m = c.messages[i];
      if (m.targets.size() != 1)
        throw InvalidInput(
            "a permutation sends exactly one message from each origin to one "
            "target; a line lists several targets",
            *request.custom_file);
      if (!origin_line.emplace(m.origin, 0).second)
        throw InvalidInput(
            fmt::format("not a permutation: {} sends twice", t.display_name(m.origin)),
            *request.custom_file);
      if (!target_line.emplace(m.targets[0], 0).second)
        throw InvalidInput(
            fmt::format("not a permutation: {} receives twice", t.display_name(m.targets[0])),
            *request.custom_file);
    }
    finish_from_messages(c);
    return c;
  }
  const auto procs = all_processors(t);
  const int p = static_cast<int>(procs.size());
  if (p < 2) throw InvalidParameter("a permutation needs at least two processors", "network");
  const int q = ((request.shift % p) + p) % p;
  if (q == 0)
    throw InvalidParameter(
        fmt::format("shift {} is a multiple of the processor count {}: nobody sends", request.shift,
                    p),
        "--shift");
  for (int i = 0; i < p; ++i) add_message(c, procs[i], {procs[(i + q) % p]});
  finish_from_messages(c);
  return c;
}

// The sets and block count of a reduction (FORMATS.md "Reductions"); see problem.hpp for
// which options each kind takes.
Collective make_reduction(const Topology& t, const CollectiveRequest& request) {
  const auto kind = request.kind;
  const auto name = to_string(kind);
  Collective c;
  c.kind = kind;
  if (request.custom_file)
    throw InvalidParameter(fmt::format("{} takes no message list (only CUSTOM and PERM do)", name),
                           "--messages");
  if (request.blocks && *request.blocks < 1)
    throw InvalidParameter(
        fmt::format("the number of blocks must be at least 1, got {}", *request.blocks),
        "--blocks");
  const auto given = [&](const std::vector<std::string>& items, std::string_view role,
                         const char* option) {
    return resolve_set(t, items, role, option);
  };
  switch (kind) {
    case CollectiveKind::REDUCE: {
      // The root is the one receiver, as for AOG; --receivers would say the same thing twice.
      if (!request.receivers.empty())
        throw InvalidParameter("REDUCE has one receiver, the root: give it with --root",
                               "--receivers");
      c.receivers = {resolve_root(t, request)};
      c.senders = request.senders.empty() ? all_processors(t)
                                          : given(request.senders, "sender", "--senders");
      break;
    }
    case CollectiveKind::ALLREDUCE:
    case CollectiveKind::REDUCESCATTER: {
      // A group reduction names its group once: a set not given is the other one.
      const auto& s = request.senders.empty() ? request.receivers : request.senders;
      const auto& r = request.receivers.empty() ? request.senders : request.receivers;
      c.senders = s.empty() ? all_processors(t) : given(s, "sender", "--senders");
      c.receivers = r.empty() ? all_processors(t) : given(r, "receiver", "--receivers");
      break;
    }
    case CollectiveKind::SCAN: {
      if (!request.receivers.empty())
        throw InvalidParameter("SCAN's receivers are its senders (give the order with --senders)",
                               "--receivers");
      c.senders = request.senders.empty()
                      ? all_processors(t)
                      : resolve_sequence(t, request.senders, "sender", "--senders");
      c.receivers = c.senders;
      break;
    }
    default:
      assert(false && "make_reduction called for a kind that is not a reduction");
  }
  c.blocks = request.blocks.value_or(1);
  if (kind == CollectiveKind::REDUCESCATTER) {
    // Receiver j ends with block j (FORMATS.md "Reductions"): one block per receiver.
    const int receivers = static_cast<int>(c.receivers.size());
    if (request.blocks && *request.blocks != receivers)
      throw InvalidParameter(
          fmt::format("REDUCESCATTER has one block per receiver: {} receivers, {} blocks given",
                      receivers, *request.blocks),
          "--blocks");
    c.blocks = receivers;
  }
  std::set<NodeId> involved(c.senders.begin(), c.senders.end());
  involved.insert(c.receivers.begin(), c.receivers.end());
  if (involved.size() < 2)
    throw InvalidParameter(
        fmt::format("{} over a single processor has nothing to combine or move", name),
        !request.senders.empty() ? "--senders" : !request.receivers.empty() ? "--receivers" : "--root");
  return c;
}

}  // namespace

std::string_view to_string(CollectiveKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "?";
}

CollectiveKind parse_collective_kind(std::string_view text) {
  const auto wanted = upper(text);
  for (const auto& [k, name] : kKindNames)
    if (name == wanted) return k;
  throw InvalidParameter(
      fmt::format("unknown collective '{}' (expected OAB, AAB, OAS, AAS, AOG, MNB, MNS, PERM, "
                  "CUSTOM, REDUCE, ALLREDUCE, REDUCESCATTER or SCAN)",
                  text),
      "--cc");
}

// Reads a message list: one message per line, "origin target [target ...]", ids or labels,
// '#' starts a comment. Errors name where:line.
std::vector<Message> read_message_list(const Topology& t, std::string_view text,
                                       std::string_view where) {
  const std::string path(where);
  std::istringstream in{std::string(text)};
  std::vector<Message> out;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string place = fmt::format("{}:{}", path, line_no);
    if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
    std::istringstream words(line);
    std::vector<std::string> items;
    for (std::string w; words >> w;) items.push_back(w);
    if (items.empty()) continue;
    if (items.size() < 2)
      throw InvalidInput(
          fmt::format("expected 'origin target [target ...]', got '{}'", items.front()), place);
    Message m;
    m.origin = resolve_processor<InvalidInput>(t, items[0], "origin", place);
    std::set<NodeId> seen;
    for (std::size_t i = 1; i < items.size(); ++i) {
      const NodeId target = resolve_processor<InvalidInput>(t, items[i], "target", place);
      if (target == m.origin)
        throw InvalidInput(fmt::format("target {} is the message's own origin", items[i]), place);
      if (!seen.insert(target).second)
        throw InvalidInput(fmt::format("target {} appears twice", items[i]), place);
      m.targets.push_back(target);
    }
    std::sort(m.targets.begin(), m.targets.end());
    out.push_back(std::move(m));
  }
  if (out.empty()) throw InvalidInput("the message list has no messages", path);
  return out;
}

bool is_broadcast(const Collective& c) {
  switch (c.kind) {
    case CollectiveKind::OAB:
    case CollectiveKind::AAB:
    case CollectiveKind::MNB:
      return true;
    case CollectiveKind::CUSTOM:
      return std::any_of(c.messages.begin(), c.messages.end(),
                         [](const Message& m) { return m.targets.size() > 1; });
    default:
      return false;
  }
}

bool is_reduction(CollectiveKind kind) {
  return kind == CollectiveKind::REDUCE || kind == CollectiveKind::ALLREDUCE ||
         kind == CollectiveKind::REDUCESCATTER || kind == CollectiveKind::SCAN;
}

bool is_reduction(const Collective& c) { return is_reduction(c.kind); }

std::vector<ReductionPrefix> reduction_prefixes(const Collective& c) {
  std::vector<ReductionPrefix> out;
  if (!is_reduction(c)) return out;
  const int senders = static_cast<int>(c.senders.size());
  switch (c.kind) {
    case CollectiveKind::REDUCE:
    case CollectiveKind::ALLREDUCE:
      for (const NodeId r : c.receivers)
        for (int b = 0; b < c.blocks; ++b) out.push_back({r, b, senders});
      break;
    case CollectiveKind::REDUCESCATTER:
      for (int j = 0; j < static_cast<int>(c.receivers.size()) && j < c.blocks; ++j)
        out.push_back({c.receivers[j], j, senders});
      break;
    case CollectiveKind::SCAN:
      for (int j = 0; j < senders; ++j)
        for (int b = 0; b < c.blocks; ++b) out.push_back({c.senders[j], b, j + 1});
      break;
    default:
      break;
  }
  return out;
}

std::vector<ReductionTarget> reduction_targets(const Collective& c) {
  std::vector<ReductionTarget> out;
  for (const ReductionPrefix& g : reduction_prefixes(c)) {
    ReductionTarget t{g.node, g.block, std::vector<int>(g.inputs)};
    for (int i = 0; i < g.inputs; ++i) t.senders[i] = i;
    out.push_back(std::move(t));
  }
  return out;
}

void refuse_reductions(const Collective& c, std::string_view what, std::string_view module) {
  if (is_reduction(c))
    throw Unsupported(fmt::format("reductions are not supported by {} yet", what),
                      std::string(module));
}

std::string_view to_string(Switching s) {
  return s == Switching::wormhole ? "wormhole" : "store-and-forward";
}

std::string_view to_string(Routing r) { return r == Routing::minimal ? "minimal" : "nonminimal"; }

Collective make_collective(const Topology& t, const CollectiveRequest& request) {
  if (t.processor_count() < 2)
    throw InvalidParameter("a collective needs at least two processors", "network");
  if (is_reduction(request.kind)) return make_reduction(t, request);
  if (request.blocks && request.kind != CollectiveKind::AAB)
    throw InvalidParameter(
        fmt::format("{} takes no block count (only AAB and the reductions do)",
                    to_string(request.kind)),
        "--blocks");
  if (request.blocks && *request.blocks < 1)
    throw InvalidParameter(
        fmt::format("the number of blocks must be at least 1, got {}", *request.blocks),
        "--blocks");
  const auto unused = [&](bool root, bool sets, bool file) {
    // A root given to a kind without one is ignored: `faults` passes one --root to every
    // kind it sweeps (seed 000 Table 5 uses source 01 for OAB and OAS only).
    (void)root;
    if (!sets && (!request.senders.empty() || !request.receivers.empty()))
      throw InvalidParameter(fmt::format("{} takes no sender/receiver sets (only MNB, MNS and "
                                         "the reductions do)",
                                         to_string(request.kind)),
                             request.senders.empty() ? "--receivers" : "--senders");
    if (!file && request.custom_file)
      throw InvalidParameter(fmt::format("{} takes no message list (only CUSTOM and PERM do)",
                                         to_string(request.kind)),
                             "--messages");
  };
  Collective c;
  c.kind = request.kind;
  switch (request.kind) {
    case CollectiveKind::OAB:
    case CollectiveKind::OAS: {
      unused(true, false, false);
      const NodeId root = resolve_root(t, request);
      c.senders = {root};
      c.receivers = others(t, root);
      if (request.kind == CollectiveKind::OAB) {
        add_message(c, root, c.receivers);
      } else {
        for (const NodeId target : c.receivers) add_message(c, root, {target});
      }
      return c;
    }
    case CollectiveKind::AOG: {
      // Gather is scatter reversed: every other processor sends its own message to the root.
      unused(true, false, false);
      const NodeId root = resolve_root(t, request);
      c.senders = others(t, root);
      c.receivers = {root};
      for (const NodeId origin : c.senders) add_message(c, origin, {root});
      return c;
    }
    case CollectiveKind::AAB:
    case CollectiveKind::AAS: {
      unused(false, false, false);
      c.senders = all_processors(t);
      c.receivers = c.senders;
      if (request.kind == CollectiveKind::AAB) c.blocks = request.blocks.value_or(1);
      const long long p = static_cast<long long>(c.senders.size());
      // Every message reaches p - 1 processors, one transfer each: past 2^24 transfers (an
      // AAB on 4,096 processors) the schedule alone would take gigabytes.
      if (c.blocks > 1 && p * (p - 1) * c.blocks > kMaxBroadcastDeliveries)
        throw InvalidParameter(
            fmt::format("AAB with {} blocks on {} processors needs {}·{}·{} = {} deliveries, "
                        "more than the {} a schedule may hold",
                        c.blocks, p, c.blocks, p, p - 1, p * (p - 1) * c.blocks,
                        kMaxBroadcastDeliveries),
            "--blocks");
      for (const NodeId origin : c.senders) {
        if (request.kind == CollectiveKind::AAB) {
          // Message id = origin index · blocks + block (FORMATS.md "Several blocks").
          for (int b = 0; b < c.blocks; ++b) add_message(c, origin, others(t, origin));
        } else {
          for (const NodeId target : others(t, origin)) add_message(c, origin, {target});
        }
      }
      return c;
    }
    case CollectiveKind::MNB:
    case CollectiveKind::MNS: {
      unused(false, true, false);
      if (request.senders.empty())
        throw InvalidParameter(fmt::format("{} needs a sender set", to_string(request.kind)),
                               "--senders");
      if (request.receivers.empty())
        throw InvalidParameter(fmt::format("{} needs a receiver set", to_string(request.kind)),
                               "--receivers");
      c.senders = resolve_set(t, request.senders, "sender", "--senders");
      c.receivers = resolve_set(t, request.receivers, "receiver", "--receivers");
      for (const NodeId origin : c.senders) {
        std::vector<NodeId> targets;
        for (const NodeId r : c.receivers)
          if (r != origin) targets.push_back(r);
        if (request.kind == CollectiveKind::MNB) {
          add_message(c, origin, std::move(targets));
        } else {
          for (const NodeId target : targets) add_message(c, origin, {target});
        }
      }
      if (c.messages.empty())
        throw InvalidParameter("the only sender is the only receiver: nothing to send",
                               "--receivers");
      return c;
    }
    case CollectiveKind::PERM:
      unused(false, false, true);
      return make_permutation(t, request);
    case CollectiveKind::CUSTOM: {
      unused(false, false, true);
      if (!request.custom_file)
        throw InvalidParameter("CUSTOM needs a message list file", "--messages");
      c.messages = read_message_file(t, *request.custom_file);
      finish_from_messages(c);
      return c;
    }
    case CollectiveKind::REDUCE:
    case CollectiveKind::ALLREDUCE:
    case CollectiveKind::REDUCESCATTER:
    case CollectiveKind::SCAN:
      return make_reduction(t, request);
  }
  throw InvalidParameter("unknown collective kind", "--cc");
}

Model default_model(const Topology& t) {
  Model m;
  // Multistage networks and trees: each processor has one channel into the network, so the
  // seeds (001) study them under the 1-port model; direct networks under all-port (000).
  if (t.switch_count() > 0) m.ports = 1;
  return m;
}

std::vector<Channel> parse_fault(const Topology& t, std::string_view text) {
  const std::string where = fmt::format("--fault {}", text);
  const auto node = [&](std::string_view part) -> std::optional<NodeId> {
    return part.empty() ? std::nullopt : t.find_node(part);
  };
  const auto name_error = [&](std::string_view part) {
    if (is_decimal(part))
      return InvalidParameter(
          fmt::format("node {} is out of range (nodes 0..{})", part, t.node_count() - 1), where);
    return InvalidParameter(fmt::format("'{}' names no node", part), where);
  };
  if (const auto arrow = text.find("->"); arrow != std::string_view::npos) {
    const auto left = text.substr(0, arrow), right = text.substr(arrow + 2);
    const auto u = node(left), v = node(right);
    if (!u) throw name_error(left);
    if (!v) throw name_error(right);
    if (!t.has_channel(*u, *v))
      throw InvalidParameter(fmt::format("no channel {}->{}", left, right), where);
    return {Channel{*u, *v}};
  }
  // "U-V": labels may themselves contain '-', so accept the one split where both sides name
  // nodes.
  std::vector<std::size_t> dashes;
  for (auto d = text.find('-'); d != std::string_view::npos; d = text.find('-', d + 1))
    dashes.push_back(d);
  if (dashes.empty()) throw InvalidParameter("expected U-V (a link) or U->V (one channel)", where);
  struct Split {
    NodeId u, v;
    std::string_view left, right;
  };
  std::vector<Split> splits;
  for (const auto d : dashes) {
    const auto left = text.substr(0, d), right = text.substr(d + 1);
    const auto u = node(left), v = node(right);
    if (u && v) splits.push_back({*u, *v, left, right});
  }
  if (splits.empty()) {
    const auto left = text.substr(0, dashes.front()), right = text.substr(dashes.front() + 1);
    if (!node(left)) throw name_error(left);
    throw name_error(right);
  }
  if (splits.size() > 1)
    throw InvalidParameter("ambiguous: more than one way to split the text into two nodes", where);
  const auto [u, v, left, right] = splits.front();
  if (u == v) throw InvalidParameter("a link joins two different nodes", where);
  std::vector<Channel> out;
  // On an undirected network a link is two channels. On a digraph (Kautz, de Bruijn, MINs)
  // every channel is a unidirectional link of its own, as in seed 000 Table 5 where 01-10
  // and 10-01 are different faults: U-V is the channel U->V, or V->U when only that exists.
  if (t.directed()) {
    if (t.has_channel(u, v))
      out.push_back({u, v});
    else if (t.has_channel(v, u))
      out.push_back({v, u});
  } else if (t.has_channel(u, v)) {
    out.push_back({u, v});
    out.push_back({v, u});
  }
  if (out.empty())
    throw InvalidParameter(fmt::format("no link between {} and {}", left, right), where);
  return out;
}

Topology apply_faults(const Topology& t, const std::vector<std::string>& faults) {
  if (faults.empty()) return t;
  std::vector<Channel> removed;
  for (const auto& text : faults)
    for (const auto& c : parse_fault(t, text))
      if (std::find(removed.begin(), removed.end(), c) == removed.end()) removed.push_back(c);
  return t.without_channels(removed);
}

int effective_ports(const Problem& p) {
  if (p.model.ports) return *p.model.ports;
  // All-port: only channels limit, so any number at least the largest degree will do.
  int most = 1;
  for (const NodeId v : p.topology.processors())
    most = std::max({most, static_cast<int>(p.topology.out_channels(v).size()),
                     static_cast<int>(p.topology.in_channels(v).size())});
  return most;
}

}  // namespace ccsched
