// The genes that can interact with each gene (see linkage.hpp): an inverted index from
// resources (channels, send and receive ports, broadcast messages) to the genes that may
// use them, then, per gene, a count of shared resources over its resources' lists.
#include "linkage.hpp"

#include <algorithm>

namespace ccsched::mboa {

std::vector<std::vector<int>> interacting_genes(const evo::Instance& inst, int limit,
                                                evo::ThreadPool& pool, const Budget* stop) {
  const auto genes = static_cast<int>(inst.gene_count());
  const int channels = inst.channel_count(), nodes = inst.node_count();
  // Resource ids: channels, then send ports, receive ports, then broadcast rows.
  std::vector<std::vector<int>> uses(static_cast<std::size_t>(genes));
  pool.run(genes, [&](int g, int) {
    if (stop != nullptr && stop->expired()) return;
    auto& r = uses[static_cast<std::size_t>(g)];
    const auto i = static_cast<std::size_t>(g);
    for (int c = 0; c < inst.candidate_count(i); ++c) {
      const evo::Route& route = inst.route(i, c);
      for (std::int32_t p = route.first; p < route.first + route.count; ++p)
        for (const ChannelId ch : inst.path_channels(p)) r.push_back(static_cast<int>(ch));
      if (inst.port_limited()) r.push_back(channels + static_cast<int>(inst.candidate(i, c)));
    }
    if (inst.port_limited()) r.push_back(channels + nodes + static_cast<int>(inst.gene(i).target));
    if (inst.broadcast()) r.push_back(channels + 2 * nodes + inst.gene(i).row);
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
  });
  const int resources = channels + 2 * nodes + inst.row_count();
  std::vector<std::vector<int>> users(static_cast<std::size_t>(resources));
  for (int g = 0; g < genes; ++g)
    for (const int r : uses[static_cast<std::size_t>(g)])
      users[static_cast<std::size_t>(r)].push_back(g);

  std::vector<std::vector<int>> out(static_cast<std::size_t>(genes));
  std::vector<std::vector<int>> shared(static_cast<std::size_t>(pool.size()),
                                       std::vector<int>(static_cast<std::size_t>(genes), 0));
  const auto crowded = std::max<std::size_t>(512, 8 * static_cast<std::size_t>(limit));
  pool.run(genes, [&](int g, int worker) {
    if (stop != nullptr && stop->expired()) return;
    auto& count = shared[static_cast<std::size_t>(worker)];
    std::vector<int> met;
    for (const int r : uses[static_cast<std::size_t>(g)]) {
      if (users[static_cast<std::size_t>(r)].size() > crowded) continue;
      for (const int other : users[static_cast<std::size_t>(r)])
        if (other != g && count[static_cast<std::size_t>(other)]++ == 0) met.push_back(other);
    }
    const auto by_shared = [&](int a, int b) {
      const int ca = count[static_cast<std::size_t>(a)], cb = count[static_cast<std::size_t>(b)];
      return ca != cb ? ca > cb : a < b;
    };
    const auto keep = std::min(met.size(), static_cast<std::size_t>(limit));
    std::partial_sort(met.begin(), met.begin() + static_cast<std::ptrdiff_t>(keep), met.end(),
                      by_shared);
    for (const int other : met) count[static_cast<std::size_t>(other)] = 0;
    met.resize(keep);
    out[static_cast<std::size_t>(g)] = std::move(met);
  });
  return out;
}

}  // namespace ccsched::mboa
