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

// Executor limits, each the smallest value among the executors' sources read
// (Azure/msccl-executor-nccl, ROCm/rccl, microsoft/msccl; docs/CODEGEN.md "Limits"):
// MSCCL_MAX_NUM_STEPS is 64 in msccl-executor-nccl src/include/msccl/msccl_struct.h (commit
// 206e0c4) and 256 in microsoft/msccl src/include/msccl.h: the steps of one thread block
// fill mscclThreadBlock::transmissions[MSCCL_MAX_NUM_STEPS].
constexpr int kMaxStepsPerBlock = 64;
// MSCCL_MAX_NUM_THREAD_BLOCKS_PER_CHANNEL (msccl_struct.h): send and receive peers per
// channel, mscclChannelInfo::sendPeerInfo / recvPeerInfo.
constexpr int kMaxPeersPerChannel = 32;
// MAXCHANNELS of NCCL (src/include/device.h); the parser refuses chan > MAXCHANNELS
// (src/misc/msccl/msccl_parser.cc, "has an invalid channel").
constexpr int kMaxChannels = 32;
// Thread blocks per GPU: a dependency names its block in mscclThreadBlock::dependentBid,
// an int8_t (msccl_struct.h), so only blocks 0..127 can be waited for.
constexpr int kMaxBlocksPerGpu = 128;
constexpr int kMaxXmlNodes = 4096;  // MAX_NODES (msccl_parser.h), per loading rank

struct Location {
  char buffer = 'i';  // i input, o output, s scratch
  int offset = 0;
};

