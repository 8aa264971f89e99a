// The seeds' linear per-step time model over a Schedule (include/ccsched/cost/linear.hpp),
// with the adds of a reduction schedule.
#include "ccsched/cost/linear.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

std::string transfer_where(std::size_t k) { return fmt::format("transfers[{}]", k); }

void check_step(const Schedule& s, const Transfer& t, std::size_t k) {
  if (t.step < 1 || t.step > s.steps)
    throw InvalidInput(fmt::format("step {} outside 1..{}", t.step, s.steps), transfer_where(k));
}

void check_block(const Collective& c, int block, std::size_t k) {
  if (block < 0 || block >= c.blocks)
    throw InvalidInput(fmt::format("block {} outside 0..{}", block, c.blocks - 1),
                       transfer_where(k));
}

// Bytes of each transfer of a message schedule: the sizes of its messages.
std::vector<std::int64_t> message_transfer_bytes(const Schedule& s,
                                                 std::span<const std::int64_t> sizes) {
  std::vector<std::int64_t> bytes(s.transfers.size(), 0);
  for (std::size_t k = 0; k < s.transfers.size(); ++k)
    for (MessageId id : s.transfers[k].messages) {
      if (id < 0 || static_cast<std::size_t>(id) >= sizes.size())
        throw InvalidInput(fmt::format("message {} has no size (messages are 0..{})", id,
                                       static_cast<long long>(sizes.size()) - 1),
                           transfer_where(k));
      bytes[k] += sizes[static_cast<std::size_t>(id)];  // combining: sizes add up
    }
  return bytes;
}

// Seed 001, eq. (1), step by step: each step costs its slowest transfer (t0 + bytes*t1 +
// hops*th; with th = 0 this is t0 + m_i*t1) plus, for a reduction, its adds.
ScheduleCost cost_of(const Schedule& s, const LinearModel& model,
                     const std::vector<std::int64_t>& bytes,
                     const std::vector<std::vector<ProcessorAdds>>& adds) {
  if (s.steps < 0) throw InvalidInput("must not be negative", "steps");
  ScheduleCost cost;
  cost.steps.resize(static_cast<std::size_t>(s.steps));
  for (int i = 0; i < s.steps; ++i) cost.steps[static_cast<std::size_t>(i)].step = i + 1;

  std::vector<double> slowest(cost.steps.size(), 0.0);
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    const Transfer& t = s.transfers[k];
    check_step(s, t, k);
    const int hops = std::max(0, static_cast<int>(t.path.size()) - 1);
    const double seconds = model.t0 + static_cast<double>(bytes[k]) * model.t1 +
                           static_cast<double>(hops) * model.th;
    const auto i = static_cast<std::size_t>(t.step - 1);
    StepCost& step = cost.steps[i];
    step.bytes = std::max(step.bytes, bytes[k]);
    step.hops = std::max(step.hops, hops);
    ++step.transfers;
    slowest[i] = std::max(slowest[i], seconds);
  }
  for (std::size_t i = 0; i < cost.steps.size(); ++i) {
    StepCost& step = cost.steps[i];
    if (i < adds.size())
      for (const ProcessorAdds& a : adds[i]) step.added_bytes = std::max(step.added_bytes, a.bytes);
    step.compute_seconds = static_cast<double>(step.added_bytes) * model.tc;
    step.seconds = slowest[i] + step.compute_seconds;
    cost.total_seconds += step.seconds;
  }
  return cost;
}

}  // namespace

double linear_time(const LinearModel& model, int steps, std::int64_t bytes) {
  // Seed 000, eq. (4): t_CC = (t0 + m t1) x #steps.
  return (model.t0 + static_cast<double>(bytes) * model.t1) * steps;
}

std::int64_t reduction_block_bytes(const Collective& c, std::int64_t vector_bytes) {
  if (c.blocks < 1)
    throw InvalidInput(fmt::format("{} blocks: a vector has at least one", c.blocks),
                       "collective.blocks");
  if (vector_bytes < 0) throw InvalidParameter("must not be negative", "--bytes");
  // FORMATS.md "Reductions": the input is split into `blocks` equal blocks.
  if (vector_bytes % c.blocks != 0)
    throw InvalidParameter(
        fmt::format("{} B do not split into {} equal blocks (use a multiple of {})",
                    vector_bytes, c.blocks, c.blocks),
        "--bytes");
  return vector_bytes / c.blocks;
}

