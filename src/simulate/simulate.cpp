// SimGrid replay (simulate.hpp). The parent checks the input and computes the linear
// model's figures; a forked child builds the platform, runs the steps and writes the
// simulated step times into a pipe. SimGrid headers stay in this file.
#include "ccsched/simulate/simulate.hpp"

#include <fmt/core.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xbt/log.h>

#include <cerrno>
#include <cmath>
#include <map>
#include <set>
#include <simgrid/s4u.hpp>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/linear.hpp"

namespace ccsched {
namespace {

namespace sg4 = simgrid::s4u;

// A transfer as the simulation needs it: end processors, the channels it holds in order,
// and its size.
struct Flow {
  NodeId from = kNoNode, to = kNoNode;
  std::vector<ChannelId> channels;
  double bytes = 0.0;
};

// Runs in the child: every step's flows on one platform, then the step's adds; returns
// the step durations followed by the durations of their adds.
std::vector<double> run_simgrid(const Topology& t, const std::vector<std::vector<Flow>>& steps,
                                const std::vector<std::vector<ProcessorAdds>>& adds,
                                const SimulationParameters& p) {
  int argc = 1;
  char program[] = "ccsched";
  char* argv[] = {program, nullptr};
  sg4::Engine engine(&argc, argv);
  xbt_log_control_set("root.thresh:critical");
  // CM02: the plain max-min model, no TCP correction factors, so that an uncontended
  // transfer takes exactly latency + size / bandwidth; no reverse-direction cross
  // traffic, so the two directions of a full-duplex link are independent.
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  sg4::Engine::set_config("network/TCP-gamma:0");
  // One thread per simulated actor instead of swapped stacks: the replay has a single
  // actor, and AddressSanitizer follows threads but not raw stack switches.
  sg4::Engine::set_config("contexts/factory:thread");

  auto* root = sg4::create_full_zone("ccsched");
  // One link per channel pair; remember each channel's (link, direction).
  std::vector<sg4::LinkInRoute> hop(static_cast<std::size_t>(t.channel_count()),
                                    sg4::LinkInRoute(nullptr));
  for (ChannelId c = 0; c < t.channel_count(); ++c) {
    const Channel ch = t.channel(c);
    if (hop[c].get_link() != nullptr) continue;
    const auto reverse = t.find_channel(ch.to, ch.from);
    if (reverse) {
      auto* link =
          root->create_split_duplex_link(fmt::format("c{}-{}", ch.from, ch.to), p.bandwidth)
              ->set_latency(p.hop_latency)
              ->seal();
      hop[c] = sg4::LinkInRoute(link, sg4::LinkInRoute::Direction::UP);
      hop[*reverse] = sg4::LinkInRoute(link, sg4::LinkInRoute::Direction::DOWN);
    } else {
      auto* link = root->create_link(fmt::format("c{}-{}", ch.from, ch.to), p.bandwidth)
                       ->set_latency(p.hop_latency)
                       ->seal();
      hop[c] = sg4::LinkInRoute(link);
    }
  }
  sg4::Host* driver_host = root->create_host("driver", 1e9)->seal();

  struct Started {
    sg4::Host* from;
    sg4::Host* to;
    double bytes;
  };
  // A host adds 1/tc bytes per second, so an execution of b "flops" takes b * tc.
  const double add_speed = p.add_time > 0 ? 1.0 / p.add_time : 1e9;
  std::vector<std::vector<Started>> plan(steps.size());
  std::vector<std::vector<std::pair<sg4::Host*, double>>> work(steps.size());
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const bool work_here = p.add_time > 0 && s < adds.size() && !adds[s].empty();
    if (steps[s].empty() && !work_here) continue;
    auto* zone = sg4::create_full_zone(fmt::format("step{}", s + 1));
    zone->set_parent(root);
    std::map<std::pair<NodeId, int>, sg4::Host*> hosts;  // (processor, copy) -> host
    std::map<std::pair<NodeId, NodeId>, int> pair_count;
    const auto host = [&](NodeId n, int copy) {
      auto& h = hosts[{n, copy}];
      if (!h)
        h = zone->create_host(fmt::format("p{}.s{}.{}", n, s + 1, copy), add_speed)->seal();
      return h;
    };
    for (std::size_t f = 0; f < steps[s].size(); ++f) {
      const Flow& flow = steps[s][f];
      const int copy = pair_count[{flow.from, flow.to}]++;
      sg4::Host* a = host(flow.from, copy);
      sg4::Host* b = host(flow.to, copy);
      // The start-up latency on a link of the transfer's own: it delays, never shares.
      auto* start_up = zone->create_link(fmt::format("t0.s{}.{}", s + 1, f), p.bandwidth)
                           ->set_latency(p.latency)
                           ->seal();
      std::vector<sg4::LinkInRoute> route{sg4::LinkInRoute(start_up)};
      for (const ChannelId c : flow.channels) route.push_back(hop[c]);
      zone->add_route(a->get_netpoint(), b->get_netpoint(), nullptr, nullptr, route, false);
      plan[s].push_back({a, b, flow.bytes});
    }
    if (p.add_time > 0 && s < adds.size())
      for (const ProcessorAdds& a : adds[s])
        work[s].emplace_back(host(a.node, 0), static_cast<double>(a.bytes));
    zone->seal();
  }
  root->seal();