struct Op {
  std::string type;  // s, r, rrc (receive, add src, write dst), cpy, nop
  Location src, dst;
  int depid = -1, deps = -1;
  bool hasdep = false;
  Step step = 0;
  int uid = -1;            // numbered in push order, so increasing within a thread block
  std::vector<int> after{};  // uids of ops (on this rank) that must finish first
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
  int next_uid = 0;
  // Appends an op to thread block `b` and returns its uid.
  int push(int b, Op op) {
    op.uid = next_uid++;
    blocks[b].ops.push_back(std::move(op));
    return blocks[b].ops.back().uid;
  }
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

enum class Coll { broadcast, allgather, scatter, gather, alltoall, allreduce, reduce_scatter, reduce };

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
      // B blocks per processor (FORMATS.md "Several blocks"): B messages from each.
      const int blocks = std::max(1, s.collective.blocks);
      std::map<int, int> per_origin;
      for (const int o : origin) ++per_origin[o];
      if (static_cast<int>(msgs.size()) != p * blocks ||
          static_cast<int>(per_origin.size()) != p ||
          std::any_of(per_origin.begin(), per_origin.end(),
                      [&](const auto& entry) { return entry.second != blocks; }))
        unsupported(blocks == 1 ? std::string("MSCCL allgather needs one message from every processor")
                                : fmt::format("MSCCL allgather needs {} messages (blocks) from "
                                              "every processor",
                                              blocks));
      for (std::size_t m = 0; m < msgs.size(); ++m)
        if (targets[m].size() != static_cast<std::size_t>(p - 1) || !all_pairs_from(origin[m]))
          unsupported("MSCCL allgather needs every message at every processor");
      return {Coll::allgather, "allgather", p * blocks, -1};
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

// Channel per ordered pair, the same at both ends, at most 32 peers per channel and
// direction on every rank: distinct (r - q) mod P give distinct slots.
int channel_of(int q, int r, int p) { return ((r - q + p) % p - 1) / kMaxPeersPerChannel; }

// Turns every op's `after` list into the executor's dependencies: one (depid, deps) per
// step, extra ones on nop steps in front of it, `hasdep` on the steps waited for. A
// dependency on an op of the same thread block (which runs in order anyway) or on one a
// step before it in the block already waited for is left out.
void resolve_dependencies(Gpu& g) {
  std::map<int, std::pair<int, int>> where;  // uid -> (thread block, index before nops)
  for (std::size_t b = 0; b < g.blocks.size(); ++b)
    for (std::size_t k = 0; k < g.blocks[b].ops.size(); ++k)
      where[g.blocks[b].ops[k].uid] = {static_cast<int>(b), static_cast<int>(k)};
  std::vector<std::vector<Op>> rebuilt(g.blocks.size());
  std::vector<std::vector<std::pair<int, int>>> wanted(g.blocks.size());  // per op: (tb, uid) or -1
  for (std::size_t b = 0; b < g.blocks.size(); ++b) {
    std::map<int, int> waited;  // thread block -> largest uid already waited for
    for (Op& op : g.blocks[b].ops) {
      std::map<int, int> latest;  // thread block -> largest uid this op needs
      for (const int u : op.after) {
        const int tb = where.at(u).first;
        if (tb == static_cast<int>(b)) continue;
        latest[tb] = std::max(latest[tb], u);
      }
      std::vector<std::pair<int, int>> deps;
      for (const auto& [tb, u] : latest) {
        const auto w = waited.find(tb);
        if (w != waited.end() && w->second >= u) continue;
        waited[tb] = u;
        deps.push_back({tb, u});
      }
      for (std::size_t d = 0; d + 1 < deps.size(); ++d) {
        rebuilt[b].push_back({.type = "nop", .src = {'i', 0}, .dst = {'i', 0}, .step = op.step});
        wanted[b].push_back(deps[d]);
      }
      rebuilt[b].push_back(op);
      wanted[b].push_back(deps.empty() ? std::pair<int, int>{-1, -1} : deps.back());
    }
  }
  std::map<int, int> final_index;  // uid -> index after the nops
  for (std::size_t b = 0; b < rebuilt.size(); ++b)
    for (std::size_t k = 0; k < rebuilt[b].size(); ++k)
      if (rebuilt[b][k].uid >= 0) final_index[rebuilt[b][k].uid] = static_cast<int>(k);
  for (std::size_t b = 0; b < rebuilt.size(); ++b)
    for (std::size_t k = 0; k < rebuilt[b].size(); ++k)
      if (const auto [tb, u] = wanted[b][k]; tb >= 0) {
        rebuilt[b][k].depid = tb;
        rebuilt[b][k].deps = final_index.at(u);
        rebuilt[tb][final_index.at(u)].hasdep = true;
      }
  for (std::size_t b = 0; b < rebuilt.size(); ++b) g.blocks[b].ops = std::move(rebuilt[b]);
}

// What the leading comment says about minBytes/maxBytes. The MSCCL schedulers
// (msccl-executor-nccl and RCCL src/misc/msccl/msccl_lifecycle.cc,
// mscclInternalSchedulerSelectAlgo; Azure/msccl-scheduler src/scheduler.cc) pick the first
// algorithm with nBytes >= minBytes && (maxBytes == 0 || nBytes <= maxBytes), where nBytes
// = count x type size x (ngpus for allgather, alltoall, reduce_scatter), and count a
// multiple of nchunksperloop; otherwise the runtime runs its own algorithms.
std::string size_note(const MscclOptions& options) {
  if (!options.size_note.empty()) return options.size_note;
  if (options.min_bytes == 0 && options.max_bytes == 0)
    return "Sizes: every size (maxBytes 0 is no upper limit to the MSCCL schedulers).";
  return fmt::format("Sizes: {}..{} B as given.", options.min_bytes,
                     options.max_bytes == 0 ? std::string("") : std::to_string(options.max_bytes));
}

// "--" ends an XML comment; the note is plain text otherwise.
std::string sanitize_comment(std::string text) {
  for (std::size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at))
    text.replace(at, 2, "- -");
  return text;
}

void check_options(const MscclOptions& options) {
  if (options.protocol != "Simple" && options.protocol != "LL" && options.protocol != "LL128")
    throw InvalidParameter(
        fmt::format("unknown protocol '{}' (Simple, LL, LL128)", options.protocol), "--protocol");
  if (options.min_bytes < 0 || options.max_bytes < 0 ||
      (options.max_bytes > 0 && options.max_bytes < options.min_bytes))
    throw InvalidParameter("byte range must satisfy 0 <= min <= max (max 0: no limit)",
                           "--min-bytes/--max-bytes");
}

