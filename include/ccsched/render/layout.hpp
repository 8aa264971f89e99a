// Where each node of a network is drawn: one Graphviz layout per network, shared by every
// step panel so that the same node sits at the same place in all of them (the seeds draw
// their step pictures on one fixed drawing of the network, seed 000 Figs. 2 and 4, seed
// 001 Figs. 9 and 10).
//
//   NetworkLayout l = layout_network(topology);             // engine chosen by the network
//   for (const LayoutLink& k : l.links) ...                  // one line per node pair
//   int v = l.channel_from[c];                                // where channel c starts
//
// Which engine (LayoutEngine::automatic):
//   - direct networks (no switches): circo for rings and other networks the generators
//     build around a Hamiltonian cycle (ring, uring, ngon, octagon, complete), neato for
//     the rest;
//   - multistage networks (switches in layers: every link joins adjacent distance levels
//     from the processors): dot with one rank per layer. Unidirectional MINs (Omega,
//     butterfly, Clos) are drawn unfolded, the way seed 001 Figs. 1 and 9 draw them: every
//     processor twice, as a sender on the left and as a receiver on the right; trees and
//     fat trees are drawn with the processors as the bottom rank;
//   - other networks with switches (fat:SPEC,c): neato.
// The layout depends only on the topology and the engine, never on a clock or a random
// seed, so the same schedule renders the same picture.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

enum class LayoutEngine { automatic, neato, circo, dot, fdp, twopi };

// "auto" | "neato" | "circo" | "dot" | "fdp" | "twopi"; throws InvalidParameter.
LayoutEngine parse_layout_engine(std::string_view text);
std::string_view to_string(LayoutEngine engine);

// A drawn node. In an unfolded layout a processor has two vertices (sender, receiver).
struct LayoutVertex {
  NodeId node = kNoNode;
  bool receiver_copy = false;  // the right-hand copy of an unfolded processor
  double x = 0.0;              // points, origin top left, y growing downwards
  double y = 0.0;
};

// One line of the drawing: the channels between two vertices, in either direction.
struct LayoutLink {
  int a = -1;  // vertex indices
  int b = -1;
  ChannelId forward = kNoChannel;   // a -> b, or kNoChannel
  ChannelId backward = kNoChannel;  // b -> a, or kNoChannel
  bool both_ways() const { return forward != kNoChannel && backward != kNoChannel; }
};

struct NetworkLayout {
  LayoutEngine engine = LayoutEngine::neato;  // the engine actually used
  bool unfolded = false;                      // processors drawn as sender and receiver
  double width = 0.0;                         // bounding box of the vertex centres, points
  double height = 0.0;
  std::vector<LayoutVertex> vertices;
  std::vector<LayoutLink> links;
  std::vector<int> channel_from;  // per channel: the vertex it leaves
  std::vector<int> channel_to;    // per channel: the vertex it enters
  std::vector<int> channel_link;  // per channel: its link
};

// The engine `automatic` resolves to for this network (see the file comment).
LayoutEngine choose_layout_engine(const Topology& t);

// True for networks with switches arranged in layers (the multistage networks of seed
// 001: MINs, Clos, trees, fat trees).
bool is_layered(const Topology& t);

// Lays the network out with Graphviz. Throws Unsupported when Graphviz fails (a missing
// layout plugin, for instance), naming the engine.
NetworkLayout layout_network(const Topology& t, LayoutEngine engine = LayoutEngine::automatic);

}  // namespace ccsched
