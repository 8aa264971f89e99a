// Symmetric schedules (include/ccsched/engines/symmetric.hpp).
//
// Both encodings give every orbit of <sigma> one set of variables and then write every
// constraint of the ordinary encoding with each literal replaced by its orbit's: a
// schedule read back from a model is the union of the images of the chosen transfers,
// and the constraints, written for every channel and processor, hold for all of them.
// A transfer whose images meet on one channel in one step appears twice in that channel's
// at-most-one and is thereby excluded.
//
// Scatter (direct delivery): x[o, p, s] = "the representative of message orbit o goes along
// its allowed path p in step s"; its images are sigma^j(message) along sigma^j(p), j below
// the orbit's size. At least one (p, s) per orbit; at most one transfer per channel and
// step (FORMATS.md rule 3); at most k sent and k received per processor and step (rule 4).
// With a step shift d the j-th image moves in step s + j*d (mod T) instead of s.
//
// Broadcast (neighbour transfers): y[(m, c), s] = "message m crosses the channel c between
// two processors in step s", one variable per orbit of (m, c) pairs and step; h[(m, u), s]
// = "u holds m after step s". y[m, u->v, s] -> h[m, u, s-1] (rule 5), h[m, u, s] ->
// h[m, u, s-1] or some y[m, w->u, s], h[m, v, T] for every target, at most one reception
// of m per processor; channels and ports as above. Steps before a message can reach a channel (its distance from the origin) are
// left out.
#include "ccsched/engines/symmetric.hpp"

#include <algorithm>
#include <cadical.hpp>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <tuple>
#include <unordered_map>

#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/automorphisms.hpp"
#include "cnf.hpp"

namespace ccsched {
namespace {

// sigma^j for j < order, as node maps.
std::vector<std::vector<NodeId>> powers(const std::vector<NodeId>& sigma) {
  std::vector<std::vector<NodeId>> out;
  std::vector<NodeId> identity(sigma.size());
  for (std::size_t v = 0; v < sigma.size(); ++v) identity[v] = static_cast<NodeId>(v);
  out.push_back(identity);
  for (;;) {
    std::vector<NodeId> next(sigma.size());
    for (std::size_t v = 0; v < sigma.size(); ++v) next[v] = sigma[out.back()[v]];
    if (next == identity) return out;
    out.push_back(std::move(next));
  }
}

// The message sigma maps each message onto, or nothing when the collective is not
// invariant under sigma.
std::optional<std::vector<MessageId>> message_images(const Collective& c,
                                                     const std::vector<NodeId>& sigma) {
  std::map<std::vector<NodeId>, MessageId> by_key;
  auto key_of = [](NodeId origin, std::vector<NodeId> targets) {
    std::sort(targets.begin(), targets.end());
    targets.insert(targets.begin(), origin);
    return targets;
  };
  for (const auto& m : c.messages)
    if (!by_key.emplace(key_of(m.origin, m.targets), m.id).second) return std::nullopt;
  std::vector<MessageId> image(c.messages.size());
  for (const auto& m : c.messages) {
    std::vector<NodeId> targets;
    for (const NodeId t : m.targets) targets.push_back(sigma[t]);
    const auto it = by_key.find(key_of(sigma[m.origin], std::move(targets)));
    if (it == by_key.end()) return std::nullopt;
    image[m.id] = it->second;
  }
  return image;
}

// Orbits of messages under sigma: each as the list m, sigma(m), sigma^2(m), ...
std::vector<std::vector<MessageId>> message_orbits(const std::vector<MessageId>& image) {
  std::vector<char> seen(image.size(), 0);
  std::vector<std::vector<MessageId>> orbits;
  for (std::size_t m = 0; m < image.size(); ++m) {
    if (seen[m]) continue;
    std::vector<MessageId> orbit;
    for (auto x = static_cast<MessageId>(m); !seen[x]; x = image[x]) {
      seen[x] = 1;
      orbit.push_back(x);
    }
    orbits.push_back(std::move(orbit));
  }
  return orbits;
}

bool encodings_apply(const Problem& problem) {
  return problem.model.switching == Switching::wormhole && !problem.model.combining &&
         !problem.collective.messages.empty();
}

class SymmetricEncoder {
 public:
  SymmetricEncoder(const Problem& problem, const PathSet& paths, const std::vector<NodeId>& sigma,
                   std::vector<MessageId> image, int steps, int shift, std::uint64_t seed)
      : problem_(problem), paths_(paths), t_(problem.topology), steps_(steps), shift_(shift),
        seed_(seed),
        power_(powers(sigma)), image_(std::move(image)), cnf_(solver_.get()),
        users_(static_cast<std::size_t>(steps + 1) * t_.channel_count()),
        sent_(static_cast<std::size_t>(steps + 1) * t_.node_count()),
        received_(static_cast<std::size_t>(steps + 1) * t_.node_count()) {
    solver_->set("quiet", 1);
    solver_->set("seed", static_cast<int>(seed % 2147483647u));
  }

