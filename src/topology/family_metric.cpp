// Closed-form distances on generated families (family_metric.hpp). The formulas follow the
// generators (generators.cpp): grids number nodes row-major with the last coordinate
// fastest; the fat tree's switch s<l>.<w> is node N + l·N/2 + w, linked to s<l+1>.<w'> for
// the two w' that differ from w at most in bit l (so a hop up from level l sets bit l, and
// a hop down to level l-1 sets bit l-1).
#include "ccsched/topology/family_metric.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <string>

#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {


// N of a "fattree:N" name, 0 otherwise.
long long fattree_size(const std::string& name) {
  if (!name.starts_with("fattree:")) return 0;
  const std::string digits = name.substr(8);
  if (digits.empty() || digits.size() > 9 ||
      digits.find_first_not_of("0123456789") != std::string::npos)
    return 0;
  const long long n = std::stoll(digits);
  return n >= 2 && std::has_single_bit(static_cast<unsigned long long>(n)) ? n : 0;
}

}  // namespace

std::optional<FamilyMetric> FamilyMetric::of(const Topology& t) {
  FamilyMetric m;
  if (const long long n = fattree_size(t.name())) {
    m.kind_ = Kind::fattree;
    m.processors_ = static_cast<int>(n);
    m.levels_ = std::countr_zero(static_cast<unsigned long long>(n));
    if (t.node_count() != n + n / 2 * m.levels_) return std::nullopt;
  } else {
    const auto family = family_of(t);
    if (!family) return std::nullopt;
    long long nodes = 1;
    for (const int s : family->sides) nodes *= s;
    if (nodes != t.node_count() || nodes > (1LL << 30)) return std::nullopt;
    m.processors_ = static_cast<int>(nodes);
    m.side_ = family->sides;
    m.stride_.assign(m.side_.size(), 1);
    if (family->name == "hypercube") {
      for (std::size_t i = 0; i < m.side_.size(); ++i) m.stride_[i] = 1LL << i;
    } else {
      for (std::size_t i = m.side_.size() - 1; i-- > 0;)
        m.stride_[i] = m.stride_[i + 1] * m.side_[i + 1];
    }
    m.kind_ = family->name == "uring" ? Kind::uring : Kind::grid;
    m.wrap_ = family->name == "torus" || family->name == "ring";
  }
  if (t.processor_count() != m.processors_) return std::nullopt;
  for (NodeId v = 0; v < m.processors_; ++v)
    if (!t.is_processor(v)) return std::nullopt;
  // No duplicate channels exist (Topology's contract), so the right count of channels that
  // all join adjacent nodes is exactly the family's channel set.
  if (t.channel_count() != m.expected_channels()) return std::nullopt;
  for (const Channel& c : t.channels())
    if (!m.adjacent(c.from, c.to)) return std::nullopt;
  return m;
}

long long FamilyMetric::expected_channels() const {
  const long long n = processors_;
  switch (kind_) {
    case Kind::uring:
      return n;
    case Kind::fattree:
      return 2 * n * levels_;
    case Kind::grid: {
      long long count = 0;
      for (const int s : side_) {
        if (wrap_) count += (s >= 3 ? 2 : s == 2 ? 1 : 0) * n;
        else count += 2LL * (s - 1) * (n / s);
      }
      return count;
    }
  }
  return -1;
}

bool FamilyMetric::adjacent(NodeId a, NodeId b) const {
  switch (kind_) {
    case Kind::uring:
      return b == (a + 1) % processors_;
    case Kind::grid:
      return a != b && a < processors_ && b < processors_ && distance(a, b) == 1;
    case Kind::fattree: {
      const long long half = processors_ / 2;
      auto level = [&](NodeId v) { return v < processors_ ? -1 : (v - processors_) / half; };
      auto word = [&](NodeId v) { return v < processors_ ? v / 2 : (v - processors_) % half; };
      const long long la = level(a), lb = level(b);
      if (la > lb) return adjacent(b, a);
      if (la == -1) return lb == 0 && word(b) == word(a);
      if (lb != la + 1) return false;
      return ((word(a) ^ word(b)) & ~(1LL << la)) == 0;
    }
  }
  return false;
}

FamilyMetric::Climb FamilyMetric::climb(NodeId from, NodeId to) const {
  const bool processor = from < processors_;
  const long long half = processors_ / 2;
  const long long level = processor ? 0 : (from - processors_) / half;
  const long long word = processor ? from / 2 : (from - processors_) % half;
  return {processor, level, (word ^ (to / 2)) >> level};
}

