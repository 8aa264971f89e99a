// Builds the evolutionary engines' view of a problem: genes, rows, candidate senders and
// flat route tables. Everything the search reads is computed here, once per step count,
// single-threaded; the search itself then shares the Instance between threads read-only.
#include "instance.hpp"

#include <algorithm>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/engines/resources.hpp"

namespace ccsched::evo {

Instance::Instance(const Problem& problem, const PathSet& paths, int steps,
                   std::optional<int> radius, const BuildLimits& limits)
    : broadcast_(is_broadcast(problem.collective)),
      steps_(steps),
      max_step_(steps),
      ports_(effective_ports(problem)),
      port_limited_(problem.model.ports.has_value()),
      node_count_(problem.topology.node_count()),
      channel_count_(problem.topology.channel_count()),
      radius_(broadcast_ ? radius : std::nullopt),
      limits_(limits) {
  if (steps < 1) throw InvalidParameter("must be at least 1", "--steps");
  if (problem.model.combining)
    throw Unsupported("combining is not supported by the evolutionary engines", "--combining");
  if (!broadcast_ && problem.model.switching == Switching::store_and_forward)
    throw Unsupported(
        "scatter under store-and-forward needs relays, which the direct encoding of the seeds "
        "(one transfer per message) cannot express; use --engine sat or greedy",
        "--engine");
  for (const Message& m : problem.collective.messages) total_genes_ += m.targets.size();
  if (broadcast_)
    build_broadcast(problem, paths);
  else
    build_scatter(problem, paths);
  route_index_.clear();
  limits_ = {};
}

double Instance::table_bytes() const {
  // Vector payloads, plus about 48 bytes per interned pair while the index exists.
  return 4.0 * static_cast<double>(channels_.size() + nodes_.size() +
                                   path_channel_begin_.size() + path_node_begin_.size() +
                                   cand_node_.size() + cand_gene_.size() + cand_begin_.size() +
                                   row_begin_.size()) +
         8.0 * static_cast<double>(cand_route_.size()) +
         static_cast<double>(sizeof(GeneSpec) * genes_.size()) +
         48.0 * static_cast<double>(route_index_.size());
}

void Instance::check_limits() {
  if (limits_.stop != nullptr && limits_.stop->expired()) throw BuildStopped{};
  if (limits_.max_bytes > 0 && table_bytes() > limits_.max_bytes)
    throw Unsupported(
        "the " + std::string(limits_.engine) + " instance for " + std::to_string(steps_) +
            " steps outgrew its share of --max-memory (" + format_bytes(limits_.max_bytes) +
            ") after " + std::to_string(genes_.size()) + " of " + std::to_string(total_genes_) +
            " genes (" + std::to_string(path_channel_begin_.size() - 1) +
            " paths interned); try a --radius, --engine greedy, or a larger --max-memory",
        "--max-memory");
}

std::optional<Instance> build_instance(const Problem& problem, const PathSet& paths, int steps,
                                       std::optional<int> radius, const BuildLimits& limits) {
  try {
    return std::optional<Instance>(std::in_place, problem, paths, steps, radius, limits);
  } catch (const BuildStopped&) {
    return std::nullopt;
  }
}

Route Instance::intern_route(const PathSet& paths, NodeId from, NodeId to) {
  const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) |
                            static_cast<std::uint32_t>(to);
  if (const auto it = route_index_.find(key); it != route_index_.end()) return it->second;
  // Each miss lists a pair's paths (up to the PathSet's per-pair limit): check the
  // budget and the bytes every few misses.
  if (++checks_ % 16 == 0) check_limits();
  // Listed afresh rather than through the PathSet's cache: the flat tables are the only
  // copy (docs/RELIABILITY.md: on hypercube:10 OAB the cached lists doubled the peak memory and took
  // seconds to free).
  const std::vector<Path> list = paths.list(from, to);
  Route r{static_cast<std::int32_t>(path_channel_begin_.size() - 1),
          static_cast<std::int32_t>(list.size())};
  for (const Path& p : list) {
    channels_.insert(channels_.end(), p.channels.begin(), p.channels.end());
    path_channel_begin_.push_back(static_cast<std::int32_t>(channels_.size()));
    nodes_.insert(nodes_.end(), p.nodes.begin(), p.nodes.end());
    path_node_begin_.push_back(static_cast<std::int32_t>(nodes_.size()));
  }
  route_index_.emplace(key, r);
  return r;
}