  // The conflicts the solver was allowed so far: those it spent, except in a slice that
  // ended with an answer or by the clock.
  std::int64_t conflicts() const { return conflicts_; }

  EngineResult solve(const Budget& budget, double max_bytes) {
    const auto start = Budget::Clock::now();
    EngineResult result;
    result.complete = false;
    result.note = "symmetric schedules (order " + std::to_string(power_.size()) + ", shift " +
                  std::to_string(shift_) + ")";
    auto done = [&](SolveStatus status) {
      result.status = status;
      result.seconds = std::chrono::duration<double>(Budget::Clock::now() - start).count();
      return result;
    };
    if (!built_ && !cut_) {  // the first call builds; later calls go on with the same solver
      if (max_bytes > 0 && estimated_bytes() > max_bytes) {
        result.note = "symmetric encoding (about " +
                      std::to_string(static_cast<long long>(estimated_bytes() / 1e6)) +
                      " MB) over its memory share (" +
                      std::to_string(static_cast<long long>(max_bytes / 1e6)) + " MB)";
        return done(SolveStatus::unknown);
      }
      if (!(is_broadcast(problem_.collective) ? encode_broadcast() : encode_scatter()))
        return done(SolveStatus::unknown);
      // Cut by the budget: the clauses are incomplete, so this encoder never answers.
      cut_ = !cnf_.transfer_limits(users_, sent_, received_, problem_.model.ports, budget);
      built_ = !cut_;
    }
    if (cut_ || !solver_ || budget.expired()) {
      result.budget_exhausted = true;
      return done(SolveStatus::unknown);
    }
    sat::limit_conflicts(*solver_, budget, sat::kReferenceClauses);
    if (budget.work_limited())
      conflicts_ += sat::conflicts_for(*solver_, budget.work(), sat::kReferenceClauses);
    // Past the limit the solver may be abandoned to its thread (cnf.hpp): then it is gone,
    // and this encoder answers nothing more.
    const int answer = sat::solve_detachable(solver_, *solver_, budget);
    if (answer == 20) return done(SolveStatus::infeasible);
    if (answer != 10) {
      result.budget_exhausted = true;
      return done(SolveStatus::unknown);
    }
    result.schedule = assemble_schedule(problem_, decode(), "sat-symmetric", seed_);
    if (const auto violations = verify_schedule(*result.schedule); !violations.empty()) {
      result.schedule.reset();
      result.note = "symmetric schedule rejected by the verifier: " + violations[0].text;
      return done(SolveStatus::unknown);
    }
    return done(SolveStatus::feasible);
  }

 private:
  // What the encoding would take (docs/RELIABILITY.md: refuse before building): its variables and
  // the literal occurrences in its channel, port and reception lists.
  double estimated_bytes() const {
    const double T = steps_;
    const double order = static_cast<double>(power_.size());
    double occurrences = 0, variables = 0;
    if (is_broadcast(problem_.collective)) {
      double neighbour = 0;
      for (const auto& c : t_.channels())
        if (t_.is_processor(c.from) && t_.is_processor(c.to)) ++neighbour;
      const double pairs = static_cast<double>(problem_.collective.messages.size()) * neighbour;
      occurrences = 6 * pairs * T;
      variables = (pairs + static_cast<double>(problem_.collective.messages.size()) *
                               t_.processor_count()) * T / order;
    } else {
      for (const auto& m : problem_.collective.messages) {
        if (m.targets.size() != 1) return 0;
        // Counted without listing where routing is minimal (a large network's lists are
        // what the estimate is to spare).
        double count =
            paths_.searches_lazily()
                ? paths_.path_count(m.origin, m.targets[0])
                : static_cast<double>(paths_.paths(m.origin, m.targets[0]).size());
        if (paths_.limits().truncate)
          count = std::min(count, static_cast<double>(paths_.limits().max_paths_per_pair));
        occurrences += count * T * (paths_.distance(m.origin, m.targets[0]) + 2);
        variables += count * T / order;
      }
    }
    return sat::encoding_bytes(variables, occurrences);
  }

