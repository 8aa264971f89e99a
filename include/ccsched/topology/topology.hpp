// The `Topology` value: nodes 0..n-1 (processors or switches, with optional labels) and
// directed channels between them (a full-duplex link is two channels). Every other module
// reads networks through this class; it keeps fast adjacency (out/in channels per node,
// channel id by endpoints) so routing and verification never scan the channel list.
//
//   Topology t("ring:3");
//   auto a = t.add_node(NodeKind::processor, "a");   // ids are dense, in order
//   ...
//   t.add_link(a, b);                                 // channels a->b and b->a
//   auto c = t.find_channel(a, b);                    // std::optional<ChannelId>
//
// Contract: no self-loops and no duplicate channels (add_channel throws InvalidInput);
// node ids are dense 0..n-1 and never change; channel ids are dense in insertion order.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ccsched/core/ids.hpp"

namespace ccsched {

enum class NodeKind { processor, switch_node };

struct Channel {
  NodeId from = kNoNode;
  NodeId to = kNoNode;
  friend bool operator==(const Channel&, const Channel&) = default;
};

class Topology {
 public:
  explicit Topology(std::string name = {}) : name_(std::move(name)) {}

  // --- building -------------------------------------------------------------------------
  NodeId add_node(NodeKind kind, std::string label = {});
  // Adds channel from->to. Throws InvalidInput on a missing node, a self-loop or a
  // duplicate channel.
  ChannelId add_channel(NodeId from, NodeId to);
  // Adds both channels of a full-duplex link.
  void add_link(NodeId a, NodeId b);
  void set_name(std::string name) { name_ = std::move(name); }
  void set_label(NodeId node, std::string label);
  // Channels that exist in the design but are out of service (FORMATS.md `faults`).
  void add_fault_record(Channel c) { faults_.push_back(c); }

  // --- reading --------------------------------------------------------------------------
  const std::string& name() const { return name_; }
  int node_count() const { return static_cast<int>(kinds_.size()); }
  int channel_count() const { return static_cast<int>(channels_.size()); }
  int processor_count() const { return static_cast<int>(processors_.size()); }
  int switch_count() const { return node_count() - processor_count(); }

  NodeKind kind(NodeId n) const { return kinds_[n]; }
  bool is_processor(NodeId n) const { return kinds_[n] == NodeKind::processor; }
  // The label, or the decimal id when the node has none.
  std::string display_name(NodeId n) const;
  const std::string& label(NodeId n) const { return labels_[n]; }
  bool has_labels() const;
  // Node whose label or decimal id equals `text`.
  std::optional<NodeId> find_node(std::string_view text) const;

  // Processors in increasing id order.
  std::span<const NodeId> processors() const { return processors_; }
  const std::vector<Channel>& channels() const { return channels_; }
  const Channel& channel(ChannelId c) const { return channels_[c]; }
  std::span<const ChannelId> out_channels(NodeId n) const { return out_[n]; }
  std::span<const ChannelId> in_channels(NodeId n) const { return in_[n]; }
  std::optional<ChannelId> find_channel(NodeId from, NodeId to) const;
  bool has_channel(NodeId from, NodeId to) const { return find_channel(from, to).has_value(); }

  // True unless every channel has its reverse (FORMATS.md `directed`).
  bool directed() const;
  const std::vector<Channel>& fault_records() const { return faults_; }

  // A copy without the given channels; they are recorded as faults. Channel ids of the
  // copy are renumbered densely; node ids stay.
  Topology without_channels(std::span<const Channel> removed) const;

  // Same nodes (kinds, labels) and same channel set, in any channel order.
  bool same_network(const Topology& other) const;

 private:
  static std::uint64_t key(NodeId from, NodeId to) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(from)) << 32) |
           static_cast<std::uint32_t>(to);
  }

  std::string name_;
  std::vector<NodeKind> kinds_;
  std::vector<std::string> labels_;
  std::vector<NodeId> processors_;
  std::vector<Channel> channels_;
  std::vector<std::vector<ChannelId>> out_;
  std::vector<std::vector<ChannelId>> in_;
  std::unordered_map<std::uint64_t, ChannelId> by_endpoints_;
  std::vector<Channel> faults_;
};

}  // namespace ccsched
