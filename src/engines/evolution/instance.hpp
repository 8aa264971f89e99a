// The evolutionary engines' read-only view of one question "fit the problem into T
// steps": the genes of the encoding (seed 000 §4.2), the candidate senders of every
// broadcast gene, and every route a gene may take, precomputed as flat channel lists so
// that the search never touches the (not thread-safe) PathSet cache.
//
// Encodings (docs/EVOLUTIONARY.md):
// - scatter, direct encoding: one gene per message, (path index, step); genes are grouped
//   in rows by sender, so the AAS chromosome is the matrix of OAS chromosomes.
// - broadcast, indirect encoding: one gene per (message, target), (source, path index,
//   step); rows are messages, so the AAB chromosome is the matrix of OAB chromosomes. The
//   source is stored as an index into the gene's candidate list.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/engines/engine.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/routing/path_set.hpp"

namespace ccsched::evo {

struct GeneSpec {
  MessageId message = 0;
  NodeId target = kNoNode;
  int row = 0;  // scatter: sender group; broadcast: message
};

// The paths between one (sender, receiver) pair: ids first .. first+count-1.
struct Route {
  std::int32_t first = 0;
  std::int32_t count = 0;
};

// Thrown by the Instance constructor when its `stop` budget runs out (time limit or
// Ctrl-C) before the instance is complete; build_instance() turns it into "no instance".
struct BuildStopped {};

// On large networks (docs/RELIABILITY.md, "Resource limits") the instance itself is the expensive part (a broadcast gene
// has every other processor as a candidate sender, each with its interned routes).
struct BuildLimits {
  const Budget* stop = nullptr;  // polled while building; BuildStopped when it runs out
  double max_bytes = 0.0;        // the route and candidate tables may not exceed this (0: any)
  std::string_view engine = "evolutionary";  // for the refusal message
};

class Instance {
 public:
  // `radius`: broadcast receivers may only be informed by holders at most this many hops
  // away (seed 000 §4.4). Throws Unsupported for models the encodings do not cover
  // (combining; scatter under store-and-forward), for tables that outgrow
  // `limits.max_bytes` (naming --max-memory), InvalidInput for unreachable targets, and
  // BuildStopped when `limits.stop` runs out.
  Instance(const Problem& problem, const PathSet& paths, int steps, std::optional<int> radius,
           const BuildLimits& limits = {});

  // Bytes of the tables built (routes, candidates, genes), as charged against max_bytes.
  double table_bytes() const;

  bool broadcast() const { return broadcast_; }
  int steps() const { return steps_; }
  // Last step a broadcast transfer may be postponed to by restoration (beyond `steps` it
  // costs the step-limit penalty of seed 000 §4.4).
  int max_step() const { return max_step_; }
  int ports() const { return ports_; }
  bool port_limited() const { return port_limited_; }  // k-port model (not all-port)
  int node_count() const { return node_count_; }
  int channel_count() const { return channel_count_; }
  std::optional<int> radius() const { return radius_; }

  std::size_t gene_count() const { return genes_.size(); }
  const GeneSpec& gene(std::size_t g) const { return genes_[g]; }
  int row_count() const { return static_cast<int>(row_begin_.size()) - 1; }
  // Genes of a row are contiguous: [row_begin(r), row_begin(r + 1)).
  int row_begin(int r) const { return row_begin_[r]; }

  // Candidate senders of gene g: scatter genes have exactly one (the origin).
  int candidate_count(std::size_t g) const { return cand_begin_[g + 1] - cand_begin_[g]; }
  NodeId candidate(std::size_t g, int c) const { return cand_node_[cand_begin_[g] + c]; }
  const Route& route(std::size_t g, int c) const { return cand_route_[cand_begin_[g] + c]; }
  // Broadcast: the gene that informs candidate c (-1 when the candidate is the origin).
  int candidate_gene(std::size_t g, int c) const { return cand_gene_[cand_begin_[g] + c]; }

  std::span<const ChannelId> path_channels(std::int32_t path) const {
    return {channels_.data() + path_channel_begin_[path],
            channels_.data() + path_channel_begin_[path + 1]};
  }
  std::span<const NodeId> path_nodes(std::int32_t path) const {
    return {nodes_.data() + path_node_begin_[path], nodes_.data() + path_node_begin_[path + 1]};
  }
  // Length in flattened genes of one individual (migration between islands).
  std::size_t flat_size() const { return gene_count() * (broadcast_ ? 3 : 2); }

 private:
  Route intern_route(const PathSet& paths, NodeId from, NodeId to);
  // Every so often while building: the budget and the byte limit.
  void check_limits();
  void build_scatter(const Problem& problem, const PathSet& paths);
  void build_broadcast(const Problem& problem, const PathSet& paths);

  bool broadcast_ = false;
  int steps_ = 0;
  int max_step_ = 0;
  int ports_ = 1;
  bool port_limited_ = false;
  int node_count_ = 0;
  int channel_count_ = 0;
  std::optional<int> radius_;
  std::vector<GeneSpec> genes_;
  std::vector<int> row_begin_;
  std::vector<int> cand_begin_;
  std::vector<NodeId> cand_node_;
  std::vector<Route> cand_route_;
  std::vector<int> cand_gene_;
  std::vector<std::int32_t> path_channel_begin_{0};
  std::vector<ChannelId> channels_;
  std::vector<std::int32_t> path_node_begin_{0};
  std::vector<NodeId> nodes_;
  std::unordered_map<std::uint64_t, Route> route_index_;  // (from, to) -> paths
  BuildLimits limits_;
  std::uint64_t checks_ = 0;
  std::size_t total_genes_ = 0;
};

// The instance, or nullopt when `limits.stop` ran out while it was built.
std::optional<Instance> build_instance(const Problem& problem, const PathSet& paths, int steps,
                                       std::optional<int> radius, const BuildLimits& limits);

}  // namespace ccsched::evo
