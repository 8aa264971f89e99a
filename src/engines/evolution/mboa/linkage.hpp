// Which genes a gene's decision tree may split on. The conflict fitness (seed 000 §4.3) is
// a sum over pairs of transfers that meet on a channel in one step, over the ports of a
// node (k-port models) and, for broadcasts, over the genes of one message, whose tree
// restoration couples (seed 000 §4.4). Two genes that share none of these never interact,
// so a dependency between them cannot help the model; the candidates of a gene are the
// `limit` genes that share the most of them with it (ties: lower gene first). Ours: seed
// 002 does not say how its MBOA kept model building affordable on 64-node networks.
//
// Cost: counting shared resources costs the sum over resources of (genes using it)^2, so
// a resource used by more than max(512, 8 * limit) genes is not counted (it says little
// about which genes interact most, and on a broadcast with every processor a candidate
// sender every channel is such a resource). A gene left with no counted resource gets no
// candidates: its tree is a single leaf, UMDA's marginal. Past `stop`, every gene gets
// none (the engine then ends its run on the budget).
#pragma once

#include <vector>

#include "../instance.hpp"
#include "../parallel.hpp"
#include "ccsched/engines/engine.hpp"

namespace ccsched::mboa {

// One list per gene, best first; `limit` >= 1.
std::vector<std::vector<int>> interacting_genes(const evo::Instance& inst, int limit,
                                                evo::ThreadPool& pool,
                                                const Budget* stop = nullptr);

}  // namespace ccsched::mboa