  std::vector<double> seconds(2 * steps.size(), 0.0);
  sg4::Actor::create("steps", driver_host, [&] {
    for (std::size_t s = 0; s < plan.size(); ++s) {
      if (plan[s].empty() && work[s].empty()) continue;
      const double start = sg4::Engine::get_clock();
      std::vector<sg4::CommPtr> comms;
      for (const Started& st : plan[s])
        comms.push_back(sg4::Comm::sendto_async(st.from, st.to, static_cast<uint64_t>(st.bytes)));
      sg4::Comm::wait_all(comms);
      // Receives take effect at the end of the step (FORMATS.md "Reductions"): the adds
      // start when the last transfer has arrived, on all adding processors at once.
      const double transferred = sg4::Engine::get_clock();
      std::vector<sg4::ExecPtr> execs;
      for (const auto& [host, bytes] : work[s])
        execs.push_back(sg4::Exec::init()->set_flops_amount(bytes)->set_host(host)->start());
      for (const sg4::ExecPtr& e : execs) e->wait();
      seconds[s] = sg4::Engine::get_clock() - start;
      seconds[steps.size() + s] = sg4::Engine::get_clock() - transferred;
    }
  });
  engine.run();
  return seconds;
}

bool write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

Simulation simulate_schedule(const Schedule& s, const SimulationParameters& p) {
  if (!(p.bandwidth > 0) || !std::isfinite(p.bandwidth))
    throw InvalidParameter("bandwidth must be positive", "--bandwidth");
  if (!(p.latency >= 0) || !(p.hop_latency >= 0))
    throw InvalidParameter("latencies must not be negative", "--latency");
  if (p.message_bytes < 0) throw InvalidParameter("bytes must not be negative", "--bytes");
  if (!(p.add_time >= 0) || !std::isfinite(p.add_time))
    throw InvalidParameter("must not be negative", "--tc");
  const Topology& t = s.topology;

  // Flows per step, checked here so that the child has nothing left to refuse.
  const std::vector<std::int64_t> bytes = transfer_bytes(s, p.message_bytes);
  const std::vector<std::vector<ProcessorAdds>> adds = reduction_adds(s, p.message_bytes);
  const auto step_count = static_cast<std::size_t>(std::max(s.steps, 0));
  const auto flow_of = [&](std::size_t i) {
    const Transfer& tr = s.transfers[i];
    const std::string where = fmt::format("transfers[{}]", i);
    if (tr.step < 1 || tr.step > s.steps)
      throw InvalidInput(fmt::format("step {} outside 1..{}", tr.step, s.steps), where);
    if (tr.path.size() < 2) throw InvalidInput("path with fewer than two nodes", where);
    Flow flow{.from = tr.path.front(), .to = tr.path.back(), .channels = {}, .bytes = 0.0};
    for (std::size_t h = 0; h + 1 < tr.path.size(); ++h) {
      const NodeId a = tr.path[h], b = tr.path[h + 1];
      const auto c = a >= 0 && b >= 0 && a < t.node_count() && b < t.node_count()
                         ? t.find_channel(a, b)
                         : std::nullopt;
      if (!c) throw InvalidInput(fmt::format("{} -> {} is not a channel", a, b), where);
      flow.channels.push_back(*c);
    }
    flow.bytes = static_cast<double>(bytes[i]);
    return flow;
  };
  // What the child replays: `runs`, each a list of flows and adds; a step's time is the
  // longest of its runs (one run: the step itself, in a full replay).
  std::vector<std::vector<Flow>> runs;
  std::vector<std::vector<ProcessorAdds>> run_adds;
  std::vector<std::vector<std::size_t>> step_runs(step_count);
  std::vector<int> step_transfers(step_count, 0);
  const bool by_class = p.full_replay_limit > 0 &&
                        static_cast<std::int64_t>(s.transfers.size()) > p.full_replay_limit;
  if (!by_class) {
    runs.resize(step_count);
    for (std::size_t i = 0; i < s.transfers.size(); ++i) {
      Flow flow = flow_of(i);
      runs[static_cast<std::size_t>(s.transfers[i].step - 1)].push_back(std::move(flow));
    }
    run_adds = adds;
    for (std::size_t i = 0; i < step_count; ++i) {
      step_runs[i].push_back(i);
      step_transfers[i] = static_cast<int>(runs[i].size());
    }
  } else {
    // Replay by classes (simulate.hpp): a step whose transfers hold disjoint channels is
    // the slowest of independent flows, each taking what it takes alone; each distinct
    // (hops, bytes) is replayed once, and each distinct amount one processor adds once.
    std::vector<std::vector<std::size_t>> by_step(step_count);
    for (std::size_t i = 0; i < s.transfers.size(); ++i) {
      const Transfer& tr = s.transfers[i];
      if (tr.step < 1 || tr.step > s.steps) flow_of(i);  // throws, naming the transfer
      by_step[static_cast<std::size_t>(tr.step - 1)].push_back(i);
    }
    std::map<std::pair<std::size_t, std::int64_t>, std::size_t> flow_class;  // (hops, bytes)
    std::map<std::int64_t, std::size_t> add_class;                           // bytes added
    std::vector<std::size_t> holder(static_cast<std::size_t>(t.channel_count()), 0);
    std::size_t stamp = 0;
    for (std::size_t i = 0; i < step_count; ++i) {
      ++stamp;
      std::vector<Flow> flows;
      bool shared = false;
      for (const std::size_t k : by_step[i]) {
        Flow flow = flow_of(k);
        for (const ChannelId c : flow.channels) {
          shared = shared || holder[static_cast<std::size_t>(c)] == stamp;
          holder[static_cast<std::size_t>(c)] = stamp;
        }
        flows.push_back(std::move(flow));
      }
      step_transfers[i] = static_cast<int>(flows.size());
      const std::vector<ProcessorAdds> no_adds;
      const auto& step_adds = i < adds.size() ? adds[i] : no_adds;
      if (shared) {  // a conflict: the whole step, as in a full replay
        step_runs[i].push_back(runs.size());
        runs.push_back(std::move(flows));
        run_adds.push_back(step_adds);
        continue;
      }
      std::set<std::size_t> mine;
      for (Flow& flow : flows) {
        const auto key = std::pair{flow.channels.size(), static_cast<std::int64_t>(flow.bytes)};
        auto [it, fresh] = flow_class.try_emplace(key, runs.size());
        if (fresh) {
          runs.push_back({std::move(flow)});
          run_adds.emplace_back();
        }
        mine.insert(it->second);
      }
      for (const ProcessorAdds& a : step_adds) {
        auto [it, fresh] = add_class.try_emplace(a.bytes, runs.size());
        if (fresh) {
          runs.emplace_back();
          run_adds.push_back({a});
        }
        mine.insert(it->second);
      }
      step_runs[i].assign(mine.begin(), mine.end());
    }
  }

  // The linear model's figures: seed 001, eq. (1), with t1 = 1 / bandwidth.
  const LinearModel model{
      .t0 = p.latency, .t1 = 1.0 / p.bandwidth, .th = p.hop_latency, .tc = p.add_time};
  const ScheduleCost cost = linear_cost(s, model, p.message_bytes);

  int fds[2];
  if (::pipe(fds) != 0) throw Unsupported("cannot create a pipe for the simulation", "simulate");
  const pid_t child = ::fork();
  if (child < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw Unsupported("cannot fork the simulation", "simulate");
  }
  if (child == 0) {
    ::close(fds[0]);
    int status = 1;
    try {
      const std::vector<double> seconds = run_simgrid(t, runs, run_adds, p);
      if (write_all(fds[1], seconds.data(), seconds.size() * sizeof(double))) status = 0;
    } catch (const std::exception& e) {
      const std::string line = fmt::format("ccsched: simulation failed: {}\n", e.what());
      write_all(2, line.data(), line.size());
    }
    ::close(fds[1]);
    ::_exit(status);  // no destructors, no atexit handlers of the parent's state
  }
  ::close(fds[1]);
  std::vector<double> seconds(2 * runs.size(), 0.0);  // run times, then their adds
  std::size_t got = 0;
  char* buffer = reinterpret_cast<char*>(seconds.data());
  const std::size_t want = seconds.size() * sizeof(double);
  while (got < want) {
    const ssize_t n = ::read(fds[0], buffer + got, want - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != want)
    throw Unsupported("the SimGrid simulation failed (see the message above)", "simulate");

  Simulation result;
  result.replayed_runs = runs.size();
  result.by_class = by_class;
  for (std::size_t i = 0; i < step_count; ++i) {
    SimulatedStep st;
    st.step = static_cast<Step>(i + 1);
    st.transfers = step_transfers[i];
    // Runs of one step are independent: the step lasts as long as its slowest, its adds
    // as long as its slowest add.
    for (const std::size_t r : step_runs[i]) {
      st.seconds = std::max(st.seconds, seconds[r]);
      st.compute_seconds = std::max(st.compute_seconds, seconds[runs.size() + r]);
    }
    st.model_seconds = cost.steps[i].seconds;
    result.total_seconds += st.seconds;
    result.steps.push_back(st);
  }
  result.model_seconds = cost.total_seconds;
  return result;
}

}  // namespace ccsched
