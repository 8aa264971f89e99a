// Learning and sampling MBOA's Bayesian network of decision trees (see model.hpp for
// the model, the metric and where they come from).
#include "model.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace ccsched::mboa {
namespace {

// Per-thread scratch, sized once for the largest arity and the row count.
struct Scratch {
  std::vector<std::int32_t> total, left, bucket, offset;
  std::vector<std::int32_t> touched, distinct, sorted;
  explicit Scratch(std::size_t max_arity, std::size_t rows)
      : total(max_arity), left(max_arity), bucket(max_arity), offset(max_arity) {
    sorted.resize(rows);
  }
};

// The score terms, tabulated over the integers they are needed at.
struct Tables {
  std::vector<double> lgamma;  // lgamma(x), x = 0 .. rows + max arity + 1 (x = 0 unused)
  std::vector<double> xlogx;   // x ln x, x = 0 .. rows
  Tables(int rows, int max_arity)
      : lgamma(static_cast<std::size_t>(rows + max_arity + 2)),
        xlogx(static_cast<std::size_t>(rows + 1)) {
    for (std::size_t x = 1; x < lgamma.size(); ++x) lgamma[x] = std::lgamma(static_cast<double>(x));
    for (std::size_t x = 1; x < xlogx.size(); ++x)
      xlogx[x] = static_cast<double>(x) * std::log(static_cast<double>(x));
  }
};

struct Grower {
  const Data& data;
  const ModelSettings& settings;
  const Tables& tables;
  Scratch& s;
  int variable;
  std::vector<int> parents;  // variables the tree may split on, in preference order
  int arity;
  double leaf_penalty;

  const std::vector<std::int32_t>& column(int v) const {
    return data.columns[static_cast<std::size_t>(v)];
  }
  double lg(std::int64_t x) const { return tables.lgamma[static_cast<std::size_t>(x)]; }
  // The per-value term of a leaf's score: BD (K2 prior) lgamma(n + 1), BIC n ln n.
  double term(std::int32_t n) const {
    return settings.metric == Metric::bd ? lg(n + 1) : tables.xlogx[static_cast<std::size_t>(n)];
  }
  // A leaf's score from its size and the sum of its terms.
  double score(std::int32_t m, double terms) const {
    return settings.metric == Metric::bd ? lg(arity) - lg(m + arity) + terms
                                         : terms - tables.xlogx[static_cast<std::size_t>(m)];
  }

  struct Split {
    double gain = 0.0;
    int variable = -1;
    std::int32_t value = 0;
  };

  // The best split of a leaf holding `rows`, whose value counts are in s.total (the
  // values listed in s.touched), or variable -1 when no split gains.
  Split best_split(const std::vector<std::int32_t>& rows) const {
    Split best;
    const auto m = static_cast<std::int32_t>(rows.size());
    double total_terms = 0.0;
    for (const std::int32_t c : s.touched)
      total_terms += term(s.total[static_cast<std::size_t>(c)]);
    const double parent = score(m, total_terms);
    const auto& mine = column(variable);
    for (const int j : parents) {
      const auto& theirs = column(j);
      // Counting sort of the leaf's values of X_i by the value of X_j.
      s.distinct.clear();
      for (const std::int32_t r : rows) {
        const std::int32_t v = theirs[static_cast<std::size_t>(r)];
        if (s.bucket[static_cast<std::size_t>(v)]++ == 0) s.distinct.push_back(v);
      }
      if (s.distinct.size() > 1) {
        std::int32_t at = 0;
        for (const std::int32_t v : s.distinct) {
          s.offset[static_cast<std::size_t>(v)] = at;
          at += s.bucket[static_cast<std::size_t>(v)];
        }
        for (const std::int32_t r : rows)
          s.sorted[static_cast<std::size_t>(
              s.offset[static_cast<std::size_t>(theirs[static_cast<std::size_t>(r)])]++)] =
              mine[static_cast<std::size_t>(r)];
        at = 0;
        for (const std::int32_t v : s.distinct) {
          const std::int32_t size = s.bucket[static_cast<std::size_t>(v)];
          // Left: X_j == v. Right: the rest, whose counts are total - left.
          double left_terms = 0.0, right_terms = total_terms;
          std::vector<std::int32_t>& left = s.left;  // zero between uses
          for (std::int32_t k = at; k < at + size; ++k)
            ++left[static_cast<std::size_t>(s.sorted[static_cast<std::size_t>(k)])];
          for (std::int32_t k = at; k < at + size; ++k) {
            const std::int32_t c = s.sorted[static_cast<std::size_t>(k)];
            std::int32_t& n = left[static_cast<std::size_t>(c)];
            if (n == 0) continue;  // already counted
            const std::int32_t t = s.total[static_cast<std::size_t>(c)];
            left_terms += term(n);
            right_terms += term(t - n) - term(t);
            n = 0;
          }
          const double gain =
              score(size, left_terms) + score(m - size, right_terms) - parent - leaf_penalty;
          if (gain > best.gain) best = {gain, j, v};
          at += size;
        }
      }
      for (const std::int32_t v : s.distinct) s.bucket[static_cast<std::size_t>(v)] = 0;
    }
    return best;
  }

