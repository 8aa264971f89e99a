// Automorphism search (include/ccsched/topology/automorphisms.hpp).
//
// Nodes get a colour from invariants every automorphism preserves: kind, in- and out-
// degree, and the number of nodes at each distance (breadth first along channels). The
// map is then built node by node in breadth-first order over the undirected adjacency, so
// every node after the first of its component has an already mapped neighbour and its
// candidates are that neighbour's image's neighbours of the same colour. A candidate is
// kept when every mapped neighbour of the node maps to a neighbour of the candidate with
// the same channel directions and the candidate has no other mapped neighbour, which
// makes a complete map an automorphism.
#include "ccsched/topology/automorphisms.hpp"

#include <algorithm>
#include <map>
#include <numeric>

namespace ccsched {
namespace {

std::vector<int> node_colours(const Topology& t) {
  const int n = t.node_count();
  std::map<std::vector<int>, int> ids;
  std::vector<int> colour(n);
  std::vector<int> dist(n);
  for (NodeId v = 0; v < n; ++v) {
    std::vector<int> signature{t.is_processor(v) ? 1 : 0,
                               static_cast<int>(t.out_channels(v).size()),
                               static_cast<int>(t.in_channels(v).size())};
    std::fill(dist.begin(), dist.end(), -1);
    std::vector<NodeId> queue{v};
    dist[v] = 0;
    for (std::size_t i = 0; i < queue.size(); ++i)
      for (const ChannelId c : t.out_channels(queue[i])) {
        const NodeId w = t.channel(c).to;
        if (dist[w] >= 0) continue;
        dist[w] = dist[queue[i]] + 1;
        queue.push_back(w);
      }
    std::vector<int> layer;
    for (const NodeId w : queue) {
      if (static_cast<int>(layer.size()) <= dist[w]) layer.resize(dist[w] + 1, 0);
      ++layer[dist[w]];
    }
    signature.push_back(static_cast<int>(queue.size()));
    signature.insert(signature.end(), layer.begin(), layer.end());
    colour[v] = ids.emplace(std::move(signature), static_cast<int>(ids.size())).first->second;
  }
  return colour;
}

class Search {
 public:
  Search(const Topology& t, const AutomorphismLimits& limits)
      : t_(t), limits_(limits), colour_(node_colours(t)) {
    const int n = t.node_count();
    neighbours_.resize(n);
    for (const auto& c : t.channels()) {
      neighbours_[c.from].push_back(c.to);
      neighbours_[c.to].push_back(c.from);
    }
    for (auto& list : neighbours_) {
      std::sort(list.begin(), list.end());
      list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    // Breadth-first order, component by component; anchor = the node's BFS parent.
    std::vector<char> seen(n, 0);
    anchor_.assign(n, kNoNode);
    for (NodeId root = 0; root < n; ++root) {
      if (seen[root]) continue;
      seen[root] = 1;
      const std::size_t first = order_.size();
      order_.push_back(root);
      for (std::size_t i = first; i < order_.size(); ++i)
        for (const NodeId w : neighbours_[order_[i]])
          if (!seen[w]) {
            seen[w] = 1;
            anchor_[w] = order_[i];
            order_.push_back(w);
          }
    }
    image_.assign(n, kNoNode);
    preimage_.assign(n, kNoNode);
  }

  Automorphisms run() {
    extend(0);
    return std::move(found_);
  }

 private:
  // True once a limit is reached; the list is then incomplete (a search that ends exactly
  // at the limit may have listed the whole group, but cannot know it).
  bool stop() {
    if ((++calls_ & 1023) == 0 && std::chrono::steady_clock::now() >= limits_.deadline)
      timed_out_ = true;
    if (found_.maps.size() < limits_.limit && !timed_out_) return false;
    found_.complete = false;
    return true;
  }

  bool fits(NodeId v, NodeId w) const {
    if (colour_[v] != colour_[w] || preimage_[w] != kNoNode) return false;
    int mapped = 0;
    for (const NodeId x : neighbours_[v]) {
      if (image_[x] == kNoNode) continue;
      ++mapped;
      if (t_.has_channel(x, v) != t_.has_channel(image_[x], w) ||
          t_.has_channel(v, x) != t_.has_channel(w, image_[x]))
        return false;
    }
    int mapped_there = 0;
    for (const NodeId y : neighbours_[w])
      if (preimage_[y] != kNoNode) ++mapped_there;
    return mapped == mapped_there;
  }

  void extend(std::size_t i) {
    if (stop()) return;
    if (i == order_.size()) {
      found_.maps.push_back(image_);
      return;
    }
    const NodeId v = order_[i];
    const auto try_one = [&](NodeId w) {
      if (!fits(v, w)) return;
      image_[v] = w;
      preimage_[w] = v;
      extend(i + 1);
      image_[v] = kNoNode;
      preimage_[w] = kNoNode;
    };
    if (anchor_[v] == kNoNode) {
      for (NodeId w = 0; w < t_.node_count() && !stop(); ++w) try_one(w);
    } else {
      for (const NodeId w : neighbours_[image_[anchor_[v]]]) {
        if (stop()) break;
        try_one(w);
      }
    }
  }

  const Topology& t_;
  const AutomorphismLimits& limits_;
  std::vector<int> colour_;
  std::vector<std::vector<NodeId>> neighbours_;
  std::vector<NodeId> order_, anchor_, image_, preimage_;
  Automorphisms found_;
  std::size_t calls_ = 0;
  bool timed_out_ = false;
};

}  // namespace

Automorphisms find_automorphisms(const Topology& t, const AutomorphismLimits& limits) {
  if (t.node_count() == 0) return {{{}}, true};
  return Search(t, limits).run();
}

long long permutation_order(const std::vector<NodeId>& sigma) {
  long long order = 1;
  std::vector<char> seen(sigma.size(), 0);
  for (std::size_t v = 0; v < sigma.size(); ++v) {
    if (seen[v]) continue;
    long long length = 0;
    for (auto w = static_cast<NodeId>(v); !seen[w]; w = sigma[w]) {
      seen[w] = 1;
      ++length;
    }
    order = std::lcm(order, length);
  }
  return order;
}

}  // namespace ccsched
