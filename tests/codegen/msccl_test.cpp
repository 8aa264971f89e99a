// MSCCL XML tests. The generated XML is parsed back, checked against the rules of the
// MSCCL executor's parser (required attributes, contiguous thread block and step ids,
// buffer bounds, one send and one receive peer per thread block, dependencies that point
// at existing steps marked hasdep), every send is matched with a receive on the other side
// (same channel, same order, same chunk), and then the algorithm is executed abstractly:
// chunks are labelled by where they started, thread blocks run their steps in order,
// sends run as early as their dependencies allow (so a missing dependency reads an empty
// slot), receives take from per-connection FIFO queues. The run must finish (no deadlock)
// with every rank's output holding exactly what the collective delivers. Values are
// multisets of labels, so that the receive-reduce-copy steps (`rrc`) of reduction
// algorithms can be run too: a sum is the multiset of the inputs it adds, and an input
// counted twice shows.
#include "ccsched/codegen/msccl.hpp"

#include <gtest/gtest.h>

#include <array>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "../support/reduction_schedules_more.hpp"
#include "../support/solve_check.hpp"
#include "ccsched/core/error.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

Schedule solve(const std::string& spec, CollectiveKind kind) {
  return testing_support::solve_verified(spec, kind);
}

struct Element {
  std::string name;
  std::map<std::string, std::string> attrs;
  std::vector<Element> children;
  int attr(const std::string& key) const {
    const auto it = attrs.find(key);
    if (it == attrs.end()) throw std::runtime_error("missing attribute " + key + " on " + name);
    return std::stoi(it->second);
  }
};