  std::vector<NodeId> image_of(const std::vector<NodeId>& nodes, std::size_t j) const {
    std::vector<NodeId> out(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) out[i] = power_[j][nodes[i]];
    return out;
  }

  std::vector<int>& users(ChannelId c, Step s) {
    return users_[static_cast<std::size_t>(s) * t_.channel_count() + c];
  }
  std::vector<int>& sent(NodeId u, Step s) {
    return sent_[static_cast<std::size_t>(s) * t_.node_count() + u];
  }
  std::vector<int>& received(NodeId v, Step s) {
    return received_[static_cast<std::size_t>(s) * t_.node_count() + v];
  }

  // --- scatter: one (path, step) per message orbit --------------------------------------
  struct Choice {
    int var;
    std::size_t orbit;
    const Path* path;
    Step step;
  };

  // The step of the j-th image of a transfer in step s: s moved on by j shifts, round
  // the T steps (a scatter has no holding rule, so any rotation of steps stays valid).
  Step image_step(Step s, std::size_t j) const {
    return static_cast<Step>((s - 1 + static_cast<long long>(j) * shift_) % steps_) + 1;
  }

  // The channels of the first `count` images of p, or nothing when two images in the same
  // step share a channel (sigma^a maps one channel of p onto another channel of
  // sigma^b(p): those images can never move together).
  std::optional<std::vector<std::vector<ChannelId>>> disjoint_images(const Path& p,
                                                                      std::size_t count) const {
    std::vector<std::vector<ChannelId>> images;
    std::set<std::pair<ChannelId, Step>> used;
    for (std::size_t j = 0; j < count; ++j) {
      const auto nodes = image_of(p.nodes, j);
      std::vector<ChannelId> channels;
      for (std::size_t i = 0; i + 1 < nodes.size(); ++i) {
        const auto c = t_.find_channel(nodes[i], nodes[i + 1]);
        if (!c || !used.emplace(*c, image_step(1, j)).second) return std::nullopt;
        channels.push_back(*c);
      }
      images.push_back(std::move(channels));
    }
    return images;
  }

  // An orbit none of whose paths has disjoint images is split into single messages,
  // each with its own variables (the ordinary encoding for those messages).
  bool encode_scatter() {
    const auto& messages = problem_.collective.messages;
    for (auto& orbit : message_orbits(image_)) {
      const auto& m = messages[orbit[0]];
      if (m.targets.size() != 1) return false;
      bool symmetric = false;
      for (const Path& p : paths_.paths(m.origin, m.targets[0]))
        symmetric = symmetric || disjoint_images(p, orbit.size()).has_value();
      if (symmetric) {
        orbits_.push_back(std::move(orbit));
      } else {
        for (const MessageId x : orbit) orbits_.push_back({x});
      }
    }
    for (std::size_t o = 0; o < orbits_.size(); ++o) {
      const auto& m = messages[orbits_[o][0]];
      std::vector<int> any;
      for (const Path& p : paths_.paths(m.origin, m.targets[0])) {
        const auto images = disjoint_images(p, orbits_[o].size());
        if (!images) continue;
        for (Step s = 1; s <= steps_; ++s) {
          const int x = cnf_.new_var();
          any.push_back(x);
          choices_.push_back({x, o, &p, s});
          for (std::size_t j = 0; j < images->size(); ++j) {
            const Step at = image_step(s, j);
            for (const ChannelId c : (*images)[j]) users(c, at).push_back(x);
            sent(power_[j][m.origin], at).push_back(x);
            received(power_[j][m.targets[0]], at).push_back(x);
          }
        }
      }
      if (any.empty()) return false;
      cnf_.add(any);
    }
    return true;
  }

  // --- broadcast: neighbour transfers, one variable per orbit of (message, channel) ------
  std::uint64_t pair_key(MessageId m, int x) const {
    return (static_cast<std::uint64_t>(m) << 32) | static_cast<std::uint32_t>(x);
  }

