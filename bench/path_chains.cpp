// Symmetric path chains (an exploratory encoding, not one of ccsched's engines; it found
// the 28-step Levi AAS schedule in tests/data/levi_aas_28.json, docs/BENCHMARKS.md).
// AAS under all-port wormhole with minimal routing: every message takes one of its
// shortest paths, and each hop of it a step no earlier than the previous hop's (equal
// steps: one wormhole transfer; a later step: a relay at that node, FORMATS.md rule 5).
// CaDiCaL decides, per channel and step, at most one hop. With an automorphism sigma of
// the network (engines/symmetric.hpp), one set of variables serves each orbit of messages
// under <sigma> and the schedule is invariant under it (a hop's images that would meet on
// a channel in one step are excluded), so "no schedule" only says "no symmetric one".
// Every schedule found is checked by verify_schedule before it is written.
//
//   cmake --build build/release --target path_chains
//   build/release/bench/path_chains levi 28 1500 2 levi28.json
//     (SPEC STEPS SECONDS [SYMMETRY: index into problem_symmetries, -1 none] [OUT])
#include <cadical.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "ccsched/engines/engine.hpp"
#include "ccsched/engines/symmetric.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/automorphisms.hpp"
#include "ccsched/topology/generators.hpp"

namespace {

using namespace ccsched;

struct Deadline : CaDiCaL::Terminator {
  std::chrono::steady_clock::time_point end;
  bool terminate() override { return std::chrono::steady_clock::now() > end; }
};

struct Hop {
  int message, path, k;
  ChannelId channel;
  std::vector<int> at;  // at[s - 1]: the hop goes in step s
};

class Encoder {
 public:
  explicit Encoder(CaDiCaL::Solver& solver) : solver_(solver) {}
  int fresh() { return ++vars_; }
  int vars() const { return vars_; }
  void clause(std::initializer_list<int> lits) {
    for (const int l : lits) solver_.add(l);
    solver_.add(0);
  }
  void clause(const std::vector<int>& lits) {
    for (const int l : lits) solver_.add(l);
    solver_.add(0);
  }
  // At most one of `lits` (sequential counter).
  void at_most_one(const std::vector<int>& lits) {
    if (lits.size() < 2) return;
    int prev = lits[0];
    for (std::size_t i = 1; i < lits.size(); ++i) {
      clause({-prev, -lits[i]});
      if (i + 1 == lits.size()) break;
      const int s = fresh();
      clause({-prev, s});
      clause({-lits[i], s});
      prev = s;
    }
  }

 private:
  CaDiCaL::Solver& solver_;
  int vars_ = 0;
};

int run(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: path_chains SPEC STEPS SECONDS [SYMMETRY] [OUT]\n");
    return 2;
  }
  Problem p{make_topology(argv[1]), {}, {}};
  CollectiveRequest request;
  request.kind = CollectiveKind::AAS;
  p.collective = make_collective(p.topology, request);
  p.model = default_model(p.topology);
  const int T = std::atoi(argv[2]);
  const int which = argc > 4 ? std::atoi(argv[4]) : -1;
  const PathSet paths(p.topology, p.model);
  const auto& t = p.topology;
  const auto& messages = p.collective.messages;

  std::vector<NodeId> sigma(t.node_count());
  for (NodeId v = 0; v < t.node_count(); ++v) sigma[v] = v;
  if (which >= 0) {
    const auto symmetries = problem_symmetries(p, Budget(10), 8);
    if (which >= static_cast<int>(symmetries.size())) {
      std::fprintf(stderr, "only %zu symmetries\n", symmetries.size());
      return 2;
    }
    sigma = symmetries[which];
  }
  const int R = static_cast<int>(permutation_order(sigma));
  std::vector<std::vector<NodeId>> power(R, std::vector<NodeId>(t.node_count()));
  for (NodeId v = 0; v < t.node_count(); ++v) power[0][v] = v;
  for (int j = 1; j < R; ++j)
    for (NodeId v = 0; v < t.node_count(); ++v) power[j][v] = sigma[power[j - 1][v]];
  auto image = [&](int j, ChannelId c) {
    return *t.find_channel(power[j][t.channel(c).from], power[j][t.channel(c).to]);
  };
  std::map<std::pair<NodeId, NodeId>, int> index;
  for (std::size_t m = 0; m < messages.size(); ++m)
    index[{messages[m].origin, messages[m].targets[0]}] = static_cast<int>(m);
  std::vector<char> covered(messages.size(), 0);
  std::vector<int> reps;  // one message per orbit
  for (std::size_t m = 0; m < messages.size(); ++m) {
    if (covered[m]) continue;
    reps.push_back(static_cast<int>(m));
    for (int j = 0; j < R; ++j)
      covered[index[{power[j][messages[m].origin], power[j][messages[m].targets[0]]}]] = 1;
  }