// A strict little reader for the executor's dialect: attributes key="value" separated by
// one space, "/>" right after the last value, comments allowed, nothing else.
Element parse(const std::string& xml) {
  const std::regex tag(R"re(<(/?)([A-Za-z_]+)((?: [A-Za-z_]+="[^"]*")*)(/?)>)re");
  const std::regex attr(R"re( ([A-Za-z_]+)="([^"]*)")re");
  std::vector<Element> stack{{"#root", {}, {}}};
  std::size_t at = 0;
  while (true) {
    at = xml.find('<', at);
    if (at == std::string::npos) break;
    if (xml.compare(at, 4, "<!--") == 0) {
      at = xml.find("-->", at);
      EXPECT_NE(at, std::string::npos) << "unterminated comment";
      continue;
    }
    std::smatch m;
    const std::string rest = xml.substr(at, xml.find('>', at) - at + 1);
    if (!std::regex_match(rest, m, tag)) throw std::runtime_error("malformed tag: " + rest);
    at += rest.size();
    if (m[1] == "/") {
      if (stack.size() < 2 || stack.back().name != m[2])
        throw std::runtime_error("bad close " + rest);
      Element done = stack.back();
      stack.pop_back();
      stack.back().children.push_back(done);
      continue;
    }
    Element e{m[2], {}, {}};
    const std::string attrs = m[3];
    for (auto it = std::sregex_iterator(attrs.begin(), attrs.end(), attr);
         it != std::sregex_iterator(); ++it)
      e.attrs[(*it)[1]] = (*it)[2];
    if (m[4] == "/")
      stack.back().children.push_back(e);
    else
      stack.push_back(e);
  }
  if (stack.size() != 1 || stack[0].children.size() != 1) throw std::runtime_error("unbalanced");
  return stack[0].children[0];
}

using Label = std::pair<int, int>;  // (rank, input chunk) the data started as
using Value = std::multiset<Label>;  // the inputs a chunk sums (one for a plain copy)

struct Checked {
  std::string coll;
  int ranks = 0;
  std::vector<std::map<std::pair<char, int>, Value>> buffers;  // per rank: (buf, off) -> value
};

// Structural checks and the abstract run. Returns the final buffers. `receives_first`
// runs receives as early as their dependencies allow instead of sends.
Checked check_and_run(const std::string& xml, bool receives_first = false) {
  EXPECT_EQ(xml.find("<?xml"), std::string::npos) << "the executor's parser rejects a declaration";
  const Element algo = parse(xml);
  EXPECT_EQ(algo.name, "algo");
  for (const char* key : {"name", "proto", "nchannels", "nchunksperloop", "ngpus", "coll",
                          "inplace", "outofplace", "minBytes", "maxBytes"})
    EXPECT_TRUE(algo.attrs.count(key)) << key;
  Checked out;
  out.coll = algo.attrs.at("coll");
  out.ranks = algo.attr("ngpus");
  const int channels = algo.attr("nchannels");
  EXPECT_EQ(static_cast<int>(algo.children.size()), out.ranks);

  struct Step {
    std::string type;
    char srcbuf, dstbuf;
    int srcoff, dstoff, depid, deps;
    bool hasdep;
  };
  struct Block {
    int send, recv, chan;
    std::vector<Step> steps;
  };
  std::vector<std::vector<Block>> gpus(static_cast<std::size_t>(out.ranks));
  std::vector<std::array<int, 3>> chunks(static_cast<std::size_t>(out.ranks));
  for (const Element& gpu : algo.children) {
    EXPECT_EQ(gpu.name, "gpu");
    const int id = gpu.attr("id");
    EXPECT_TRUE(id >= 0 && id < out.ranks);
    chunks[id] = {gpu.attr("i_chunks"), gpu.attr("o_chunks"), gpu.attr("s_chunks")};
    std::set<std::pair<int, int>> send_peers, recv_peers;
    for (std::size_t b = 0; b < gpu.children.size(); ++b) {
      const Element& tb = gpu.children[b];
      EXPECT_EQ(tb.attr("id"), static_cast<int>(b)) << "thread block ids are contiguous";
      Block block{tb.attr("send"), tb.attr("recv"), tb.attr("chan"), {}};
      EXPECT_NE(block.send, id);
      EXPECT_NE(block.recv, id);
      EXPECT_TRUE(block.chan >= 0 && block.chan < channels);
      if (block.send >= 0) {
        EXPECT_TRUE(send_peers.insert({block.send, block.chan}).second);
      }
      if (block.recv >= 0) {
        EXPECT_TRUE(recv_peers.insert({block.recv, block.chan}).second);
      }
      EXPECT_LT(tb.children.size(), 256u);
      for (std::size_t k = 0; k < tb.children.size(); ++k) {
        const Element& st = tb.children[k];
        EXPECT_EQ(st.attr("s"), static_cast<int>(k));
        for (const char* key :
             {"type", "srcbuf", "srcoff", "dstbuf", "dstoff", "cnt", "depid", "deps", "hasdep"})
          EXPECT_TRUE(st.attrs.count(key)) << key;
        Step step{st.attrs.at("type"), st.attrs.at("srcbuf")[0], st.attrs.at("dstbuf")[0],
                  st.attr("srcoff"),   st.attr("dstoff"),        st.attr("depid"),
                  st.attr("deps"),     st.attr("hasdep") == 1};
        EXPECT_TRUE(step.type == "s" || step.type == "r" || step.type == "rrc" ||
                    step.type == "cpy" || step.type == "nop")
            << step.type;
        if (step.type == "s") {
          EXPECT_GE(block.send, 0);
        }
        if (step.type == "r" || step.type == "rrc") {
          EXPECT_GE(block.recv, 0);
        }
        if (step.type != "nop") {
          EXPECT_EQ(st.attr("cnt"), 1);
        }
        block.steps.push_back(step);
      }
      gpus[id].push_back(block);
    }
  }
  // Buffer bounds and dependencies.
  const auto bound = [&](int r, char buf) {
    return buf == 'i' ? chunks[r][0] : buf == 'o' ? chunks[r][1] : chunks[r][2];
  };
  for (int r = 0; r < out.ranks; ++r) {
    std::set<std::pair<int, int>> depended;
    for (const Block& b : gpus[r])
      for (const Step& st : b.steps) {
        if (st.type == "s" || st.type == "cpy" || st.type == "rrc") {
          EXPECT_LT(st.srcoff, bound(r, st.srcbuf));
        }
        if (st.type == "r" || st.type == "cpy" || st.type == "rrc") {
          EXPECT_LT(st.dstoff, bound(r, st.dstbuf));
        }
        if (st.depid >= 0) {
          EXPECT_LT(st.depid, static_cast<int>(gpus[r].size()));
          EXPECT_LT(st.deps, static_cast<int>(gpus[r][st.depid].steps.size()));
          EXPECT_TRUE(gpus[r][st.depid].steps[st.deps].hasdep) << "rank " << r;
          depended.insert({st.depid, st.deps});
        }
      }
    for (std::size_t b = 0; b < gpus[r].size(); ++b)
      for (std::size_t k = 0; k < gpus[r][b].steps.size(); ++k)
        if (gpus[r][b].steps[k].hasdep) {
          EXPECT_TRUE(depended.count({static_cast<int>(b), static_cast<int>(k)}))
              << "unused hasdep";
        }
  }
  // Every send has its receive: per (sender, receiver, channel) the same number of chunks
  // with the same destinations, in the same order.
  std::map<std::tuple<int, int, int>, std::vector<std::pair<char, int>>> sent, received;
  for (int r = 0; r < out.ranks; ++r)
    for (const Block& b : gpus[r])
      for (const Step& st : b.steps) {
        if (st.type == "s") sent[{r, b.send, b.chan}].push_back({st.dstbuf, st.dstoff});
        if (st.type == "r" || st.type == "rrc")
          received[{b.recv, r, b.chan}].push_back({st.dstbuf, st.dstoff});
      }
  EXPECT_EQ(sent, received);

  // The abstract run.
  out.buffers.resize(static_cast<std::size_t>(out.ranks));
  for (int r = 0; r < out.ranks; ++r)
    for (int j = 0; j < chunks[r][0]; ++j) out.buffers[r][{'i', j}] = {{r, j}};
  std::vector<std::vector<std::size_t>> done(static_cast<std::size_t>(out.ranks));
  for (int r = 0; r < out.ranks; ++r) done[r].assign(gpus[r].size(), 0);
  std::map<std::tuple<int, int, int>, std::vector<Value>> wire;  // FIFO per connection
  const auto ready = [&](int r, const Step& st) {
    return st.depid < 0 || done[r][st.depid] > static_cast<std::size_t>(st.deps);
  };
  // One receive whose data is on the wire and whose dependency is met.
  bool broken = false;
  const auto one_receive = [&]() -> bool {
    for (int r = 0; r < out.ranks; ++r)
      for (std::size_t b = 0; b < gpus[r].size(); ++b) {
        const Block& blk = gpus[r][b];
        if (done[r][b] >= blk.steps.size()) continue;
        const Step& st = blk.steps[done[r][b]];
        auto& queue = wire[{blk.recv, r, blk.chan}];
        if ((st.type != "r" && st.type != "rrc") || !ready(r, st) || queue.empty()) continue;
        Value value = queue.front();
        if (st.type == "rrc") {  // receive, add the local src chunk, write dst
          const auto it = out.buffers[r].find({st.srcbuf, st.srcoff});
          if (it == out.buffers[r].end()) {
            ADD_FAILURE() << "rank " << r << " tb " << b << " reduces into an empty slot";
            broken = true;
            return false;
          }
          value.insert(it->second.begin(), it->second.end());
        }
        out.buffers[r][{st.dstbuf, st.dstoff}] = value;
        queue.erase(queue.begin());
        ++done[r][b];
        return true;
      }
    return false;
  };
  // Receives first: a receive runs whenever one can, anything else one at a time only when
  // none can, so that a write racing a send of the same data shows.
  const auto busy = [&](bool progress) { return receives_first && progress; };
  bool progress = true;
  while (progress) {
    progress = false;
    if (receives_first && one_receive()) {
      progress = true;
      continue;
    }
    if (broken) return out;
    // Everything but receives, as early as possible.
    for (bool again = true; again && !busy(progress);) {
      again = false;
      for (int r = 0; r < out.ranks; ++r)
        for (std::size_t b = 0; b < gpus[r].size(); ++b) {
          const Block& blk = gpus[r][b];
          while (done[r][b] < blk.steps.size() && !busy(progress)) {
            const Step& st = blk.steps[done[r][b]];
            if (st.type == "r" || st.type == "rrc" || !ready(r, st)) break;
            if (st.type == "s" || st.type == "cpy") {
              const auto it = out.buffers[r].find({st.srcbuf, st.srcoff});
              if (it == out.buffers[r].end()) {
                ADD_FAILURE() << "rank " << r << " tb " << b << " step " << done[r][b]
                              << " reads an empty slot: a missing dependency";
                return out;
              }
              if (st.type == "s")
                wire[{r, blk.send, blk.chan}].push_back(it->second);
              else
                out.buffers[r][{st.dstbuf, st.dstoff}] = it->second;
            }
            ++done[r][b];
            again = progress = true;
          }
        }
    }
    // Then one receive.
    if (!receives_first && one_receive()) progress = true;
    if (broken) return out;
  }
  for (int r = 0; r < out.ranks; ++r)
    for (std::size_t b = 0; b < gpus[r].size(); ++b)
      EXPECT_EQ(done[r][b], gpus[r][b].steps.size()) << "deadlock: rank " << r << " tb " << b;
  return out;
}

// A plain copy's label; nullopt for an empty slot or a sum.
std::optional<Label> output(const Checked& c, int rank, int offset) {
  const auto it = c.buffers[rank].find({'o', offset});
  if (it == c.buffers[rank].end() || it->second.size() != 1) return std::nullopt;
  return *it->second.begin();
}

// What an output chunk sums (empty when nothing arrived).
Value sum(const Checked& c, int rank, int offset) {
  const auto it = c.buffers[rank].find({'o', offset});
  return it == c.buffers[rank].end() ? Value{} : it->second;
}

// Every rank's input chunk b, once each.
Value everyone(int ranks, int b) {
  Value v;
  for (int r = 0; r < ranks; ++r) v.insert({r, b});
  return v;
}

TEST(Msccl, BroadcastOnPetersen) {
  const Schedule s = solve("petersen", CollectiveKind::OAB);
  const Checked c = check_and_run(generate_msccl_xml(s));
  EXPECT_EQ(c.coll, "broadcast");
  ASSERT_EQ(c.ranks, 10);
  const int root = s.collective.senders.front();
  for (int r = 0; r < c.ranks; ++r) EXPECT_EQ(output(c, r, 0), Label(root, 0)) << r;
}

TEST(Msccl, AllgatherOnKautz) {
  const Checked c = check_and_run(generate_msccl_xml(solve("kautz:3,2", CollectiveKind::AAB)));
  EXPECT_EQ(c.coll, "allgather");
  ASSERT_EQ(c.ranks, 12);
  for (int r = 0; r < c.ranks; ++r)
    for (int j = 0; j < c.ranks; ++j) EXPECT_EQ(output(c, r, j), Label(j, 0)) << r << " " << j;
}

// `solve SPEC --cc AAB --blocks B` as a problem.
Problem blocked_allgather(const std::string& spec, int blocks) {
  Problem p = testing_support::make_problem(spec, CollectiveKind::AAB);
  CollectiveRequest request;
  request.kind = CollectiveKind::AAB;
  request.blocks = blocks;
  p.collective = make_collective(p.topology, request);
  return p;
}

// Several blocks (FORMATS.md "Several blocks"): B messages per rank, message id
// origin·B + b; the XML has P·B chunks per loop, B input and P·B output chunks per GPU,
// and every rank ends with block b of rank j in output chunk j·B + b.
TEST(Msccl, BlockedAllgather) {
  for (const auto& [spec, blocks] : {std::pair<const char*, int>{"hypercube:3", 2},
                                     std::pair<const char*, int>{"ring:4", 3}}) {
    const Problem p = blocked_allgather(spec, blocks);
    const SolveOutcome outcome = testing_support::solve_checked(p, {}, spec);
    ASSERT_TRUE(outcome.schedule.has_value()) << spec;
    const int ranks = p.topology.processor_count();
    ASSERT_EQ(static_cast<int>(outcome.schedule->collective.messages.size()), ranks * blocks);
    const std::string xml = generate_msccl_xml(*outcome.schedule);
    const Element algo = parse(xml);
    EXPECT_EQ(algo.attr("nchunksperloop"), ranks * blocks) << spec;
    for (const Element& gpu : algo.children) {
      EXPECT_EQ(gpu.attr("i_chunks"), blocks) << spec;
      EXPECT_EQ(gpu.attr("o_chunks"), ranks * blocks) << spec;
    }
    for (const bool receives_first : {false, true}) {
      const Checked c = check_and_run(xml, receives_first);
      EXPECT_EQ(c.coll, "allgather");
      ASSERT_EQ(c.ranks, ranks);
      for (int r = 0; r < ranks; ++r)
        for (int j = 0; j < ranks; ++j)
          for (int b = 0; b < blocks; ++b)
            EXPECT_EQ(output(c, r, j * blocks + b), Label(j, b))
                << spec << ": rank " << r << ", block " << b << " of " << j;
    }
  }
}

// A blocked all-gather that lost one block's message is no MSCCL allgather.
TEST(Msccl, BlockedAllgatherNeedsEveryBlock) {
  const Problem p = blocked_allgather("ring:4", 2);
  const SolveOutcome outcome = testing_support::solve_checked(p, {}, "ring:4 B=2");
  ASSERT_TRUE(outcome.schedule.has_value());
  Schedule s = *outcome.schedule;
  const MessageId last = s.collective.messages.back().id;
  s.collective.messages.pop_back();
  for (Transfer& t : s.transfers)
    std::erase(t.messages, last);
  EXPECT_THROW(generate_msccl_xml(s), Unsupported);
}

TEST(Msccl, ScatterOnRing) {
  const Schedule s = solve("ring:8", CollectiveKind::OAS);
  const Checked c = check_and_run(generate_msccl_xml(s));
  EXPECT_EQ(c.coll, "scatter");
  const int root = s.collective.senders.front();
  for (int r = 0; r < c.ranks; ++r) EXPECT_EQ(output(c, r, 0), Label(root, r)) << r;
}

TEST(Msccl, GatherOnHypercube) {
  const Schedule s = solve("hypercube:3", CollectiveKind::AOG);
  const Checked c = check_and_run(generate_msccl_xml(s));
  EXPECT_EQ(c.coll, "gather");
  const int root = s.collective.receivers.front();
  for (int j = 0; j < c.ranks; ++j) EXPECT_EQ(output(c, root, j), Label(j, 0)) << j;
}

TEST(Msccl, AlltoallOnKautzAndOmega) {
  for (const char* spec : {"kautz:3,2", "omega:8"}) {
    const Checked c = check_and_run(generate_msccl_xml(solve(spec, CollectiveKind::AAS)));
    EXPECT_EQ(c.coll, "alltoall");
    for (int r = 0; r < c.ranks; ++r)
      for (int q = 0; q < c.ranks; ++q) EXPECT_EQ(output(c, r, q), Label(q, r)) << spec;
  }
}

TEST(Msccl, RelaysUseScratchUnderStoreAndForward) {
  // Single-hop transfers: scatter messages travel through processors that are not their
  // targets, which keep them in scratch.
  Problem p{make_topology("ring:6"), {}, {}};
  CollectiveRequest request;
  request.kind = CollectiveKind::OAS;
  p.collective = make_collective(p.topology, request);
  p.model = default_model(p.topology);
  p.model.switching = Switching::store_and_forward;
  SolveRequest solve;
  solve.time_limit = 60;
  const SolveOutcome outcome = solve_problem(p, solve);
  ASSERT_TRUE(outcome.schedule.has_value()) << outcome.reason;
  const std::string xml = generate_msccl_xml(*outcome.schedule);
  EXPECT_NE(xml.find("srcbuf=\"s\""), std::string::npos);
  const Checked c = check_and_run(xml);
  const int root = p.collective.senders.front();
  for (int r = 0; r < c.ranks; ++r) EXPECT_EQ(output(c, r, 0), Label(root, r)) << r;
}

TEST(Msccl, RefusesWhatItCannotExpress) {
  Schedule s = solve("ring:6", CollectiveKind::OAS);
  MscclOptions options;
  options.protocol = "TCP";
  EXPECT_THROW(generate_msccl_xml(s, options), InvalidParameter);
  s.collective.kind = CollectiveKind::PERM;
  EXPECT_THROW(generate_msccl_xml(s), Unsupported);
  // A broadcast that reaches only part of the ranks is no MSCCL broadcast.
  Schedule b = solve("ring:6", CollectiveKind::OAB);
  b.collective.messages[0].targets.pop_back();
  EXPECT_THROW(generate_msccl_xml(b), Unsupported);
}

// Reductions: the hand-made schedules (tests/support/reduction_schedules.hpp) run
// abstractly must leave every required chunk summing every rank's input exactly once.
Schedule hand_made(const std::string& json) {
  Schedule s = read_schedule_json(json, "test");
  EXPECT_TRUE(verify_schedule(s).empty());
  return s;
}

TEST(MscclReduction, RingAllReduceInFourBlocks) {
  const std::string xml = generate_msccl_xml(hand_made(testing::ring4_allreduce_ring()));
  EXPECT_NE(xml.find("type=\"rrc\""), std::string::npos);
  for (const bool receives_first : {false, true}) {
    const Checked c = check_and_run(xml, receives_first);
    EXPECT_EQ(c.coll, "allreduce");
    for (int r = 0; r < 4; ++r)
      for (int b = 0; b < 4; ++b) EXPECT_EQ(sum(c, r, b), everyone(4, b)) << r << " " << b;
  }
}

// Both partners send and reduce the same chunk in each step: were the reduce not made to
// wait for the send of the same step, the send could carry the new sum and count inputs
// twice; the abstract run sends as early as it may and receives one at a time, and the
// multisets would show it.
TEST(MscclReduction, RecursiveDoublingSendsTheSumAsItStood) {
  const std::string xml = generate_msccl_xml(hand_made(testing::ring4_allreduce_doubling()));
  for (const bool receives_first : {false, true}) {
    const Checked c = check_and_run(xml, receives_first);
    for (int r = 0; r < 4; ++r) EXPECT_EQ(sum(c, r, 0), everyone(4, 0)) << r << receives_first;
  }
}

// Ring reduce-scatter: block j ends in rank j's single output chunk; the partial sums
// travel through scratch.
TEST(MscclReduction, RingReduceScatter) {
  const std::string xml = generate_msccl_xml(hand_made(testing::ring4_reduce_scatter()));
  EXPECT_NE(xml.find("srcbuf=\"s\""), std::string::npos);
  for (const bool receives_first : {false, true}) {
    const Checked c = check_and_run(xml, receives_first);
    EXPECT_EQ(c.coll, "reduce_scatter");
    for (int r = 0; r < 4; ++r) EXPECT_EQ(sum(c, r, 0), everyone(4, r)) << r;
  }
}

// Binomial reduce into 0: 1 -> 0 and 3 -> 2, then 2's partial sum over 2 -> 1 -> 0.
TEST(MscclReduction, BinomialReduce) {
  const Checked c = check_and_run(generate_msccl_xml(hand_made(testing::ring4_binomial_reduce())));
  EXPECT_EQ(c.coll, "reduce");
  EXPECT_EQ(sum(c, 0, 0), everyone(4, 0));
}

// A schedule broken after verification (the all-gather phase adds where it should copy)
// gives XML whose run counts inputs more than once: the check can fail.
TEST(MscclReduction, ABrokenScheduleShowsInTheSums) {
  Schedule s = read_schedule_json(testing::ring4_allreduce_ring(), "test");
  for (Transfer& t : s.transfers)
    if (t.step == 4) t.recv = ReductionRecv::reduce;
  const Checked c = check_and_run(generate_msccl_xml(s));
  int wrong = 0;
  for (int r = 0; r < 4; ++r)
    for (int b = 0; b < 4; ++b) wrong += sum(c, r, b) != everyone(4, b);
  EXPECT_GT(wrong, 0);
}

TEST(MscclReduction, RefusesWhatMscclCannotExpress) {
  // MSCCL's reduce sums every rank's input; this root has none.
  EXPECT_THROW(generate_msccl_xml(hand_made(testing::ring4_reduce_into_empty_root())),
               Unsupported);
  Schedule scan = read_schedule_json(testing::ring4_allreduce_doubling(), "test");
  scan.collective.kind = CollectiveKind::SCAN;
  EXPECT_THROW(generate_msccl_xml(scan), Unsupported);
}

}  // namespace
}  // namespace ccsched