std::vector<std::int64_t> transfer_bytes(const Schedule& s, std::int64_t vector_bytes) {
  if (!is_reduction(s.collective)) {
    // An AAB of several blocks splits each processor's vector into its blocks, one message
    // each (FORMATS.md "Several blocks"); every other message is `vector_bytes` long.
    const bool split = s.collective.kind == CollectiveKind::AAB && s.collective.blocks != 1;
    const std::vector<std::int64_t> sizes(
        s.collective.messages.size(),
        split ? reduction_block_bytes(s.collective, vector_bytes) : vector_bytes);
    return message_transfer_bytes(s, sizes);
  }
  const std::int64_t block = reduction_block_bytes(s.collective, vector_bytes);
  std::vector<std::int64_t> bytes(s.transfers.size(), 0);
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    for (int b : s.transfers[k].blocks) check_block(s.collective, b, k);
    bytes[k] = block * static_cast<std::int64_t>(s.transfers[k].blocks.size());
  }
  return bytes;
}

std::vector<std::vector<ProcessorAdds>> reduction_adds(const Schedule& s,
                                                       std::int64_t vector_bytes) {
  if (!is_reduction(s.collective)) return {};
  const std::int64_t block = reduction_block_bytes(s.collective, vector_bytes);
  const auto nodes = static_cast<std::size_t>(std::max(0, s.topology.node_count()));

  // An accumulator acc[v][b] holds something when v is a sender (it starts with its own
  // input, FORMATS.md "Reductions") or has received into it. Only received ones are
  // stored: a document may name far more blocks than any transfer touches.
  std::vector<char> sender(nodes, 0);
  for (NodeId v : s.collective.senders)
    if (v >= 0 && static_cast<std::size_t>(v) < nodes) sender[static_cast<std::size_t>(v)] = 1;
  std::set<std::pair<NodeId, int>> received;

  std::vector<std::vector<std::size_t>> by_step(static_cast<std::size_t>(std::max(0, s.steps)));
  for (std::size_t k = 0; k < s.transfers.size(); ++k) {
    check_step(s, s.transfers[k], k);
    by_step[static_cast<std::size_t>(s.transfers[k].step - 1)].push_back(k);
  }

  std::vector<std::vector<ProcessorAdds>> adds(by_step.size());
  for (std::size_t i = 0; i < by_step.size(); ++i) {
    // Reduce values per accumulator (node, block) this step, and every accumulator the
    // step writes: receives take effect at the end of the step.
    std::map<std::pair<NodeId, int>, std::int64_t> values;
    std::vector<std::pair<NodeId, int>> written;
    for (std::size_t k : by_step[i]) {
      const Transfer& t = s.transfers[k];
      if (t.path.empty()) throw InvalidInput("empty path", transfer_where(k));
      const NodeId v = t.path.back();
      if (v < 0 || static_cast<std::size_t>(v) >= nodes)
        throw InvalidInput(fmt::format("node {} is not in the network", v), transfer_where(k));
      for (int b : t.blocks) {
        check_block(s.collective, b, k);
        if (t.recv == ReductionRecv::reduce) ++values[{v, b}];
        written.emplace_back(v, b);
      }
    }
    std::map<NodeId, std::int64_t> per_node;
    for (const auto& [acc, count] : values) {
      const bool was_filled =
          sender[static_cast<std::size_t>(acc.first)] != 0 || received.contains(acc);
      const std::int64_t additions = was_filled ? count : count - 1;
      if (additions > 0) per_node[acc.first] += additions * block;
    }
    received.insert(written.begin(), written.end());
    for (const auto& [v, bytes] : per_node) adds[i].push_back({v, bytes});
  }
  return adds;
}

ScheduleCost linear_cost(const Schedule& s, const LinearModel& model, std::int64_t message_bytes) {
  return cost_of(s, model, transfer_bytes(s, message_bytes), reduction_adds(s, message_bytes));
}

ScheduleCost linear_cost(const Schedule& s, const LinearModel& model,
                         std::span<const std::int64_t> message_bytes) {
  refuse_reductions(s.collective, "a size per message", "cost");
  return cost_of(s, model, message_transfer_bytes(s, message_bytes), {});
}

}  // namespace ccsched