  DecisionTree grow() {
    DecisionTree tree;
    std::vector<std::pair<int, std::vector<std::int32_t>>> open;  // (node, its rows)
    std::vector<std::int32_t> all(static_cast<std::size_t>(data.rows));
    for (std::int32_t r = 0; r < data.rows; ++r) all[static_cast<std::size_t>(r)] = r;
    tree.nodes.emplace_back();
    open.emplace_back(0, std::move(all));
    const auto& mine = column(variable);
    while (!open.empty()) {
      auto [node, rows] = std::move(open.back());
      open.pop_back();
      s.touched.clear();
      for (const std::int32_t r : rows) {
        const std::int32_t c = mine[static_cast<std::size_t>(r)];
        if (s.total[static_cast<std::size_t>(c)]++ == 0) s.touched.push_back(c);
      }
      // A pure leaf cannot gain likelihood from a split.
      const Split split = s.touched.size() > 1 ? best_split(rows) : Split{};
      TreeNode& here = tree.nodes[static_cast<std::size_t>(node)];
      if (split.variable < 0) {
        std::sort(s.touched.begin(), s.touched.end());
        for (const std::int32_t c : s.touched)
          here.counts.emplace_back(c, s.total[static_cast<std::size_t>(c)]);
        here.total = static_cast<std::int32_t>(rows.size());
      } else {
        here.variable = split.variable;
        here.value = split.value;
        std::vector<std::int32_t> equal, other;
        const auto& theirs = column(split.variable);
        for (const std::int32_t r : rows)
          (theirs[static_cast<std::size_t>(r)] == split.value ? equal : other).push_back(r);
        here.equal = static_cast<int>(tree.nodes.size());
        here.other = here.equal + 1;
        tree.nodes.emplace_back();  // invalidates `here`
        tree.nodes.emplace_back();
        open.emplace_back(tree.nodes.size() - 1, std::move(other));
        open.emplace_back(tree.nodes.size() - 2, std::move(equal));
      }
      for (const std::int32_t c : s.touched) s.total[static_cast<std::size_t>(c)] = 0;
    }
    return tree;
  }
};

}  // namespace

int DecisionTree::leaf_count() const {
  return static_cast<int>(
      std::count_if(nodes.begin(), nodes.end(), [](const TreeNode& n) { return n.leaf(); }));
}

Model Model::learn(const Data& data, std::vector<int> order, const ModelSettings& settings,
                   evo::ThreadPool& pool) {
  assert(data.rows >= 1 && static_cast<int>(order.size()) == data.variables());
  Model model;
  model.order_ = std::move(order);
  const int n = data.variables();
  model.trees_.resize(static_cast<std::size_t>(n));
  std::vector<int> position(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    position[static_cast<std::size_t>(model.order_[static_cast<std::size_t>(k)])] = k;
  const int max_arity = n == 0 ? 1 : *std::max_element(data.arity.begin(), data.arity.end());
  const Tables tables(data.rows, max_arity);
  std::vector<Scratch> scratch;
  for (int w = 0; w < pool.size(); ++w)
    scratch.emplace_back(static_cast<std::size_t>(max_arity), static_cast<std::size_t>(data.rows));
  const double log_n = std::log(static_cast<double>(data.rows));
  pool.run(n, [&](int v, int worker) {
    const auto at = position[static_cast<std::size_t>(v)];
    std::vector<int> parents;
    if (settings.candidates != nullptr) {
      for (const int j : (*settings.candidates)[static_cast<std::size_t>(v)])
        if (position[static_cast<std::size_t>(j)] < at) parents.push_back(j);
    } else {
      parents.assign(model.order_.begin(), model.order_.begin() + at);
    }
    const int arity = data.arity[static_cast<std::size_t>(v)];
    const double per_leaf = settings.penalty * 0.5 * log_n *
                            (settings.metric == Metric::bic ? std::max(1, arity - 1) : 1);
    Grower grower{data, settings,           tables, scratch[static_cast<std::size_t>(worker)],
                  v,    std::move(parents), arity,  per_leaf};
    model.trees_[static_cast<std::size_t>(v)] = grower.grow();
  });
  return model;
}

int Model::splits() const {
  int count = 0;
  for (const auto& t : trees_) count += static_cast<int>(t.nodes.size()) - t.leaf_count();
  return count;
}

void Model::sample(std::span<std::int32_t> out, evo::Rng& rng) const {
  for (const int v : order_) {
    const DecisionTree& tree = trees_[static_cast<std::size_t>(v)];
    const TreeNode& leaf = tree.nodes[static_cast<std::size_t>(tree.leaf_for(out))];
    std::int32_t draw = rng.below(leaf.total);
    std::int32_t value = leaf.counts.back().first;
    for (const auto& [code, count] : leaf.counts) {
      if (draw < count) {
        value = code;
        break;
      }
      draw -= count;
    }
    out[static_cast<std::size_t>(v)] = value;
  }
}

}  // namespace ccsched::mboa