  CaDiCaL::Solver solver;
  Encoder e(solver);
  std::vector<std::vector<int>> on_channel(static_cast<std::size_t>(t.channel_count()) * (T + 1));
  std::vector<Hop> hops;
  std::vector<std::vector<int>> chosen(messages.size());
  for (const int m : reps) {
    const auto& routes = paths.paths(messages[m].origin, messages[m].targets[0]);
    for (std::size_t q = 0; q < routes.size(); ++q) chosen[m].push_back(routes.size() > 1 ? e.fresh() : 0);
    if (routes.size() > 1) {
      e.clause(chosen[m]);
      e.at_most_one(chosen[m]);
    }
    for (std::size_t q = 0; q < routes.size(); ++q) {
      std::vector<int> before;  // prefix ORs of the previous hop
      for (std::size_t k = 0; k < routes[q].channels.size(); ++k) {
        Hop h{m, static_cast<int>(q), static_cast<int>(k), routes[q].channels[k], {}};
        for (int s = 1; s <= T; ++s) {
          h.at.push_back(e.fresh());
          for (int j = 0; j < R; ++j)
            on_channel[static_cast<std::size_t>(image(j, h.channel)) * (T + 1) + s].push_back(h.at.back());
        }
        // The chosen route's hops go exactly once; another route's never.
        std::vector<int> once = h.at;
        if (chosen[m][q]) once.insert(once.begin(), -chosen[m][q]);
        e.clause(once);
        if (chosen[m][q])
          for (const int x : h.at) e.clause({-x, chosen[m][q]});
        e.at_most_one(h.at);
        std::vector<int> upto;  // upto[i]: the hop went in step i + 1 or before
        for (std::size_t i = 0; i < h.at.size(); ++i) {
          const int y = e.fresh();
          if (i == 0) {
            e.clause({-y, h.at[i]});
          } else {
            e.clause({-y, upto.back(), h.at[i]});
            e.clause({-upto.back(), y});
          }
          e.clause({-h.at[i], y});
          upto.push_back(y);
        }
        if (k > 0)  // not before the previous hop
          for (std::size_t i = 0; i < h.at.size(); ++i) e.clause({-h.at[i], before[i]});
        before = upto;
        hops.push_back(std::move(h));
      }
    }
  }
  for (auto& lits : on_channel) {
    std::sort(lits.begin(), lits.end());
    for (std::size_t i = 1; i < lits.size(); ++i)
      if (lits[i] == lits[i - 1]) e.clause({-lits[i]});  // two images on one channel
    lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
    e.at_most_one(lits);
  }
  std::printf("%s AAS, %d steps: symmetry of order %d, %zu message orbits, %d variables\n",
              argv[1], T, R, reps.size(), e.vars());
  std::fflush(stdout);
  Deadline deadline;
  deadline.end = std::chrono::steady_clock::now() + std::chrono::seconds(std::atoi(argv[3]));
  solver.connect_terminator(&deadline);
  const int result = solver.solve();
  if (result != 10) {
    std::printf(result == 20 ? "no such schedule\n" : "undecided\n");
    return 1;
  }
  std::vector<Transfer> transfers;
  for (int j = 0; j < R; ++j) {
    int last_message = -1, last_step = -1;
    for (const Hop& h : hops) {
      if (chosen[h.message][h.path] && solver.val(chosen[h.message][h.path]) <= 0) continue;
      for (std::size_t i = 0; i < h.at.size(); ++i) {
        if (solver.val(h.at[i]) <= 0) continue;
        const int step = static_cast<int>(i) + 1;
        const Channel& c = t.channel(image(j, h.channel));
        const auto& m = messages[h.message];
        const MessageId id = messages[index[{power[j][m.origin], power[j][m.targets[0]]}]].id;
        if (h.k > 0 && last_message == h.message && last_step == step)
          transfers.back().path.push_back(c.to);  // the same wormhole transfer
        else
          transfers.push_back({step, {c.from, c.to}, {id}});
        last_message = h.message;
        last_step = step;
        break;
      }
    }
  }
  const Schedule s = assemble_schedule(p, std::move(transfers), "symmetric path chains", 1);
  const auto problems = verify_schedule(s);
  std::printf("%d steps, %zu transfers, %s\n", s.steps, s.transfers.size(),
              problems.empty() ? "verified" : "REJECTED by the verifier");
  if (!problems.empty()) return 1;
  if (argc > 5) {
    std::ofstream out(argv[5]);
    write_schedule_json(s, out);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {  // a bad spec: one line, exit 2
    std::fprintf(stderr, "path_chains: %s\n", e.what());
    return 2;
  }
}