  // The first variable of the orbit of (m, x) (T consecutive variables, one per step);
  // `image_x` maps x one sigma-step on.
  template <typename ImageFn>
  int orbit_var(std::unordered_map<std::uint64_t, int>& table, MessageId m, int x,
                ImageFn image_x) {
    const auto it = table.find(pair_key(m, x));
    if (it != table.end()) return it->second;
    const int first = cnf_.vars() + 1;
    for (Step s = 1; s <= steps_; ++s) cnf_.new_var();
    MessageId mm = m;
    int xx = x;
    do {
      table.emplace(pair_key(mm, xx), first);
      mm = image_[mm];
      xx = image_x(xx);
    } while (mm != m || xx != x);
    return first;
  }

  bool encode_broadcast() {
    const int n = t_.node_count();
    // Processor-to-processor channels and their images under sigma.
    std::vector<ChannelId> channel_image(t_.channel_count(), kNoChannel);
    for (ChannelId c = 0; c < t_.channel_count(); ++c) {
      const auto [a, b] = t_.channel(c);
      if (!t_.is_processor(a) || !t_.is_processor(b)) continue;
      const auto image = t_.find_channel(power_[1 % power_.size()][a], power_[1 % power_.size()][b]);
      if (!image) return false;
      channel_image[c] = *image;
      neighbour_channels_.push_back(c);
    }
    // Distances from every origin over those channels.
    auto& dist = distance_;
    dist.assign(n, {});
    for (const auto& m : problem_.collective.messages) {
      auto& d = dist[m.origin];
      if (!d.empty()) continue;
      d.assign(n, -1);
      d[m.origin] = 0;
      std::vector<NodeId> queue{m.origin};
      for (std::size_t i = 0; i < queue.size(); ++i)
        for (const ChannelId c : t_.out_channels(queue[i])) {
          const NodeId w = t_.channel(c).to;
          if (channel_image[c] == kNoChannel || d[w] >= 0) continue;
          d[w] = d[queue[i]] + 1;
          queue.push_back(w);
        }
      for (const NodeId v : m.targets)
        if (d[v] < 0 || d[v] > steps_) return false;
    }
    const auto channel_step = [&](int c) { return channel_image[c]; };
    const auto node_step = [&](int v) { return power_[1 % power_.size()][v]; };
    const auto processors = t_.processors();
    for (const auto& m : problem_.collective.messages) {
      const auto& d = dist[m.origin];
      // h(m, u, s), s = 1..T: variable h + s - 1; the origin always holds m.
      auto holds = [&](NodeId u) { return orbit_var(holding_, m.id, u, node_step); };
      // Receptions of m per processor: at most one each (a second one is never needed).
      std::unordered_map<NodeId, std::vector<int>> into;
      for (const ChannelId c : neighbour_channels_) {
        const auto [u, v] = t_.channel(c);
        if (v == m.origin || d[u] < 0) continue;
        const int y = orbit_var(crossing_, m.id, c, channel_step);
        for (Step s = d[u] + 1; s <= steps_; ++s) {
          const int lit = y + s - 1;
          if (u != m.origin) cnf_.add({-lit, holds(u) + s - 2});
          users(c, s).push_back(lit);
          sent(u, s).push_back(lit);
          received(v, s).push_back(lit);
          into[v].push_back(lit);
        }
      }
      for (const auto& [v, lits] : into) cnf_.at_most_one(lits);
      for (const NodeId u : processors) {
        if (u == m.origin || d[u] < 0) continue;
        const int h = holds(u);
        for (Step s = 1; s <= steps_; ++s) {
          std::vector<int> clause{-(h + s - 1)};
          if (s > 1) clause.push_back(h + s - 2);
          for (const ChannelId c : t_.in_channels(u)) {
            const NodeId w = t_.channel(c).from;
            if (channel_image[c] == kNoChannel || d[w] < 0 || s < d[w] + 1) continue;
            clause.push_back(orbit_var(crossing_, m.id, c, channel_step) + s - 1);
          }
          cnf_.add(clause);
        }
      }
      for (const NodeId v : m.targets) cnf_.add({holds(v) + steps_ - 1});
    }
    return true;
  }