// The executor's limits per loading rank, then the XML text.
std::string write_xml(const Schedule& s, const MscclOptions& options, const Plan& plan,
                      int channels, std::vector<Gpu>& gpus, const std::string& chunk_meaning) {
  const int p = static_cast<int>(gpus.size());
  if (channels > kMaxChannels)
    unsupported(fmt::format("{} ranks need {} MSCCL channels; the executor has {}", p, channels,
                            kMaxChannels));
  for (Gpu& g : gpus) resolve_dependencies(g);
  for (int r = 0; r < p; ++r) {
    if (static_cast<int>(gpus[r].blocks.size()) > kMaxBlocksPerGpu)
      unsupported(fmt::format("rank {} needs {} thread blocks; the executor can wait for {}", r,
                              gpus[r].blocks.size(), kMaxBlocksPerGpu));
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
      "is {}; rank r is the r-th processor. The XML carries no routes. {} -->\n",
      to_string(s.collective.kind), sanitize(s.topology.name()), s.steps, chunk_meaning,
      sanitize_comment(size_note(options)));
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

std::vector<const Transfer*> transfers_by_step(const Schedule& s) {
  std::vector<const Transfer*> order;
  for (const Transfer& tr : s.transfers) {
    if (tr.path.size() < 2) throw InvalidInput("transfer with a short path", "transfers");
    order.push_back(&tr);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const Transfer* a, const Transfer* b) { return a->step < b->step; });
  return order;
}

