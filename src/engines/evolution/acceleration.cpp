// The acceleration heuristic of seed 000 §4.4 (seed 001 §4.4 for one port): no node can
// inject more than k messages in one step, so before evaluation every sender's messages
// are spread over the steps — each message in an over-full step moves to a random step
// with a free injection port. It leaves only schedules that respect the injection limit
// for the fitness to judge, which "dramatically decrease[s] the initial conflict count".
// Under the all-port model k is the sender's degree: more sends than channels would
// conflict anyway.
#include "operators.hpp"

namespace ccsched::evo {

void accelerate(const Instance& inst, Genome& genome, Rng& rng, Workspace& ws) {
  const int T = inst.steps();
  const int k = inst.ports();
  auto& count = ws.count;
  auto& free_steps = ws.free_steps;
  auto& order = ws.order;
  for (int r = 0; r < inst.row_count(); ++r) {
    const int begin = inst.row_begin(r), end = inst.row_begin(r + 1);
    count.assign(static_cast<std::size_t>(T) + 1, 0);
    bool over = false;
    for (int g = begin; g < end; ++g) over = ++count[genome.step[g]] > k || over;
    if (!over) continue;
    free_steps.clear();
    for (int s = 1; s <= T; ++s)
      if (count[s] < k) free_steps.push_back(s);
    // Visit the row in a random order so that no message is always the one that moves.
    order.clear();
    for (int g = begin; g < end; ++g) order.push_back(g);
    for (std::size_t i = order.size(); i > 1; --i)
      std::swap(order[i - 1], order[static_cast<std::size_t>(rng.below(static_cast<int>(i)))]);
    for (const int g : order) {
      if (free_steps.empty()) break;  // more than k*T messages: the rest must conflict
      if (count[genome.step[g]] <= k) continue;
      const int pick = rng.below(static_cast<int>(free_steps.size()));
      const int s = free_steps[static_cast<std::size_t>(pick)];
      --count[genome.step[g]];
      genome.step[g] = s;
      if (++count[s] >= k) {
        free_steps[static_cast<std::size_t>(pick)] = free_steps.back();
        free_steps.pop_back();
      }
    }
  }
}

}  // namespace ccsched::evo