  std::vector<Transfer> decode() {
    std::vector<Transfer> transfers;
    if (!is_broadcast(problem_.collective)) {
      std::vector<char> placed(orbits_.size(), 0);
      for (const Choice& ch : choices_) {
        if (placed[ch.orbit] || solver_->val(ch.var) <= 0) continue;
        placed[ch.orbit] = 1;
        for (std::size_t j = 0; j < orbits_[ch.orbit].size(); ++j)
          transfers.push_back(
              {image_step(ch.step, j), image_of(ch.path->nodes, j), {orbits_[ch.orbit][j]}});
      }
      return transfers;
    }
    // Broadcast: the first reception of every (message, processor); later ones are
    // redundant and dropping them only frees channels and ports.
    std::unordered_map<std::uint64_t, std::pair<Step, ChannelId>> first;
    for (const auto& m : problem_.collective.messages)
      for (const ChannelId c : neighbour_channels_) {
        const auto it = crossing_.find(pair_key(m.id, c));
        if (it == crossing_.end()) continue;
        // Only the steps the encoding constrains: earlier ones are free variables.
        const auto [u, v] = t_.channel(c);
        for (Step s = std::max(1, distance_[m.origin][u] + 1); s <= steps_; ++s) {
          if (solver_->val(it->second + s - 1) <= 0) continue;
          auto [at, fresh] = first.emplace(pair_key(m.id, v), std::pair(s, c));
          if (!fresh && s < at->second.first) at->second = {s, c};
          break;
        }
      }
    for (const auto& [key, value] : first) {
      const auto m = static_cast<MessageId>(key >> 32);
      const auto& ch = t_.channel(value.second);
      transfers.push_back({value.first, {ch.from, ch.to}, {m}});
    }
    // A deterministic order (the map's is not).
    std::sort(transfers.begin(), transfers.end(), [](const Transfer& a, const Transfer& b) {
      return std::tie(a.step, a.messages, a.path) < std::tie(b.step, b.messages, b.path);
    });
    return transfers;
  }

