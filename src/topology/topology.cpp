// Implementation of the Topology value: construction checks and adjacency upkeep.
#include "ccsched/topology/topology.hpp"

#include <algorithm>
#include <string>

#include "ccsched/core/error.hpp"

namespace ccsched {

NodeId Topology::add_node(NodeKind kind, std::string label) {
  const auto id = static_cast<NodeId>(kinds_.size());
  kinds_.push_back(kind);
  labels_.push_back(std::move(label));
  out_.emplace_back();
  in_.emplace_back();
  if (kind == NodeKind::processor) processors_.push_back(id);
  return id;
}

ChannelId Topology::add_channel(NodeId from, NodeId to) {
  const auto where = "channel [" + std::to_string(from) + ", " + std::to_string(to) + "]";
  if (from < 0 || from >= node_count() || to < 0 || to >= node_count())
    throw InvalidInput(
        "names a node that does not exist (nodes are 0.." + std::to_string(node_count() - 1) + ")",
        where);
  if (from == to) throw InvalidInput("self-loop", where);
  if (by_endpoints_.contains(key(from, to))) throw InvalidInput("duplicate channel", where);
  const auto id = static_cast<ChannelId>(channels_.size());
  channels_.push_back({from, to});
  out_[from].push_back(id);
  in_[to].push_back(id);
  by_endpoints_.emplace(key(from, to), id);
  return id;
}

void Topology::add_link(NodeId a, NodeId b) {
  add_channel(a, b);
  add_channel(b, a);
}

void Topology::set_label(NodeId node, std::string label) { labels_[node] = std::move(label); }

std::string Topology::display_name(NodeId n) const {
  return labels_[n].empty() ? std::to_string(n) : labels_[n];
}

bool Topology::has_labels() const {
  return std::any_of(labels_.begin(), labels_.end(), [](const auto& l) { return !l.empty(); });
}

std::optional<NodeId> Topology::find_node(std::string_view text) const {
  for (NodeId n = 0; n < node_count(); ++n)
    if (!labels_[n].empty() && labels_[n] == text) return n;
  if (!text.empty() &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    if (text.size() > 9) return std::nullopt;
    const int id = std::stoi(std::string(text));
    if (id < node_count()) return id;
  }
  return std::nullopt;
}

std::optional<ChannelId> Topology::find_channel(NodeId from, NodeId to) const {
  const auto it = by_endpoints_.find(key(from, to));
  if (it == by_endpoints_.end()) return std::nullopt;
  return it->second;
}

bool Topology::directed() const {
  return std::any_of(channels_.begin(), channels_.end(),
                     [&](const Channel& c) { return !has_channel(c.to, c.from); });
}

Topology Topology::without_channels(std::span<const Channel> removed) const {
  Topology copy(name_);
  for (NodeId n = 0; n < node_count(); ++n) copy.add_node(kinds_[n], labels_[n]);
  for (const auto& c : channels_)
    if (std::find(removed.begin(), removed.end(), c) == removed.end())
      copy.add_channel(c.from, c.to);
  copy.faults_ = faults_;
  for (const auto& c : removed) copy.faults_.push_back(c);
  return copy;
}

bool Topology::same_network(const Topology& other) const {
  if (kinds_ != other.kinds_ || labels_ != other.labels_) return false;
  if (channel_count() != other.channel_count()) return false;
  return std::all_of(channels_.begin(), channels_.end(),
                     [&](const Channel& c) { return other.has_channel(c.from, c.to); });
}

}  // namespace ccsched
