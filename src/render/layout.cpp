// Network layout through the Graphviz library (gvc/cgraph): the graph handed to Graphviz
// has one node per drawn vertex and one edge per drawn line; Graphviz only places the
// vertices, the step pictures draw the lines themselves (straight, so that both
// directions of a link can run side by side). Graphviz headers stay in this file.
#include "ccsched/render/layout.hpp"

#include <fmt/core.h>
#include <graphviz/gvc.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <queue>
#include <string>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

constexpr std::array<std::pair<std::string_view, LayoutEngine>, 6> kEngines{{
    {"auto", LayoutEngine::automatic},
    {"neato", LayoutEngine::neato},
    {"circo", LayoutEngine::circo},
    {"dot", LayoutEngine::dot},
    {"fdp", LayoutEngine::fdp},
    {"twopi", LayoutEngine::twopi},
}};

// Distance of every node from the nearest processor, following channels either way;
// kUnreachable for nodes no processor reaches.
std::vector<int> levels_from_processors(const Topology& t) {
  std::vector<int> level(static_cast<std::size_t>(t.node_count()), kUnreachable);
  std::queue<NodeId> queue;
  for (const NodeId p : t.processors()) {
    level[p] = 0;
    queue.push(p);
  }
  while (!queue.empty()) {
    const NodeId u = queue.front();
    queue.pop();
    const auto visit = [&](NodeId v) {
      if (level[v] == kUnreachable) {
        level[v] = level[u] + 1;
        queue.push(v);
      }
    };
    for (const ChannelId c : t.out_channels(u)) visit(t.channel(c).to);
    for (const ChannelId c : t.in_channels(u)) visit(t.channel(c).from);
  }
  return level;
}

// Rings are drawn on a circle at any size. Complete graphs, Kautz and de Bruijn digraphs
// only while circo stays fast: its time grows steeply with the links (Graphviz 2.42,
// measured: Kautz(3,3), 108 channels, 0.6 s; Kautz(2,6), 192, 2.7 s; Kautz(3,4), 324,
// 12 s; complete:64 and Kautz(3,5) over 60 s); larger ones go to neato.
bool ring_like(const Topology& t) {
  const std::string& name = t.name();
  for (const std::string_view prefix : {"ring:", "uring:", "ngon:", "octagon"})
    if (name.rfind(prefix, 0) == 0) return true;
  constexpr int kCircoChannels = 200;
  if (t.channel_count() > kCircoChannels) return false;
  for (const std::string_view prefix : {"complete:", "kautz:", "debruijn:"})
    if (name.rfind(prefix, 0) == 0) return true;
  return false;
}

// cgraph and gvc keep global state (error hooks, the plugin registry): one layout at a
// time.
std::mutex graphviz_mutex;
std::string graphviz_errors;

int capture_error(char* message) {
  graphviz_errors += message;
  return 0;
}

void set(void* object, const char* name, const std::string& value) {
  std::string key(name), val(value), empty;
  agsafeset(object, key.data(), val.data(), empty.data());
}

// Graphviz 2.42's circo caches attribute symbols of "the current root graph" in statics
// (circularinit.c, initGraphAttrs) and refreshes them only when the root graph's address
// changes. A new graph allocated where the last one was freed therefore reuses the freed
// symbols: a crash in agxget, depending on where malloc puts the graph (seen about one run
// in twenty). So the last graph circo laid out stays open until the next one exists; then
// the new graph cannot share its address and the statics are refreshed. Guarded by
// graphviz_mutex.
Agraph_t* last_circo_graph = nullptr;

// Closes everything Graphviz allocated, whatever happens in between.
struct GraphvizSession {
  GVC_t* gvc = nullptr;
  Agraph_t* graph = nullptr;
  bool laid_out = false;
  bool circo = false;
  ~GraphvizSession() {
    if (gvc && graph && laid_out) gvFreeLayout(gvc, graph);
    if (graph && circo) {
      if (last_circo_graph) agclose(last_circo_graph);
      last_circo_graph = graph;
    } else if (graph) {
      agclose(graph);
    }
    if (gvc) gvFreeContext(gvc);
  }
};

// Grid coordinates from a label "(a,b)" or "(a,b,c)" (mesh and torus generators label
// nodes so); empty otherwise.
std::vector<int> grid_coordinates(const std::string& label) {
  if (label.size() < 5 || label.front() != '(' || label.back() != ')') return {};
  std::vector<int> out;
  int value = 0;
  bool digit = false;
  for (std::size_t i = 1; i < label.size(); ++i) {
    const char c = label[i];
    if (c >= '0' && c <= '9') {
      value = value * 10 + (c - '0');
      digit = true;
    } else if ((c == ',' || c == ')') && digit) {
      out.push_back(value);
      value = 0;
      digit = false;
    } else {
      return {};
    }
  }
  return out.size() == 2 || out.size() == 3 ? out : std::vector<int>{};
}