  const Problem& problem_;
  const PathSet& paths_;
  const Topology& t_;
  const int steps_;
  const int shift_;  // scatter: the j-th image moves j * shift_ steps later (mod T)
  bool built_ = false;
  bool cut_ = false;  // the budget ran out while the clauses were added
  std::int64_t conflicts_ = 0;
  const std::uint64_t seed_;
  const std::vector<std::vector<NodeId>> power_;
  const std::vector<MessageId> image_;
  std::unique_ptr<CaDiCaL::Solver> solver_ = std::make_unique<CaDiCaL::Solver>();
  sat::Cnf cnf_;
  std::vector<std::vector<int>> users_, sent_, received_;
  // scatter
  std::vector<std::vector<MessageId>> orbits_;
  std::vector<Choice> choices_;
  // broadcast
  std::vector<ChannelId> neighbour_channels_;
  std::unordered_map<std::uint64_t, int> crossing_, holding_;
  std::vector<std::vector<int>> distance_;  // [origin][node] over neighbour channels
};

}  // namespace

std::vector<std::vector<NodeId>> problem_symmetries(const Problem& problem, const Budget& budget,
                                                    std::size_t count) {
  // A symmetry must map the messages onto themselves without fixed processors, so one
  // message (OAB, OAS) has none: torus:256x256 OAB spent a minute listing automorphisms.
  if (!encodings_apply(problem) || problem.collective.messages.size() < 2) return {};
  AutomorphismLimits limits;
  // At most 5,000 maps, and at most 5e7 entries in all (200 MB) on large networks.
  limits.limit = std::clamp<std::size_t>(
      50'000'000 / std::max<std::size_t>(1, problem.topology.node_count()), 2, 5000);
  // The map count decides where the enumeration stops (deterministic); the deadline is
  // the outer cap only.
  limits.deadline = Budget::Clock::now() + std::chrono::milliseconds(static_cast<long long>(
                                               std::min(1e9, 1000.0 * budget.remaining())));
  const auto group = find_automorphisms(problem.topology, limits);
  // Per order, the first fixed-point-free automorphism, preferring one whose cycles on
  // the processors all have the same length (every message orbit full).
  std::map<long long, std::pair<bool, const std::vector<NodeId>*>, std::greater<>> best;
  for (const auto& sigma : group.maps) {
    bool free = true;
    for (const NodeId p : problem.topology.processors()) free = free && sigma[p] != p;
    if (!free || !message_images(problem.collective, sigma)) continue;
    const long long order = permutation_order(sigma);
    bool regular = true;
    for (const NodeId p : problem.topology.processors()) {
      long long length = 1;
      for (NodeId w = sigma[p]; w != p; w = sigma[w]) ++length;
      regular = regular && length == order;
    }
    auto [it, fresh] = best.emplace(order, std::pair(regular, &sigma));
    if (!fresh && regular && !it->second.first) it->second = {regular, &sigma};
  }
  std::vector<std::vector<NodeId>> out;
  for (const auto& [order, choice] : best) {
    if (out.size() >= count) break;
    out.push_back(*choice.second);
  }
  return out;
}

EngineResult symmetric_schedule(const Problem& problem, const PathSet& paths,
                                const std::vector<std::vector<NodeId>>& symmetries, int steps,
                                const Budget& budget, std::uint64_t seed, double max_bytes,
                                const ProgressFn& progress) {
  refuse_reductions(problem.collective, "the symmetric search", "sat-symmetric");
  EngineResult result;
  result.complete = false;
  result.note = "no symmetry of the problem";
  result.status = SolveStatus::unknown;
  if (!encodings_apply(problem)) return result;
  // Scatters also try each symmetry with its images rotated through the steps: with
  // order r and g = gcd(r, T), shifting the j-th image by j * T / g steps keeps the
  // schedule invariant under sigma (shifts add up to a multiple of T) and lets images that
  // would meet on a channel move in different steps.
  struct Attempt {
    const std::vector<NodeId>* sigma;
    int shift;
  };
  std::vector<Attempt> attempts;
  for (const auto& sigma : symmetries) {
    attempts.push_back({&sigma, 0});
    const auto g = std::gcd(permutation_order(sigma), static_cast<long long>(steps));
    if (!is_broadcast(problem.collective) && g > 1)
      attempts.push_back({&sigma, static_cast<int>(steps / g)});
  }
  // Round robin with doubling slices of conflicts (20,000, 40,000, ...): which symmetry leads
  // to a schedule quickly is not known in advance, and a solver stopped at the end of its
  // slice goes on from where it stopped in the next round. The slices count conflicts, not
  // seconds, so the same symmetry wins on every machine (docs/ENGINES.md, "Budgets"); the
  // budget's work allowance bounds their sum. The encodings share the memory limit.
  std::vector<std::unique_ptr<SymmetricEncoder>> encoders(attempts.size());
  const auto release = [&] {  // a stopped run does not wait for the solvers to be freed
    for (auto& e : encoders) free_later(std::move(e), budget);
  };
  std::vector<char> finished(attempts.size(), 0);
  double seconds = 0;
  std::int64_t spent = 0;
  const std::int64_t allowance = budget.work();
  for (std::int64_t slice = 20000; !budget.expired() && spent < allowance; slice *= 2) {
    bool any = false;
    for (std::size_t i = 0; i < attempts.size() && !budget.expired() && spent < allowance;
         ++i) {
      if (finished[i]) continue;
      if (!encoders[i]) {
        auto image = message_images(problem.collective, *attempts[i].sigma);
        if (!image) {
          finished[i] = 1;
          continue;
        }
        encoders[i] = std::make_unique<SymmetricEncoder>(problem, paths, *attempts[i].sigma,
                                                         std::move(*image), steps,
                                                         attempts[i].shift, seed);
      }
      any = true;
      const std::int64_t give = std::min(slice, allowance - spent);
      result = encoders[i]->solve(budget.with_work(give),
                                  max_bytes / static_cast<double>(attempts.size()));
      spent += give;
      seconds += result.seconds;
      result.seconds = seconds;
      if (progress && encoders[i] && encoders[i]->conflicts() > 0)
        progress({"sat-symmetric", steps, encoders[i]->conflicts(), -1, seconds});
      if (result.status == SolveStatus::feasible) {
        release();
        return result;
      }
      if (!result.budget_exhausted) {  // infeasible, or could not be built: done with it
        finished[i] = 1;
        encoders[i].reset();
      }
    }
    if (!any) break;
  }
  release();
  return result;
}

}  // namespace ccsched