FamilyMetric::PairSums FamilyMetric::pair_sums() const {
  PairSums sums;
  const long long p = processors_;
  switch (kind_) {
    case Kind::uring:  // every processor sees distances 1..p-1 once
      sums.diameter = static_cast<int>(p - 1);
      sums.sigma = p * (p * (p - 1) / 2);
      break;
    case Kind::fattree:  // 2^l processors at 2(l + 1) hops from each, l < levels
      sums.diameter = 2 * levels_;
      for (int l = 0; l < levels_; ++l) sums.sigma += p * (1LL << l) * 2 * (l + 1);
      break;
    case Kind::grid:
      // Σ is a sum over dimensions: every pair of coordinates (i, j) along a side s is
      // met by (p / s)^2 ordered pairs of processors; Σ_(i,j) |i - j| = (s^3 - s) / 3 on a
      // path and Σ_(i,j) min(|i - j|, s - |i - j|) = s floor(s^2 / 4) on a cycle.
      for (const int side : side_) {
        const long long s = side, others = p / s;
        sums.diameter += wrap_ ? side / 2 : side - 1;
        sums.sigma += others * others * (wrap_ ? s * (s * s / 4) : (s * s * s - s) / 3);
      }
      break;
  }
  return sums;
}

std::vector<std::vector<char>> FamilyMetric::halving_cuts() const {
  std::vector<std::vector<char>> cuts;
  if (kind_ != Kind::grid) return cuts;
  for (std::size_t d = 0; d < side_.size(); ++d) {
    if (side_[d] % 2 != 0) continue;
    auto& side = cuts.emplace_back(processors_);
    for (NodeId v = 0; v < processors_; ++v)
      side[v] = static_cast<char>((v / stride_[d]) % side_[d] >= side_[d] / 2);
  }
  return cuts;
}

int FamilyMetric::distance(NodeId from, NodeId to) const {
  switch (kind_) {
    case Kind::uring:
      return static_cast<int>(((to - from) % processors_ + processors_) % processors_);
    case Kind::grid: {
      // Nodes are below 2^30 (of()), so coordinates and strides fit an int.
      int hops = 0;
      for (std::size_t i = 0; i < side_.size(); ++i) {
        const int s = side_[i], stride = static_cast<int>(stride_[i]);
        const int d = std::abs(from / stride % s - to / stride % s);
        hops += wrap_ ? std::min(d, s - d) : d;
      }
      return hops;
    }
    case Kind::fattree: {
      if (from == to) return 0;
      // From a processor: one hop to its level-0 switch, then as from that switch.
      const auto [processor, l, differ] = climb(from, to);
      const long long hops =
          differ == 0 ? l + 1  // down only
                      : 2 * (l + std::bit_width(static_cast<unsigned long long>(differ)) - 1) + 3 - l;
      return static_cast<int>(hops + (processor ? 1 : 0));
    }
  }
  return kUnreachable;
}

double FamilyMetric::ways(NodeId from, NodeId to) const {
  switch (kind_) {
    case Kind::uring:
      return 1.0;
    case Kind::grid: {
      // The multinomial (Σ parts)! / Π parts! of the hops per dimension, as a product of
      // binomials in doubles, times 2 per dimension where both ways round are shortest.
      double ties = 1.0, result = 1.0;
      int total = 0;
      for (std::size_t i = 0; i < side_.size(); ++i) {
        const int s = side_[i], stride = static_cast<int>(stride_[i]);
        const int d = std::abs(from / stride % s - to / stride % s);
        if (wrap_ && s >= 3 && 2 * d == s) ties *= 2.0;
        const int part = wrap_ ? std::min(d, s - d) : d;
        for (int k = 1; k <= part; ++k) result = result * (total + k) / k;
        total += part;
      }
      return ties * result;
    }
    case Kind::fattree: {
      if (from == to) return 1.0;
      const auto [processor, l, differ] = climb(from, to);
      // Up to level j + 1 (j the highest differing bit), choosing each bit on the way up;
      // the way down is forced.
      return differ == 0 ? 1.0
                         : static_cast<double>(1LL << std::bit_width(static_cast<unsigned long long>(differ)));
    }
  }
  return 0.0;
}

}  // namespace ccsched
