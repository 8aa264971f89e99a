// MSCCL XML tests. The generated XML is parsed back, checked against the rules of the
// MSCCL executor's parser (required attributes, contiguous thread block and step ids,
// buffer bounds, one send and one receive peer per thread block, dependencies that point
// at existing steps marked hasdep), every send is matched with a receive on the other side
// (same channel, same order, same chunk), and then the algorithm is executed abstractly:
// chunks are labelled by where they started, thread blocks run their steps in order,
// sends run as early as their dependencies allow (so a missing dependency reads an empty
// slot), receives take from per-connection FIFO queues. The run must finish (no deadlock)
// with every rank's output holding exactly what the collective delivers.
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

#include "ccsched/core/error.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

Schedule solve(const std::string& spec, CollectiveKind kind) {
  Problem p{make_topology(spec), {}, {}};
  CollectiveRequest request;
  request.kind = kind;
  p.collective = make_collective(p.topology, request);
  p.model = default_model(p.topology);
  SolveRequest solve;
  solve.time_limit = 60;
  const SolveOutcome out = solve_problem(p, solve);
  EXPECT_TRUE(out.schedule.has_value()) << spec << ": " << out.reason;
  EXPECT_TRUE(verify_schedule(*out.schedule).empty()) << spec;
  return *out.schedule;
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

struct Checked {
  std::string coll;
  int ranks = 0;
  std::vector<std::map<std::pair<char, int>, Label>> buffers;  // per rank: (buf, off) -> label
};

// Structural checks and the abstract run. Returns the final buffers.
Checked check_and_run(const std::string& xml) {
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
        EXPECT_TRUE(step.type == "s" || step.type == "r" || step.type == "cpy" ||
                    step.type == "nop")
            << step.type;
        if (step.type == "s") {
          EXPECT_GE(block.send, 0);
        }
        if (step.type == "r") {
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
        if (st.type == "s" || st.type == "cpy") {
          EXPECT_LT(st.srcoff, bound(r, st.srcbuf));
        }
        if (st.type == "r" || st.type == "cpy") {
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
        if (st.type == "r") received[{b.recv, r, b.chan}].push_back({st.dstbuf, st.dstoff});
      }
  EXPECT_EQ(sent, received);

  // The abstract run.
  out.buffers.resize(static_cast<std::size_t>(out.ranks));
  for (int r = 0; r < out.ranks; ++r)
    for (int j = 0; j < chunks[r][0]; ++j) out.buffers[r][{'i', j}] = {r, j};
  std::vector<std::vector<std::size_t>> done(static_cast<std::size_t>(out.ranks));
  for (int r = 0; r < out.ranks; ++r) done[r].assign(gpus[r].size(), 0);
  std::map<std::tuple<int, int, int>, std::vector<Label>> wire;  // FIFO per connection
  const auto ready = [&](int r, const Step& st) {
    return st.depid < 0 || done[r][st.depid] > static_cast<std::size_t>(st.deps);
  };
  bool progress = true;
  while (progress) {
    progress = false;
    // Everything but receives, as early as possible.
    for (bool again = true; again;) {
      again = false;
      for (int r = 0; r < out.ranks; ++r)
        for (std::size_t b = 0; b < gpus[r].size(); ++b) {
          const Block& blk = gpus[r][b];
          while (done[r][b] < blk.steps.size()) {
            const Step& st = blk.steps[done[r][b]];
            if (st.type == "r" || !ready(r, st)) break;
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
    for (int r = 0; r < out.ranks && !progress; ++r)
      for (std::size_t b = 0; b < gpus[r].size() && !progress; ++b) {
        const Block& blk = gpus[r][b];
        if (done[r][b] >= blk.steps.size()) continue;
        const Step& st = blk.steps[done[r][b]];
        auto& queue = wire[{blk.recv, r, blk.chan}];
        if (st.type != "r" || !ready(r, st) || queue.empty()) continue;
        out.buffers[r][{st.dstbuf, st.dstoff}] = queue.front();
        queue.erase(queue.begin());
        ++done[r][b];
        progress = true;
      }
  }
  for (int r = 0; r < out.ranks; ++r)
    for (std::size_t b = 0; b < gpus[r].size(); ++b)
      EXPECT_EQ(done[r][b], gpus[r][b].steps.size()) << "deadlock: rank " << r << " tb " << b;
  return out;
}

std::optional<Label> output(const Checked& c, int rank, int offset) {
  const auto it = c.buffers[rank].find({'o', offset});
  if (it == c.buffers[rank].end()) return std::nullopt;
  return it->second;
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

}  // namespace
}  // namespace ccsched
