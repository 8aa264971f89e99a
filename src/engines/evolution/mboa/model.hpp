// The probabilistic model of MBOA (Očenášek & Schwarz 2002, "Estimation of distribution
// algorithm for mixed continuous-discrete optimization problems"; the Mixed Bayesian
// Optimization Algorithm that seed 002 §5 used): a Bayesian network over categorical
// variables whose conditional probability tables are binary decision trees, as in
// Pelikan's BOA with decision graphs and hBOA ("Hierarchical Bayesian optimization
// algorithm", 2005, §3: decision trees/graphs in place of full tables).
//
// - One tree per variable X_i. An inner node asks "X_j == v?" about a variable j that
//   precedes i in a topological order; a leaf holds the counts of X_i's values among the
//   selected individuals that reach it, i.e. p(X_i | the leaf's context).
// - Acyclicity: the order is drawn at random each generation, and a tree may split only
//   on variables earlier in it. This is the parallel BOA's device (Očenášek & Schwarz
//   2000, "The parallel Bayesian optimization algorithm"): with the order fixed, the trees
//   do not depend on each other, so they are grown in parallel, one task per variable.
// - Growth: greedy, leaf by leaf, the split with the largest score gain under the
//   Bayesian-Dirichlet metric (K2 prior, one pseudo-count per value) or BIC, each minus a
//   complexity penalty per added leaf: penalty * 0.5 ln N (BD, as hBOA's
//   2^(-0.5 log2(N) |leaves|) prior) or penalty * 0.5 ln N (K_i - 1) (BIC, K_i values).
//   A split is made only when the gain is positive. The penalty is additive over leaves,
//   so growing each leaf on its own is the same as the global greedy order.
// - Sampling: variables in the topological order, each from the leaf its already drawn
//   parents lead to.
//
// Everything here is deterministic (ties go to the first candidate, then the smallest
// value); randomness enters only through the order and the sampling streams.
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "../parallel.hpp"
#include "../rng.hpp"

namespace ccsched::mboa {

// The selected individuals as the model sees them: column v holds variable v's value
// code for every row, codes dense in [0, arity[v]).
struct Data {
  int rows = 0;
  std::vector<std::vector<std::int32_t>> columns;  // [variable][row]
  std::vector<std::int32_t> arity;                 // values per variable, >= 1
  int variables() const { return static_cast<int>(columns.size()); }
};

enum class Metric { bd = 0, bic = 1 };

struct ModelSettings {
  Metric metric = Metric::bd;
  double penalty = 1.0;  // multiplies the per-leaf complexity penalty (0: none)
  // Variables each tree may split on (only those earlier in the order are used); empty:
  // every variable. The engine passes the genes that share a channel or port.
  const std::vector<std::vector<int>>* candidates = nullptr;
};

struct TreeNode {
  int variable = -1;       // split on this variable; -1: a leaf
  std::int32_t value = 0;  // the "equal" child takes X_variable == value
  int equal = -1, other = -1;
  // Leaf: (value code, count) sorted by code, counts > 0, and their sum.
  std::vector<std::pair<std::int32_t, std::int32_t>> counts;
  std::int32_t total = 0;
  bool leaf() const { return variable < 0; }
};

// p(X_i | parents) as a binary decision tree; node 0 is the root.
struct DecisionTree {
  std::vector<TreeNode> nodes;
  // The leaf a (partial) assignment reaches; `values` must hold every variable split on.
  int leaf_for(std::span<const std::int32_t> values) const {
    int n = 0;
    while (!nodes[static_cast<std::size_t>(n)].leaf()) {
      const TreeNode& node = nodes[static_cast<std::size_t>(n)];
      n = values[static_cast<std::size_t>(node.variable)] == node.value ? node.equal : node.other;
    }
    return n;
  }
  int leaf_count() const;
};

class Model {
 public:
  // Learns one tree per variable from `data` (data.rows >= 1). `order` is a permutation
  // of the variables. Trees are grown on `pool`, one task per variable.
  static Model learn(const Data& data, std::vector<int> order, const ModelSettings& settings,
                     evo::ThreadPool& pool);

  const std::vector<int>& order() const { return order_; }
  const DecisionTree& tree(int variable) const {
    return trees_[static_cast<std::size_t>(variable)];
  }
  int variables() const { return static_cast<int>(trees_.size()); }
  // Number of inner nodes over all trees (the dependencies the model found).
  int splits() const;

  // Draws one vector of value codes, variable by variable in the topological order.
  void sample(std::span<std::int32_t> out, evo::Rng& rng) const;

 private:
  std::vector<int> order_;
  std::vector<DecisionTree> trees_;
};

}  // namespace ccsched::mboa