// Direct encoding (seed 000 §4.2): a gene per message; rows group the messages of one
// sender, so an AAS chromosome is the matrix of its OAS chromosomes.
void Instance::build_scatter(const Problem& problem, const PathSet& paths) {
  const auto& messages = problem.collective.messages;
  std::vector<MessageId> order(messages.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<MessageId>(i);
  std::stable_sort(order.begin(), order.end(), [&](MessageId a, MessageId b) {
    return messages[a].origin < messages[b].origin;
  });
  NodeId current = kNoNode;
  for (const MessageId m : order) {
    const Message& msg = messages[m];
    if (msg.targets.size() != 1)
      throw InvalidInput("scatter message " + std::to_string(m) + " must have one target",
                         "collective");
    if (msg.origin != current) {
      current = msg.origin;
      row_begin_.push_back(static_cast<int>(genes_.size()));
    }
    const Route r = intern_route(paths, msg.origin, msg.targets[0]);
    if (r.count == 0)
      throw InvalidInput("no allowed path from " + std::to_string(msg.origin) + " to " +
                             std::to_string(msg.targets[0]),
                         "routing");
    genes_.push_back({m, msg.targets[0], static_cast<int>(row_begin_.size()) - 1});
    cand_begin_.push_back(static_cast<int>(cand_node_.size()));
    cand_node_.push_back(msg.origin);
    cand_route_.push_back(r);
    cand_gene_.push_back(-1);
  }
  row_begin_.push_back(static_cast<int>(genes_.size()));
  cand_begin_.push_back(static_cast<int>(cand_node_.size()));
}

// Indirect encoding (seed 000 §4.2): a gene per (message, target) naming who sends it.
// A target may be informed by any other holder of the message with an allowed path, and
// under a radius only by holders within that many hops (seed 000 §4.4). Where the radius
// would leave a target without candidates, or cut it off from the origin in the
// "may inform" relation, that target keeps every holder: restoration must always be
// able to complete the broadcast tree.
void Instance::build_broadcast(const Problem& problem, const PathSet& paths) {
  const auto& messages = problem.collective.messages;
  int most_targets = 0;
  for (const Message& msg : messages) {
    row_begin_.push_back(static_cast<int>(genes_.size()));
    most_targets = std::max(most_targets, static_cast<int>(msg.targets.size()));
    std::vector<NodeId> holders{msg.origin};
    holders.insert(holders.end(), msg.targets.begin(), msg.targets.end());
    const std::size_t n = msg.targets.size();
    // Candidates per target, first under the radius.
    std::vector<std::vector<NodeId>> cands(n);
    for (std::size_t i = 0; i < n; ++i) {
      const NodeId v = msg.targets[i];
      if (i % 16 == 0) check_limits();
      for (const NodeId h : holders) {
        if (h == v || paths.distance(h, v) == kUnreachable) continue;
        if (radius_ && paths.distance(h, v) > *radius_) continue;
        if (intern_route(paths, h, v).count == 0) continue;
        cands[i].push_back(h);
      }
    }
    auto widen = [&](std::size_t i) {
      cands[i].clear();
      for (const NodeId h : holders)
        if (h != msg.targets[i] && paths.distance(h, msg.targets[i]) != kUnreachable &&
            intern_route(paths, h, msg.targets[i]).count > 0)
          cands[i].push_back(h);
    };
    for (std::size_t i = 0; i < n; ++i)
      if (cands[i].empty()) widen(i);
    // Reachability from the origin in the "may inform" relation; widen the unreachable.
    std::vector<int> index_of(problem.topology.node_count(), -1);
    for (std::size_t i = 0; i < n; ++i) index_of[msg.targets[i]] = static_cast<int>(i);
    for (;;) {
      std::vector<char> reached(n, 0);
      bool grew = true;
      while (grew) {
        grew = false;
        for (std::size_t i = 0; i < n; ++i) {
          if (reached[i]) continue;
          for (const NodeId h : cands[i])
            if (h == msg.origin || (index_of[h] >= 0 && reached[index_of[h]])) {
              reached[i] = 1;
              grew = true;
              break;
            }
        }
      }
      bool widened = false;
      for (std::size_t i = 0; i < n; ++i)
        if (!reached[i]) {
          const std::size_t before = cands[i].size();
          widen(i);
          widened = widened || cands[i].size() > before;
        }
      if (widened) continue;
      for (std::size_t i = 0; i < n; ++i)
        if (!reached[i])
          // The seeds' broadcast encoding informs targets from targets only (seed 000
          // §4.2); a target that only a non-target can pass the message to is outside it,
          // not unreachable (the SAT and greedy engines relay through any processor).
          throw Unsupported("processor " + std::to_string(msg.targets[i]) +
                                " can receive message " + std::to_string(msg.id) +
                                " only through a processor that is not a target; the "
                                "evolutionary engines relay broadcasts through targets only "
                                "(use --engine sat or greedy)",
                            "routing");
      break;
    }
    const int first_gene = static_cast<int>(genes_.size());
    for (std::size_t i = 0; i < n; ++i) {
      genes_.push_back({msg.id, msg.targets[i], static_cast<int>(row_begin_.size()) - 1});
      cand_begin_.push_back(static_cast<int>(cand_node_.size()));
      for (const NodeId h : cands[i]) {
        cand_node_.push_back(h);
        cand_route_.push_back(intern_route(paths, h, msg.targets[i]));
        cand_gene_.push_back(h == msg.origin ? -1 : first_gene + index_of[h]);
      }
    }
  }
  row_begin_.push_back(static_cast<int>(genes_.size()));
  cand_begin_.push_back(static_cast<int>(cand_node_.size()));
  // Restoration informs at least one more target per step past T (the candidate relation
  // reaches every target from the origin), so this many steps always suffice.
  max_step_ = steps_ + most_targets;
}

}  // namespace ccsched::evo