// A reduction schedule (FORMATS.md "Reductions") as allreduce, reduce_scatter or reduce.
// One chunk is one block. acc[v][b] lives in the output chunk the collective leaves it in
// (allreduce and reduce: o[b] at every receiver; reduce_scatter: o[0] of receiver b), else
// in a scratch chunk; while acc[v][b] is still v's input it is read from i[b] (never
// written). Receives: `copy` and a `reduce` into an empty accumulator are `r` steps; a
// `reduce` is `rrc` (receive, add the local src, write dst). Dependencies follow the data:
// a send waits for the last write of its chunk in an earlier schedule step; a write waits
// for the previous write of its chunk and for every send that read the chunk since (so a
// send in step s carries the accumulator as it stood at the start of step s).
std::string reduction_xml(const Schedule& s, const MscclOptions& options) {
  const Collective& c = s.collective;
  const RankMap ranks(s.topology);
  const int p = ranks.size();
  if (p < 2) unsupported("MSCCL needs at least two ranks");
  const int blocks = c.blocks;
  if (blocks < 1) throw InvalidInput("a reduction needs at least one block", "collective.blocks");
  const auto ranks_of = [&](const std::vector<NodeId>& nodes, const char* where) {
    std::vector<int> out;
    for (const NodeId n : nodes) out.push_back(ranks.rank(n, where));
    return out;
  };
  std::vector<int> everyone(static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) everyone[r] = r;
  const std::vector<int> senders = ranks_of(c.senders, "collective.senders");
  const std::vector<int> receivers = ranks_of(c.receivers, "collective.receivers");
  if (std::set<int>(senders.begin(), senders.end()).size() != static_cast<std::size_t>(p))
    unsupported(fmt::format("MSCCL's {} sums the inputs of every rank; this schedule has {} "
                            "senders of {}",
                            to_string(c.kind), senders.size(), p));
  Plan plan{Coll::allreduce, "allreduce", blocks, -1};
  switch (c.kind) {
    case CollectiveKind::ALLREDUCE:
      if (std::set<int>(receivers.begin(), receivers.end()).size() != static_cast<std::size_t>(p))
        unsupported("MSCCL allreduce leaves the sum at every rank");
      break;
    case CollectiveKind::REDUCESCATTER:
      if (receivers != everyone)
        unsupported("MSCCL reduce_scatter leaves block j at rank j (receivers in id order)");
      plan = {Coll::reduce_scatter, "reduce_scatter", blocks, -1};
      break;
    case CollectiveKind::REDUCE:
      plan = {Coll::reduce, "reduce", blocks, receivers.at(0)};
      break;
    default:
      unsupported(fmt::format("{} has no MSCCL collective (allreduce ALLREDUCE, reduce_scatter "
                              "REDUCESCATTER, reduce REDUCE)",
                              to_string(c.kind)));
  }

  std::vector<Gpu> gpus(static_cast<std::size_t>(p));
  for (Gpu& g : gpus) {
    g.i_chunks = blocks;
    g.o_chunks = plan.coll == Coll::reduce_scatter ? 1 : blocks;
  }
  // Where acc[v][b] lives once written (output when the collective leaves it there).
  std::map<std::pair<int, int>, Location> home;
  const auto place = [&](int v, int b) -> Location {
    if (const auto it = home.find({v, b}); it != home.end()) return it->second;
    Location at{'s', 0};
    if (plan.coll == Coll::allreduce || (plan.coll == Coll::reduce && v == plan.root))
      at = {'o', b};
    else if (plan.coll == Coll::reduce_scatter && b == v)
      at = {'o', 0};
    else
      at = {'s', gpus[v].s_chunks++};
    return home[{v, b}] = at;
  };
  // Accumulators a receive has written; the others still equal the rank's input (every
  // rank is a sender, so none starts empty).
  std::set<std::pair<int, int>> written;
  const auto key = [](int v, const Location& l) { return std::make_tuple(v, l.buffer, l.offset); };
  std::map<std::tuple<int, char, int>, int> last_write, settled_write;  // -> uid
  std::map<std::tuple<int, char, int>, std::vector<int>> readers;       // sends since then
  int channels = 1;

  const std::vector<const Transfer*> order = transfers_by_step(s);
  for (std::size_t i = 0; i < order.size();) {
    const Step step = order[i]->step;
    std::size_t end = i;
    while (end < order.size() && order[end]->step == step) ++end;
    settled_write = last_write;
    // Sends first: they read the accumulators as they stood at the start of the step.
    for (std::size_t t = i; t < end; ++t) {
      const Transfer& tr = *order[t];
      const int q = ranks.rank(tr.path.front(), "transfers");
      const int r = ranks.rank(tr.path.back(), "transfers");
      const int chan = channel_of(q, r, p);
      channels = std::max(channels, chan + 1);
      Gpu& g = gpus[q];
      const int tb = g.block(g.send_block, r, chan, true);
      for (const int b : tr.blocks) {
        if (b < 0 || b >= blocks)
          throw InvalidInput(fmt::format("block {} outside 0..{}", b, blocks - 1), "transfers");
        const bool own = tr.send == ReductionSend::input || !written.count({q, b});
        const Location src = own ? Location{'i', b} : place(q, b);
        Op op{.type = "s", .src = src, .dst = place(r, b), .step = step};
        if (const auto w = settled_write.find(key(q, src)); w != settled_write.end())
          op.after.push_back(w->second);
        readers[key(q, src)].push_back(g.push(tb, op));
      }
    }
    // Then the receives, in the same order per connection as the sends.
    for (std::size_t t = i; t < end; ++t) {
      const Transfer& tr = *order[t];
      const int q = ranks.rank(tr.path.front(), "transfers");
      const int r = ranks.rank(tr.path.back(), "transfers");
      Gpu& g = gpus[r];
      const int tb = g.block(g.recv_block, q, channel_of(q, r, p), false);
      for (const int b : tr.blocks) {
        const Location dst = place(r, b);
        const bool input = !written.count({r, b});
        Op op{.type = "rrc", .src = input ? Location{'i', b} : dst, .dst = dst, .step = step};
        if (tr.recv == ReductionRecv::copy) op.type = "r";
        const auto k = key(r, dst);
        if (const auto w = last_write.find(k); w != last_write.end()) op.after.push_back(w->second);
        for (const int u : readers[k]) op.after.push_back(u);
        readers[k].clear();
        last_write[k] = g.push(tb, op);
        written.insert({r, b});
      }
    }
    i = end;
  }
  // Accumulators the collective leaves in the output that no receive wrote: still the
  // rank's own input, copied there.
  for (const ReductionPrefix& t : reduction_prefixes(c)) {
    const int v = ranks.rank(t.node, "collective.receivers");
    if (written.count({v, t.block})) continue;
    ThreadBlock tb;
    tb.ops.push_back({.type = "cpy", .src = {'i', t.block}, .dst = place(v, t.block)});
    gpus[v].blocks.push_back(tb);
  }
  return write_xml(s, options, plan, channels, gpus, "one block of the vector");
}

}  // namespace

std::int64_t msccl_size_multiplier(const Schedule& s) {
  const auto kind = s.collective.kind;
  return kind == CollectiveKind::AAB || kind == CollectiveKind::AAS
             ? s.topology.processor_count()
             : 1;
}