// Node size in inches: processors are circles wide enough for their label, switches
// squares. Graphviz keeps vertices apart by these sizes; the pictures use the same ones.
double label_width(const std::string& label) {
  return std::max(0.42, 0.11 * static_cast<double>(label.size()) + 0.16);
}

}  // namespace

#if defined(__SANITIZE_ADDRESS__)
// Graphviz 2.42's gvContext() leaks the buffer it reads its plugin configuration into
// (gvconfig); nothing outside Graphviz can free it. Tell LeakSanitizer, so that sanitizer
// builds of everything that draws stay clean.
extern "C" const char* __lsan_default_suppressions() { return "leak:gvconfig\nleak:libgvc.so\n"; }
#endif

LayoutEngine parse_layout_engine(std::string_view text) {
  for (const auto& [name, engine] : kEngines)
    if (text == name) return engine;
  throw InvalidParameter(fmt::format("unknown layout engine '{}' (auto, neato, circo, dot, fdp, "
                                     "twopi)",
                                     text),
                         "--layout");
}

std::string_view to_string(LayoutEngine engine) {
  for (const auto& [name, e] : kEngines)
    if (e == engine) return name;
  return "auto";
}

bool is_layered(const Topology& t) {
  if (t.switch_count() == 0) return false;
  const auto level = levels_from_processors(t);
  for (const Channel& c : t.channels()) {
    if (level[c.from] == kUnreachable || level[c.to] == kUnreachable) return false;
    if (std::abs(level[c.from] - level[c.to]) != 1) return false;
  }
  return true;
}

LayoutEngine choose_layout_engine(const Topology& t) {
  if (is_layered(t)) return LayoutEngine::dot;
  if (t.switch_count() == 0 && ring_like(t)) return LayoutEngine::circo;
  return LayoutEngine::neato;
}

