// Translation rules (private to codegen): a schedule on a network whose node ids, read in
// mixed radix, form an abelian group (torus, ring, hypercube: topology/generators.hpp,
// family_of), that is invariant under every translation v -> v + x. Such a schedule is the
// orbit of a few entries "in step s, every v receives from v - delta the messages of origin
// v - offset_k (shape_k)", where a message's shape is its targets' offsets from its origin:
// the translation all-to-all broadcasts of the gossip design (docs/ENGINES.md, "Gossip
// all-to-all broadcast") have one entry per step and generator, 4,096 entries for the
// 16.8 million transfers of torus:64x64. The MPI program then holds the entries and every
// rank derives its own transfers in O(its transfers) (mpi.hpp).
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "ccsched/schedule/schedule.hpp"

namespace ccsched::codegen_detail {

struct TranslationRule {
  std::vector<int> radix;                // most significant digit first
  std::vector<std::vector<int>> shapes;  // the targets' offsets from the origin, sorted
  struct Entry {
    Step step = 1;
    int delta = 0;                              // receiver - sender
    std::vector<std::pair<int, int>> messages;  // (receiver - origin, shape), as carried
  };
  std::vector<Entry> entries;  // by step
};

// The rule when `s` is a message schedule on such a network (processors 0..P-1, no
// switches) whose messages are every shape from every origin once and whose transfers are
// exactly the translates of the entries (senders, receivers and messages; the paths in
// between are not part of the rule: MPI routes). Nothing otherwise.
std::optional<TranslationRule> translation_rule(const Schedule& s);

}  // namespace ccsched::codegen_detail