std::string generate_msccl_xml(const Schedule& s, const MscclOptions& options) {
  check_options(options);
  if (is_reduction(s.collective)) return reduction_xml(s, options);
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
  // A blocked all-gather (FORMATS.md "Several blocks"): message m is block block_of[m] of
  // its origin's vector, in input chunk block_of[m] there and output chunk origin·B + block
  // everywhere; for every other collective B = 1 and block_of is 0.
  const int blocks = plan.coll == Coll::allgather ? plan.chunks_per_loop / p : 1;
  std::vector<int> block_of(msgs.size(), 0);
  {
    std::map<int, int> seen;  // origin -> messages so far
    if (blocks > 1)
      for (std::size_t m = 0; m < msgs.size(); ++m) block_of[m] = seen[origin[m]]++;
  }

  // Where a message sits at its origin and at a target (see msccl.hpp for the layouts).
  const auto at_origin = [&](int m) -> Location {
    switch (plan.coll) {
      case Coll::scatter:
      case Coll::alltoall:
        return {'i', targets[m][0]};
      default:
        return {'i', block_of[m]};
    }
  };
  const auto at_target = [&](int m) -> Location {
    switch (plan.coll) {
      case Coll::broadcast:
      case Coll::scatter:
        return {'o', 0};
      default:
        return {'o', origin[m] * blocks + block_of[m]};
    }
  };
  const int in_chunks = plan.coll == Coll::scatter || plan.coll == Coll::alltoall ? p : blocks;
  const int out_chunks =
      plan.coll == Coll::broadcast || plan.coll == Coll::scatter ? 1 : p * blocks;

  std::vector<Gpu> gpus(static_cast<std::size_t>(p));
  for (Gpu& g : gpus) {
    g.i_chunks = in_chunks;
    g.o_chunks = out_chunks;
  }
  for (std::size_t m = 0; m < msgs.size(); ++m)
    gpus[origin[m]].held[static_cast<int>(m)] = at_origin(static_cast<int>(m));

  // Transfers in step order; one send and one receive op per message they carry. Every
  // send in schedule step s waits for every receive of its rank in steps before s (the
  // last such receive of each receiving thread block).
  const std::vector<const Transfer*> order = transfers_by_step(s);
  int channels = 1;
  for (std::size_t i = 0; i < order.size();) {
    const Step step = order[i]->step;
    std::vector<std::pair<int, int>> arrivals;  // (rank, message) held from the next step on
    std::map<std::pair<int, int>, Location> arrival_at;
    std::vector<std::vector<int>> earlier(static_cast<std::size_t>(p));  // receives before
    for (int r = 0; r < p; ++r)
      for (const auto& [key, b] : gpus[r].recv_block)
        if (!gpus[r].blocks[b].ops.empty())
          earlier[r].push_back(gpus[r].blocks[b].ops.back().uid);
    for (; i < order.size() && order[i]->step == step; ++i) {
      const Transfer& tr = *order[i];
      const int q = ranks.rank(tr.path.front(), "transfers");
      const int r = ranks.rank(tr.path.back(), "transfers");
      const int chan = channel_of(q, r, p);
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
        sender.push(sender.block(sender.send_block, r, chan, true),
                    {.type = "s", .src = held->second, .dst = dst, .step = step,
                     .after = earlier[q]});
        Gpu& receiver = gpus[r];
        receiver.push(receiver.block(receiver.recv_block, q, chan, false),
                      {.type = "r", .src = held->second, .dst = dst, .step = step});
      }
    }
    for (const auto& [r, m] : arrivals) gpus[r].held.emplace(m, arrival_at.at({r, m}));
  }

  // Local copies of each rank's own chunk into its output (the algorithms are out of
  // place): the root's block for a rooted collective, every rank's for the others.
  for (int r = 0; r < p; ++r) {
    std::optional<Op> copy;
    switch (plan.coll) {
      case Coll::broadcast:
        if (r == plan.root) copy = Op{.type = "cpy", .src = {'i', 0}, .dst = {'o', 0}};
        break;
      case Coll::allgather:
        // B copies, at most kMaxStepsPerBlock to a thread block.
        for (int b = 0; b < blocks; ++b) {
          if (b % kMaxStepsPerBlock == 0) gpus[r].blocks.emplace_back();
          gpus[r].blocks.back().ops.push_back(
              {.type = "cpy", .src = {'i', b}, .dst = {'o', r * blocks + b}});
        }
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
      default:
        break;
    }
    if (copy) {
      ThreadBlock tb;
      tb.ops.push_back(*copy);
      gpus[r].blocks.push_back(tb);
    }
  }
  return write_xml(s, options, plan, channels, gpus, "one message");
}

}  // namespace ccsched