NetworkLayout layout_network(const Topology& t, LayoutEngine engine) {
  NetworkLayout layout;
  layout.engine = engine == LayoutEngine::automatic ? choose_layout_engine(t) : engine;
  const bool layered = is_layered(t);
  // Unidirectional multistage networks unfold: a processor's channels into the first
  // stage leave its sender copy, the channels out of the last stage enter its receiver
  // copy (seed 001, Fig. 1). Only dot ranks them left to right.
  layout.unfolded = layered && t.directed() && layout.engine == LayoutEngine::dot;

  std::vector<int> sender_vertex(static_cast<std::size_t>(t.node_count()));
  std::vector<int> receiver_vertex(static_cast<std::size_t>(t.node_count()));
  for (NodeId n = 0; n < t.node_count(); ++n) {
    sender_vertex[n] = receiver_vertex[n] = static_cast<int>(layout.vertices.size());
    layout.vertices.push_back({.node = n});
  }
  if (layout.unfolded)
    for (const NodeId p : t.processors()) {
      receiver_vertex[p] = static_cast<int>(layout.vertices.size());
      layout.vertices.push_back({.node = p, .receiver_copy = true});
    }

  // Channels -> links between vertex pairs.
  std::map<std::pair<int, int>, int> link_of;
  layout.channel_from.resize(static_cast<std::size_t>(t.channel_count()));
  layout.channel_to.resize(static_cast<std::size_t>(t.channel_count()));
  layout.channel_link.resize(static_cast<std::size_t>(t.channel_count()));
  for (ChannelId c = 0; c < t.channel_count(); ++c) {
    const int a = sender_vertex[t.channel(c).from];
    const int b = receiver_vertex[t.channel(c).to];
    layout.channel_from[c] = a;
    layout.channel_to[c] = b;
    const auto key = std::minmax(a, b);
    auto [it, fresh] = link_of.try_emplace(key, static_cast<int>(layout.links.size()));
    if (fresh) layout.links.push_back({.a = key.first, .b = key.second});
    LayoutLink& link = layout.links[it->second];
    (a == link.a ? link.forward : link.backward) = c;
    layout.channel_link[c] = it->second;
  }

  const std::lock_guard lock(graphviz_mutex);
  graphviz_errors.clear();
  agseterr(AGMAX);  // report through the hook below, never on stderr
  agseterrf(capture_error);
  GraphvizSession session;
  session.gvc = gvContext();
  const bool ranked = layout.engine == LayoutEngine::dot;
  std::string graph_name = "network";
  session.graph = agopen(graph_name.data(), ranked ? Agdirected : Agundirected, nullptr);
  if (!session.gvc || !session.graph)
    throw Unsupported("cannot start Graphviz", std::string(to_string(layout.engine)));
  Agraph_t* g = session.graph;
  session.circo = layout.engine == LayoutEngine::circo;

  set(g, "splines", "false");
  set(g, "outputorder", "edgesfirst");
  switch (layout.engine) {
    case LayoutEngine::neato:
      // start=regular places the vertices on a circle before the stress majorisation:
      // deterministic, and it keeps symmetric networks (Petersen, Kautz) symmetric.
      set(g, "start", "regular");
      set(g, "overlap", "false");
      set(g, "sep", "+12");
      set(g, "epsilon", "0.00001");
      break;
    case LayoutEngine::circo:
      set(g, "mindist", "0.6");
      break;
    case LayoutEngine::dot:
      set(g, "rankdir", layout.unfolded ? "LR" : "BT");
      set(g, "nodesep", "0.35");
      set(g, "ranksep", layout.unfolded ? "1.1" : "1.0");
      set(g, "ordering", "out");
      break;
    case LayoutEngine::fdp:
      set(g, "overlap", "false");
      set(g, "sep", "+12");
      break;
    case LayoutEngine::twopi:
      set(g, "overlap", "false");
      break;
    case LayoutEngine::automatic:
      break;
  }

  std::vector<Agnode_t*> gv_nodes;
  for (std::size_t v = 0; v < layout.vertices.size(); ++v) {
    std::string name = fmt::format("v{}", v);
    Agnode_t* node = agnode(g, name.data(), 1);
    const NodeId n = layout.vertices[v].node;
    const double w = label_width(t.display_name(n));
    set(node, "shape", t.is_processor(n) ? "circle" : "box");
    set(node, "fixedsize", "true");
    set(node, "label", "");
    set(node, "width", fmt::format("{:.2f}", w));
    set(node, "height", fmt::format("{:.2f}", t.is_processor(n) ? w : 0.42));
    gv_nodes.push_back(node);
  }

  if (ranked) {
    const auto level = levels_from_processors(t);
    // Edges point the way dot should rank them: along the channels of an unfolded MIN,
    // away from the processors in a tree (rankdir=BT puts the processors at the bottom).
    for (const LayoutLink& link : layout.links) {
      int tail = link.a, head = link.b;
      if (layout.unfolded) {
        if (link.forward == kNoChannel) std::swap(tail, head);
      } else {
        const NodeId na = layout.vertices[link.a].node, nb = layout.vertices[link.b].node;
        if (level[na] != kUnreachable && level[nb] != kUnreachable && level[na] > level[nb])
          std::swap(tail, head);
      }
      agedge(g, gv_nodes[tail], gv_nodes[head], nullptr, 1);
    }
    // Processors (and receiver copies) on one rank each, in id order, as the seeds draw.
    std::string senders = "senders", receivers = "receivers";
    Agraph_t* first = agsubg(g, senders.data(), 1);
    set(first, "rank", layout.unfolded ? "source" : "min");
    Agraph_t* last = layout.unfolded ? agsubg(g, receivers.data(), 1) : nullptr;
    if (last) set(last, "rank", "sink");
    for (std::size_t v = 0; v < layout.vertices.size(); ++v) {
      const NodeId n = layout.vertices[v].node;
      if (!t.is_processor(n)) continue;
      agsubnode(layout.vertices[v].receiver_copy ? last : first, gv_nodes[v], 1);
    }
    if (!layout.unfolded) {
      // One rank per switch level, so that every stage of a tree is a row.
      std::map<int, Agraph_t*> rows;
      for (std::size_t v = 0; v < layout.vertices.size(); ++v) {
        const NodeId n = layout.vertices[v].node;
        if (t.is_processor(n) || level[n] == kUnreachable) continue;
        auto& row = rows[level[n]];
        if (!row) {
          std::string name = fmt::format("level{}", level[n]);
          row = agsubg(g, name.data(), 1);
          set(row, "rank", "same");
        }
        agsubnode(row, gv_nodes[v], 1);
      }
    }
  } else {
    // Meshes and tori: the coordinates in the labels give pinned positions, so the picture
    // reads like the network's definition. A 2-D torus is drawn folded (positions 0, 2,
    // 4, ... out and ..., 5, 3, 1 back along each axis, odd positions nudged aside), so
    // that the wrap-around links are as short as the others and no link runs through a
    // node; a 3-D mesh in an oblique projection. Other coordinates: plain neato.
    std::vector<std::vector<int>> coords;
    for (const LayoutVertex& v : layout.vertices) {
      coords.push_back(grid_coordinates(t.display_name(v.node)));
      if (coords.back().empty() || coords.back().size() != coords.front().size()) {
        coords.clear();
        break;
      }
    }
    const bool mesh = t.name().rfind("mesh:", 0) == 0, torus = t.name().rfind("torus:", 0) == 0;
    if (!coords.empty() && layout.engine == LayoutEngine::neato &&
        (mesh || (torus && coords.front().size() == 2))) {
      std::vector<int> extent(coords.front().size(), 1);
      for (const auto& c : coords)
        for (std::size_t d = 0; d < c.size(); ++d) extent[d] = std::max(extent[d], c[d] + 1);
      const auto fold = [](int i, int k) { return 2 * i < k ? 2 * i : 2 * (k - 1 - i) + 1; };
      for (std::size_t v = 0; v < coords.size(); ++v) {
        const auto& c = coords[v];
        double x = 0.0, y = 0.0;
        if (torus) {
          const int fi = fold(c[0], extent[0]), fj = fold(c[1], extent[1]);
          x = 0.8 * fj + 0.35 * (fi % 2);
          y = -0.8 * fi - 0.35 * (fj % 2);
        } else if (c.size() == 2) {
          x = 1.3 * c[1];
          y = -1.3 * c[0];
        } else {
          x = 1.5 * c[2] + 0.8 * c[0];
          y = -1.5 * c[1] - 0.6 * c[0];
        }
        set(gv_nodes[v], "pos", fmt::format("{:.3f},{:.3f}!", x, y));
      }
      set(g, "start", "random");  // neato reads given positions only in this mode
    }
    // Longer edges than Graphviz's default inch: room for two lanes and an arrow.
    const std::string len = fmt::format("{:.2f}", layout.engine == LayoutEngine::neato ? 1.5 : 1.2);
    for (const LayoutLink& link : layout.links) {
      Agedge_t* e = agedge(g, gv_nodes[link.a], gv_nodes[link.b], nullptr, 1);
      set(e, "len", len);
    }
  }

  std::string engine_name(to_string(layout.engine));
  if (gvLayout(session.gvc, g, engine_name.c_str()) != 0)
    throw Unsupported(fmt::format("Graphviz layout failed{}{}", graphviz_errors.empty() ? "" : ": ",
                                  graphviz_errors),
                      engine_name);
  session.laid_out = true;

  double min_x = 1e300, min_y = 1e300, max_x = -1e300, max_y = -1e300;
  for (std::size_t v = 0; v < layout.vertices.size(); ++v) {
    const pointf p = ND_coord(gv_nodes[v]);
    layout.vertices[v].x = p.x;
    layout.vertices[v].y = -p.y;  // Graphviz y grows upwards, SVG y downwards
    min_x = std::min(min_x, p.x);
    max_x = std::max(max_x, p.x);
    min_y = std::min(min_y, -p.y);
    max_y = std::max(max_y, -p.y);
  }
  if (layout.vertices.empty()) min_x = min_y = max_x = max_y = 0.0;
  // Spread force-directed and circular layouts until a link is long enough for two lanes,
  // an arrow and a label (dot's ranks are spaced by nodesep/ranksep already).
  if (!ranked && !layout.links.empty()) {
    double total = 0.0;
    for (const LayoutLink& link : layout.links)
      total += std::hypot(layout.vertices[link.a].x - layout.vertices[link.b].x,
                          layout.vertices[link.a].y - layout.vertices[link.b].y);
    const double mean = total / static_cast<double>(layout.links.size());
    constexpr double kWanted = 90.0;  // points
    if (mean > 1e-6 && mean < kWanted) {
      const double k = std::min(kWanted / mean, 3.0);
      for (LayoutVertex& v : layout.vertices) {
        v.x *= k;
        v.y *= k;
      }
      min_x *= k;
      min_y *= k;
      max_x *= k;
      max_y *= k;
    }
  }
  for (LayoutVertex& v : layout.vertices) {
    v.x -= min_x;
    v.y -= min_y;
  }
  layout.width = max_x - min_x;
  layout.height = max_y - min_y;
  return layout;
}

}  // namespace ccsched
