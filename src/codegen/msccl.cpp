// The MSCCL XML generator (msccl.hpp). The attributes and their limits follow the MSCCL
// executor's parser (msccl-executor-nccl, src/misc/msccl/msccl_parser.cc): `algo` needs
// name, proto, nchannels, nchunksperloop, ngpus, coll, inplace, outofplace, minBytes,
// maxBytes; `gpu` id, i_chunks, o_chunks, s_chunks; `tb` id, send, recv, chan; `step` s,
// type, srcbuf, srcoff, dstbuf, dstoff, cnt, depid, deps, hasdep. That parser is a small
// hand-written one: values in double quotes, one space between attributes, "/>" right
// after the last value, no XML declaration — the writer below keeps to exactly that.
#include "ccsched/codegen/msccl.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ranks.hpp"

namespace ccsched {
namespace {

using codegen_detail::RankMap;

// Executor limits (msccl_struct.h / msccl_parser.h).
constexpr int kMaxStepsPerBlock = 256;   // MSCCL_MAX_NUM_STEPS
constexpr int kMaxPeersPerChannel = 32;  // MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL
constexpr int kMaxChannels = 32;         // MAXCHANNELS
constexpr int kMaxXmlNodes = 4096;       // MAX_NODES, per loading rank

struct Location {
  char buffer = 'i';  // i input, o output, s scratch
  int offset = 0;
};

struct Op {
  std::string type;  // s, r, cpy, nop
  Location src, dst;
  int depid = -1, deps = -1;
  bool hasdep = false;
  Step step = 0;
};

struct ThreadBlock {
  int send = -1, recv = -1, chan = 0;
  std::vector<Op> ops;
};

struct Gpu {
  int i_chunks = 0, o_chunks = 0, s_chunks = 0;
  std::vector<ThreadBlock> blocks;
  std::map<std::pair<int, int>, int> send_block, recv_block;  // (peer, chan) -> index
  std::map<int, Location> held;                               // message index -> where
  int block(std::map<std::pair<int, int>, int>& table, int peer, int chan, bool sending) {
    auto [it, fresh] = table.try_emplace({peer, chan}, static_cast<int>(blocks.size()));
    if (fresh) {
      ThreadBlock tb;
      (sending ? tb.send : tb.recv) = peer;
      tb.chan = chan;
      blocks.push_back(tb);
    }
    return it->second;
  }
};

enum class Coll { broadcast, allgather, scatter, gather, alltoall };

struct Plan {
  Coll coll;
  const char* name;
  int chunks_per_loop;
  int root = -1;  // rank, for rooted collectives
};

[[noreturn]] void unsupported(const std::string& what) { throw Unsupported(what, "codegen msccl"); }

// The MSCCL collective of a schedule, after checking that its messages are exactly that
// collective over all processors (MSCCL algorithms span every rank).
Plan plan_for(const Schedule& s, const RankMap& ranks, const std::vector<int>& origin,
              const std::vector<std::vector<int>>& targets) {
  const int p = ranks.size();
  const auto& msgs = s.collective.messages;
  const auto kind = s.collective.kind;
  std::set<std::pair<int, int>> pairs;  // (origin, target) over all messages
  for (std::size_t m = 0; m < msgs.size(); ++m)
    for (const int t : targets[m]) pairs.insert({origin[m], t});
  const auto all_pairs_from = [&](int o) {
    for (int t = 0; t < p; ++t)
      if (t != o && !pairs.count({o, t})) return false;
    return true;
  };
  const std::string kind_name(to_string(kind));
  switch (kind) {
    case CollectiveKind::OAB: {
      if (msgs.size() != 1 || !all_pairs_from(origin[0]))
        unsupported("MSCCL broadcast needs one message from the root to every other processor");
      return {Coll::broadcast, "broadcast", 1, origin[0]};
    }
    case CollectiveKind::AAB: {
      std::set<int> origins(origin.begin(), origin.end());
      if (static_cast<int>(msgs.size()) != p || static_cast<int>(origins.size()) != p)
        unsupported("MSCCL allgather needs one message from every processor");
      for (const int o : origins)
        if (!all_pairs_from(o))
          unsupported("MSCCL allgather needs every message at every processor");
      return {Coll::allgather, "allgather", p, -1};
    }
    case CollectiveKind::OAS: {
      const int root = msgs.empty() ? -1 : origin[0];
      if (msgs.empty() ||
          std::any_of(origin.begin(), origin.end(), [&](int o) { return o != root; }) ||
          std::any_of(targets.begin(), targets.end(),
                      [](const auto& t) { return t.size() != 1; }) ||
          static_cast<int>(msgs.size()) != p - 1 || !all_pairs_from(root))
        unsupported("MSCCL scatter needs one message from the root to each other processor");
      return {Coll::scatter, "scatter", 1, root};
    }
    case CollectiveKind::AOG: {
      const int root = msgs.empty() || targets[0].size() != 1 ? -1 : targets[0][0];
      std::set<int> origins(origin.begin(), origin.end());
      if (root < 0 || static_cast<int>(msgs.size()) != p - 1 ||
          static_cast<int>(origins.size()) != p - 1 ||
          std::any_of(targets.begin(), targets.end(),
                      [&](const auto& t) { return t.size() != 1 || t[0] != root; }))
        unsupported("MSCCL gather needs one message from each other processor to the root");
      return {Coll::gather, "gather", 1, root};
    }
    case CollectiveKind::AAS: {
      if (static_cast<int>(msgs.size()) != p * (p - 1) ||
          std::any_of(targets.begin(), targets.end(), [](const auto& t) { return t.size() != 1; }))
        unsupported("MSCCL alltoall needs one message between every ordered pair of processors");
      for (int o = 0; o < p; ++o)
        if (!all_pairs_from(o))
          unsupported("MSCCL alltoall needs one message between every ordered pair of processors");
      return {Coll::alltoall, "alltoall", p, -1};
    }
    default:
      unsupported(
          fmt::format("{} has no MSCCL collective (broadcast OAB, allgather AAB, scatter "
                      "OAS, gather AOG, alltoall AAS)",
                      kind_name));
  }
}

std::string sanitize(const std::string& text) {
  std::string out;
  for (const char c : text)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out;
}

}  // namespace

std::string generate_msccl_xml(const Schedule& s, const MscclOptions& options) {
  refuse_reductions(s.collective, "the MSCCL code generator", "codegen msccl");
  if (options.protocol != "Simple" && options.protocol != "LL" && options.protocol != "LL128")
    throw InvalidParameter(
        fmt::format("unknown protocol '{}' (Simple, LL, LL128)", options.protocol), "--protocol");
  if (options.min_bytes < 0 || options.max_bytes < 0 ||
      (options.max_bytes > 0 && options.max_bytes < options.min_bytes))
    throw InvalidParameter("byte range must satisfy 0 <= min <= max (max 0: no limit)",
                           "--min-bytes/--max-bytes");
  const RankMap ranks(s.topology);
  const int p = ranks.size();
  if (p < 2) unsupported("MSCCL needs at least two ranks");
  const auto& msgs = s.collective.messages;
  std::map<MessageId, int> index;
  std::vector<int> origin;
  std::vector<std::vector<int>> targets;
  for (std::size_t i = 0; i < msgs.size(); ++i) {
    index[msgs[i].id] = static_cast<int>(i);
    origin.push_back(ranks.rank(msgs[i].origin, "messages"));
    targets.emplace_back();
    for (const NodeId t : msgs[i].targets) targets.back().push_back(ranks.rank(t, "messages"));
  }
  const Plan plan = plan_for(s, ranks, origin, targets);

  // Where a message sits at its origin and at a target (see msccl.hpp for the layouts).
  const auto at_origin = [&](int m) -> Location {
    switch (plan.coll) {
      case Coll::scatter:
      case Coll::alltoall:
        return {'i', targets[m][0]};
      default:
        return {'i', 0};
    }
  };
  const auto at_target = [&](int m) -> Location {
    switch (plan.coll) {
      case Coll::broadcast:
      case Coll::scatter:
        return {'o', 0};
      default:
        return {'o', origin[m]};
    }
  };
  const int in_chunks = plan.coll == Coll::scatter || plan.coll == Coll::alltoall ? p : 1;
  const int out_chunks = plan.coll == Coll::broadcast || plan.coll == Coll::scatter ? 1 : p;

  std::vector<Gpu> gpus(static_cast<std::size_t>(p));
  for (Gpu& g : gpus) {
    g.i_chunks = in_chunks;
    g.o_chunks = out_chunks;
  }
  for (std::size_t m = 0; m < msgs.size(); ++m)
    gpus[origin[m]].held[static_cast<int>(m)] = at_origin(static_cast<int>(m));

  // Transfers in step order; one send and one receive op per message they carry.
  std::vector<const Transfer*> order;
  for (const Transfer& tr : s.transfers) order.push_back(&tr);
  std::stable_sort(order.begin(), order.end(),
                   [](const Transfer* a, const Transfer* b) { return a->step < b->step; });
  int channels = 1;
  for (std::size_t i = 0; i < order.size();) {
    const Step step = order[i]->step;
    std::vector<std::pair<int, int>> arrivals;  // (rank, message) held from the next step on
    std::map<std::pair<int, int>, Location> arrival_at;
    for (; i < order.size() && order[i]->step == step; ++i) {
      const Transfer& tr = *order[i];
      if (tr.path.size() < 2) throw InvalidInput("transfer with a short path", "transfers");
      const int q = ranks.rank(tr.path.front(), "transfers");
      const int r = ranks.rank(tr.path.back(), "transfers");
      // Channel per ordered pair, the same at both ends, at most 32 peers per channel and
      // direction on every rank: distinct (r - q) mod P give distinct slots.
      const int chan = ((r - q + p) % p - 1) / kMaxPeersPerChannel;
      channels = std::max(channels, chan + 1);
      for (const MessageId id : tr.messages) {
        const auto it = index.find(id);
        if (it == index.end())
          throw InvalidInput(fmt::format("transfer carries unknown message {}", id), "transfers");
        const int m = it->second;
        const auto held = gpus[q].held.find(m);
        if (held == gpus[q].held.end())
          throw InvalidInput(
              fmt::format("rank {} sends message {} in step {} before it holds it", q, id, step),
              "transfers");
        Location dst;
        if (const auto had = gpus[r].held.find(m); had != gpus[r].held.end())
          dst = had->second;
        else if (const auto a = arrival_at.find({r, m}); a != arrival_at.end())
          dst = a->second;
        else if (std::find(targets[m].begin(), targets[m].end(), r) != targets[m].end())
          dst = at_target(m);
        else
          dst = {'s', gpus[r].s_chunks++};  // a relay keeps it in scratch
        arrival_at[{r, m}] = dst;
        arrivals.push_back({r, m});
        Gpu& sender = gpus[q];
        sender.blocks[sender.block(sender.send_block, r, chan, true)].ops.push_back(
            {.type = "s", .src = held->second, .dst = dst, .step = step});
        Gpu& receiver = gpus[r];
        receiver.blocks[receiver.block(receiver.recv_block, q, chan, false)].ops.push_back(
            {.type = "r", .src = held->second, .dst = dst, .step = step});
      }
    }
    for (const auto& [r, m] : arrivals) gpus[r].held.emplace(m, arrival_at.at({r, m}));
  }
  if (channels > kMaxChannels)
    unsupported(fmt::format("{} ranks need {} MSCCL channels; the executor has {}", p, channels,
                            kMaxChannels));

  // Local copies of each rank's own chunk into its output (the algorithms are out of
  // place): the root's block for a rooted collective, every rank's for the others.
  for (int r = 0; r < p; ++r) {
    std::optional<Op> copy;
    switch (plan.coll) {
      case Coll::broadcast:
        if (r == plan.root) copy = Op{.type = "cpy", .src = {'i', 0}, .dst = {'o', 0}};
        break;
      case Coll::allgather:
        copy = Op{.type = "cpy", .src = {'i', 0}, .dst = {'o', r}};
        break;
      case Coll::gather:
        if (r == plan.root) copy = Op{.type = "cpy", .src = {'i', 0}, .dst = {'o', r}};
        break;
      case Coll::scatter:
        if (r == plan.root) copy = Op{.type = "cpy", .src = {'i', r}, .dst = {'o', 0}};
        break;
      case Coll::alltoall:
        copy = Op{.type = "cpy", .src = {'i', r}, .dst = {'o', r}};
        break;
    }
    if (copy) {
      ThreadBlock tb;
      tb.ops.push_back(*copy);
      gpus[r].blocks.push_back(tb);
    }
  }

  // Dependencies: a send in schedule step s waits for every receive of its rank in steps
  // before s (the last such receive of each receiving thread block). Extra dependencies
  // go on nop steps in front of the send, as the executor's parser expects.
  for (int r = 0; r < p; ++r) {
    Gpu& g = gpus[r];
    for (ThreadBlock& tb : g.blocks) {
      if (tb.send < 0) continue;
      std::map<int, int> waited;  // receiving block -> last step index already waited for
      std::vector<Op> ops;
      for (Op op : tb.ops) {
        std::vector<std::pair<int, int>> deps;
        for (const auto& [key, b] : g.recv_block) {
          const auto& recv_ops = g.blocks[b].ops;
          int last = -1;
          for (int k = 0; k < static_cast<int>(recv_ops.size()) && recv_ops[k].step < op.step; ++k)
            last = k;
          const auto w = waited.find(b);
          if (last >= 0 && (w == waited.end() || w->second < last)) deps.push_back({b, last});
        }
        for (std::size_t d = 0; d < deps.size(); ++d) {
          const auto [b, k] = deps[d];
          waited[b] = k;
          g.blocks[b].ops[k].hasdep = true;
          if (d + 1 < deps.size())
            ops.push_back({.type = "nop",
                           .src = {'i', 0},
                           .dst = {'i', 0},
                           .depid = b,
                           .deps = k,
                           .step = op.step});
          else {
            op.depid = b;
            op.deps = k;
          }
        }
        ops.push_back(op);
      }
      tb.ops = std::move(ops);
    }
  }

  // Limits of the executor, per loading rank.
  for (int r = 0; r < p; ++r) {
    int nodes = 1 + p + static_cast<int>(gpus[r].blocks.size());
    for (const ThreadBlock& tb : gpus[r].blocks) {
      if (static_cast<int>(tb.ops.size()) > kMaxStepsPerBlock)
        unsupported(
            fmt::format("rank {} needs {} steps in one thread block; the executor allows "
                        "{}",
                        r, tb.ops.size(), kMaxStepsPerBlock));
      nodes += static_cast<int>(tb.ops.size());
    }
    if (nodes > kMaxXmlNodes)
      unsupported(fmt::format("rank {} needs {} XML nodes; the executor's parser reads {}", r,
                              nodes, kMaxXmlNodes));
  }

  const std::string name =
      options.name.empty()
          ? sanitize(fmt::format("ccsched_{}_{}", to_string(s.collective.kind),
                                 s.topology.name().empty() ? "network" : s.topology.name()))
          : sanitize(options.name);
  std::string out = fmt::format(
      "<!-- Generated by ccsched 0.1.0 (ccsched codegen msccl): {} on {}, {} steps. One chunk "
      "is one message; rank r is the r-th processor. The XML carries no routes. -->\n",
      to_string(s.collective.kind), sanitize(s.topology.name()), s.steps);
  out += fmt::format(
      "<algo name=\"{}\" proto=\"{}\" nchannels=\"{}\" nchunksperloop=\"{}\" ngpus=\"{}\" "
      "coll=\"{}\" inplace=\"0\" outofplace=\"1\" minBytes=\"{}\" maxBytes=\"{}\">\n",
      name, options.protocol, channels, plan.chunks_per_loop, p, plan.name, options.min_bytes,
      options.max_bytes);
  for (int r = 0; r < p; ++r) {
    const Gpu& g = gpus[r];
    out += fmt::format("  <gpu id=\"{}\" i_chunks=\"{}\" o_chunks=\"{}\" s_chunks=\"{}\">\n", r,
                       g.i_chunks, g.o_chunks, g.s_chunks);
    for (std::size_t b = 0; b < g.blocks.size(); ++b) {
      const ThreadBlock& tb = g.blocks[b];
      out += fmt::format("    <tb id=\"{}\" send=\"{}\" recv=\"{}\" chan=\"{}\">\n", b, tb.send,
                         tb.recv, tb.chan);
      for (std::size_t k = 0; k < tb.ops.size(); ++k) {
        const Op& op = tb.ops[k];
        out += fmt::format(
            "      <step s=\"{}\" type=\"{}\" srcbuf=\"{}\" srcoff=\"{}\" dstbuf=\"{}\" "
            "dstoff=\"{}\" cnt=\"{}\" depid=\"{}\" deps=\"{}\" hasdep=\"{}\"/>\n",
            k, op.type, op.src.buffer, op.src.offset, op.dst.buffer, op.dst.offset,
            op.type == "nop" ? 0 : 1, op.depid, op.deps, op.hasdep ? 1 : 0);
      }
      out += "    </tb>\n";
    }
    out += "  </gpu>\n";
  }
  out += "</algo>\n";
  return out;
}

}  // namespace ccsched
