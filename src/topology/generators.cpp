// Generators for every topology spec string of FORMATS.md, and the loader that takes a
// spec string or a file path. Each generator builds a Topology whose node ids are dense
// and deterministic, so that the same spec always gives the same ids (schedules refer to
// nodes by id). Processors come first wherever the network has switches, so processor ids
// are 0..P-1 and the ids a user types for --root etc. are the natural ones.
//
// The constructions are documented in docs/TOPOLOGIES.md; the multistage networks follow
// seed 001, section 2 (Omega: perfect shuffle before every stage; Butterfly: butterfly
// permutations between stages; Clos n,m,r; fat tree = folded Butterfly of Fig. 3).
#include "ccsched/topology/generators.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <exception>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/invariants.hpp"
#include "ccsched/topology/io.hpp"

namespace ccsched {

char word_letter(int x) { return static_cast<char>(x < 10 ? '0' + x : 'a' + (x - 10)); }

namespace {

// The spec string being built; every parameter error names it. It also carries the size
// limits (SpecLimits guards against a typo such as "hypercube:40" allocating the machine
// away).
struct SpecError {
  std::string spec;
  SpecLimits limits;
  [[noreturn]] void fail(const std::string& what) const { throw InvalidParameter(what, spec); }
};

// A strictly decimal non-negative integer (no sign, no spaces), at most 9 digits.
std::optional<long long> parse_int(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  long long value = 0;
  const auto* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc{} || ptr != end) return std::nullopt;
  return value;
}

std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto pos = text.find(sep, start);
    parts.push_back(text.substr(start, pos == std::string_view::npos ? pos : pos - start));
    if (pos == std::string_view::npos) break;
    start = pos + 1;
  }
  return parts;
}

// Parses `count` integers separated by `sep` ("3,2", "4x4x4" with count 0 = 2 or 3).
std::vector<long long> parse_ints(const SpecError& err, std::string_view params, char sep,
                                  std::size_t min_count, std::size_t max_count,
                                  std::string_view syntax) {
  if (params.empty()) err.fail(fmt::format("missing parameters; expected {}", syntax));
  const auto parts = split(params, sep);
  if (parts.size() < min_count || parts.size() > max_count)
    err.fail(fmt::format("wrong number of parameters; expected {}", syntax));
  std::vector<long long> values;
  for (const auto part : parts) {
    const auto v = parse_int(part);
    if (!v) err.fail(fmt::format("'{}' is not a non-negative integer; expected {}", part, syntax));
    values.push_back(*v);
  }
  return values;
}

void check_size(const SpecError& err, long long nodes, long long channels) {
  if (nodes > err.limits.max_nodes || channels > err.limits.max_channels)
    err.fail(fmt::format("network too large ({} nodes, {} channels; limit {} nodes, {} channels)",
                         nodes, channels, err.limits.max_nodes, err.limits.max_channels));
}

bool is_power_of_two(long long n) { return n >= 1 && (n & (n - 1)) == 0; }

int log2_exact(long long n) {
  int k = 0;
  while ((1LL << k) < n) ++k;
  return k;
}

// Adds a full-duplex link unless it exists already (tori of side 2, rings of 2).
void link_once(Topology& t, NodeId a, NodeId b) {
  if (a == b) return;
  if (!t.has_channel(a, b)) t.add_channel(a, b);
  if (!t.has_channel(b, a)) t.add_channel(b, a);
}

void channel_once(Topology& t, NodeId a, NodeId b) {
  if (a != b && !t.has_channel(a, b)) t.add_channel(a, b);
}

Topology processors_only(std::string name, long long n) {
  Topology t(std::move(name));
  for (long long i = 0; i < n; ++i) t.add_node(NodeKind::processor);
  return t;
}

// --- direct networks ---------------------------------------------------------------------

Topology make_ring(const SpecError& err, std::string_view params, bool bidirectional) {
  const auto v = parse_ints(err, params, ',', 1, 1, bidirectional ? "ring:N" : "uring:N");
  const long long n = v[0];
  if (n < 2) err.fail("a ring needs N >= 2 processors");
  check_size(err, n, 2 * n);
  auto t = processors_only(fmt::format("{}:{}", bidirectional ? "ring" : "uring", n), n);
  for (long long i = 0; i < n; ++i) {
    const auto next = static_cast<NodeId>((i + 1) % n);
    if (bidirectional)
      link_once(t, static_cast<NodeId>(i), next);
    else
      channel_once(t, static_cast<NodeId>(i), next);
  }
  return t;
}

// Mesh and torus: coordinates in row-major order (last coordinate fastest), labelled
// "(i,j)" / "(i,j,k)"; neighbours differ by one in one coordinate (with wrap-around on a
// torus).
Topology make_grid(const SpecError& err, std::string_view params, bool wrap) {
  const auto syntax = wrap ? "torus:AxB or torus:AxBxC" : "mesh:AxB or mesh:AxBxC";
  const auto dims = parse_ints(err, params, 'x', 2, 3, syntax);
  long long n = 1;
  for (const auto d : dims) {
    if (d < 1) err.fail("every side must be at least 1");
    n *= d;
    check_size(err, n, 0);
  }
  if (n < 2) err.fail("the network needs at least 2 processors");
  check_size(err, n, 2 * static_cast<long long>(dims.size()) * n);
  std::string name = wrap ? "torus:" : "mesh:";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) name += 'x';
    name += std::to_string(dims[i]);
  }
  Topology t(name);
  std::vector<long long> stride(dims.size(), 1);
  for (std::size_t i = dims.size() - 1; i-- > 0;) stride[i] = stride[i + 1] * dims[i + 1];
  for (long long id = 0; id < n; ++id) {
    std::string label = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) {
      if (i) label += ',';
      label += std::to_string(id / stride[i] % dims[i]);
    }
    label += ')';
    t.add_node(NodeKind::processor, label);
  }
  for (long long id = 0; id < n; ++id)
    for (std::size_t i = 0; i < dims.size(); ++i) {
      const long long c = id / stride[i] % dims[i];
      if (c + 1 < dims[i])
        link_once(t, static_cast<NodeId>(id), static_cast<NodeId>(id + stride[i]));
      else if (wrap && dims[i] > 1)
        link_once(t, static_cast<NodeId>(id), static_cast<NodeId>(id - c * stride[i]));
    }
  return t;
}

Topology make_hypercube(const SpecError& err, std::string_view params) {
  const auto v = parse_ints(err, params, ',', 1, 1, "hypercube:n");
  const long long dim = v[0];
  if (dim < 1) err.fail("the dimension must be at least 1");
  if (dim > 30) err.fail("network too large (dimension above 30)");
  const long long n = 1LL << dim;
  check_size(err, n, n * dim);
  auto t = processors_only(fmt::format("hypercube:{}", dim), n);
  for (long long u = 0; u < n; ++u)
    for (long long b = 0; b < dim; ++b) {
      const long long w = u ^ (1LL << b);
      t.add_channel(static_cast<NodeId>(u), static_cast<NodeId>(w));
    }
  return t;
}

Topology make_complete(const SpecError& err, std::string_view params) {
  const auto v = parse_ints(err, params, ',', 1, 1, "complete:N");
  const long long n = v[0];
  if (n < 2) err.fail("a complete network needs N >= 2 processors");
  check_size(err, n, n * (n - 1));
  auto t = processors_only(fmt::format("complete:{}", n), n);
  for (long long u = 0; u < n; ++u)
    for (long long w = 0; w < n; ++w)
      if (u != w) t.add_channel(static_cast<NodeId>(u), static_cast<NodeId>(w));
  return t;
}

// N-gon: an N-ring with a chord from every node to the opposite one (the Octagon NoC for
// N = 8; seed 000 uses N = 8 and N = 16).
Topology make_ngon(const SpecError& err, long long n, std::string name) {
  if (n < 4 || n % 2 != 0) err.fail("an N-gon needs an even N >= 4");
  check_size(err, n, 3 * n);
  auto t = processors_only(std::move(name), n);
  for (long long i = 0; i < n; ++i)
    link_once(t, static_cast<NodeId>(i), static_cast<NodeId>((i + 1) % n));
  for (long long i = 0; i < n / 2; ++i)
    link_once(t, static_cast<NodeId>(i), static_cast<NodeId>(i + n / 2));
  return t;
}

// A cubic Hamiltonian graph from LCF notation: an n-cycle plus, from node i, a chord to
// i + shifts[i mod |shifts|] (Heawood [5,-5]^7, Tutte–Coxeter [-13,-9,7,-7,9,13]^5).
Topology make_lcf(std::string name, int n, const std::vector<int>& shifts) {
  auto t = processors_only(std::move(name), n);
  for (int i = 0; i < n; ++i) link_once(t, i, (i + 1) % n);
  for (int i = 0; i < n; ++i) {
    const int j = ((i + shifts[i % shifts.size()]) % n + n) % n;
    link_once(t, i, j);
  }
  return t;
}

// Petersen: outer 5-cycle 0..4, inner pentagram 5..9, spokes i -- i+5.
Topology make_petersen() {
  auto t = processors_only("petersen", 10);
  for (int i = 0; i < 5; ++i) {
    link_once(t, i, (i + 1) % 5);
    link_once(t, 5 + i, 5 + (i + 2) % 5);
    link_once(t, i, 5 + i);
  }
  return t;
}

// Hoffman–Singleton by Robertson's construction: pentagons P_h (nodes 5h + j, j ~ j±1)
// and pentagrams Q_i (nodes 25 + 5i + j, j ~ j±2); node j of P_h is joined to node
// h*i + j (mod 5) of Q_i.
Topology make_hoffman_singleton() {
  auto t = processors_only("hoffman-singleton", 50);
  for (int h = 0; h < 5; ++h)
    for (int j = 0; j < 5; ++j) {
      link_once(t, 5 * h + j, 5 * h + (j + 1) % 5);
      link_once(t, 25 + 5 * h + j, 25 + 5 * h + (j + 2) % 5);
    }
  for (int h = 0; h < 5; ++h)
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 5; ++j) link_once(t, 5 * h + j, 25 + 5 * i + (h * i + j) % 5);
  return t;
}

// The utility graph K3,3: processors 0,1,2 on one side, 3,4,5 on the other.
Topology make_utility() {
  auto t = processors_only("utility", 6);
  for (int a = 0; a < 3; ++a)
    for (int b = 3; b < 6; ++b) link_once(t, a, b);
  return t;
}

// Kautz digraph K(d, D): words a1..aD over {0..d} with a_i != a_{i+1}, in lexicographic
// order; channel a1..aD -> a2..aD x for every x != aD (seed 000, section 2).
Topology make_kautz(const SpecError& err, std::string_view params) {
  const auto v = parse_ints(err, params, ',', 2, 2, "kautz:d,D");
  const long long d = v[0], big_d = v[1];
  if (d < 1) err.fail("the degree d must be at least 1");
  if (big_d < 1) err.fail("the diameter D must be at least 1");
  if (d > 35) err.fail("the degree d must be at most 35 (one letter per symbol)");
  // Labels are words of D letters built by a depth-first walk D calls deep; K(1, D) has
  // only 2 nodes whatever D is, so the node limit alone would let "kautz:1,999999999"
  // exhaust the stack.
  if (big_d > 64) err.fail("the diameter D must be at most 64");
  long long n = d + 1;
  for (long long i = 1; i < big_d; ++i) {
    n *= d;
    check_size(err, n, n * d);
  }
  check_size(err, n, n * d);
  // Enumerate words in lexicographic order by a depth-first walk.
  std::vector<std::string> words;
  std::string word;
  std::function<void()> extend = [&] {
    if (static_cast<long long>(word.size()) == big_d) {
      words.push_back(word);
      return;
    }
    for (int x = 0; x <= d; ++x) {
      if (!word.empty() && word.back() == word_letter(x)) continue;
      word.push_back(word_letter(x));
      extend();
      word.pop_back();
    }
  };
  extend();
  Topology t(fmt::format("kautz:{},{}", d, big_d));
  std::map<std::string, NodeId> index;
  for (const auto& w : words) index[w] = t.add_node(NodeKind::processor, w);
  for (const auto& w : words)
    for (int x = 0; x <= d; ++x) {
      if (word_letter(x) == w.back()) continue;
      const auto target = w.substr(1) + word_letter(x);
      channel_once(t, index.at(w), index.at(target));
    }
  return t;
}

// de Bruijn digraph B(d, D): all words of length D over {0..d-1}; channel a1..aD ->
// a2..aD x; self-loops (constant words) dropped, duplicates merged.
Topology make_debruijn(const SpecError& err, std::string_view params) {
  const auto v = parse_ints(err, params, ',', 2, 2, "debruijn:d,D");
  const long long d = v[0], big_d = v[1];
  if (d < 2) err.fail("the alphabet size d must be at least 2");
  if (big_d < 1) err.fail("the word length D must be at least 1");
  if (d > 36) err.fail("the alphabet size d must be at most 36 (one letter per symbol)");
  long long n = 1;
  for (long long i = 0; i < big_d; ++i) {
    n *= d;
    check_size(err, n, n * d);
  }
  Topology t(fmt::format("debruijn:{},{}", d, big_d));
  for (long long id = 0; id < n; ++id) {
    std::string w(static_cast<std::size_t>(big_d), '0');
    long long rest = id;
    for (long long i = big_d - 1; i >= 0; --i) {
      w[i] = word_letter(static_cast<int>(rest % d));
      rest /= d;
    }
    t.add_node(NodeKind::processor, w);
  }
  for (long long id = 0; id < n; ++id)
    for (long long x = 0; x < d; ++x)
      channel_once(t, static_cast<NodeId>(id), static_cast<NodeId>((id * d) % n + x));
  return t;
}

// --- multistage and tree networks --------------------------------------------------------

std::string switch_label(long long stage, long long row) {
  return fmt::format("s{}.{}", stage, row);
}

// Omega and Butterfly (seed 001, Fig. 1): N processors 0..N-1, then n = log2 N stages of
// N/2 2x2 switches (switch "s<stage>.<row>" has ports 2 row and 2 row + 1). Processor i
// enters through input port i, leaves from output port i of the last stage.
//   Omega: a perfect shuffle (rotate the n-bit port number left) before every stage,
//          including the first.
//   Butterfly: no permutation before the first stage; between stage s and s+1 the
//          butterfly permutation that swaps bit 0 and bit n-1-s of the port number.
// Each stage fixes bit 0 of the port, so each input reaches each output by exactly one
// path of n + 1 channels.
Topology make_min(const SpecError& err, std::string_view params, bool omega) {
  const auto v = parse_ints(err, params, ',', 1, 1, omega ? "omega:N" : "butterfly:N");
  const long long n_terms = v[0];
  if (n_terms < 2 || !is_power_of_two(n_terms)) err.fail("N must be a power of two >= 2");
  const int stages = log2_exact(n_terms);
  check_size(err, n_terms + n_terms / 2 * stages, 2 * n_terms * (stages + 1));
  auto t = processors_only(fmt::format("{}:{}", omega ? "omega" : "butterfly", n_terms), n_terms);
  const long long half = n_terms / 2;
  std::vector<std::vector<NodeId>> sw(stages);
  for (int s = 0; s < stages; ++s)
    for (long long r = 0; r < half; ++r)
      sw[s].push_back(t.add_node(NodeKind::switch_node, switch_label(s, r)));
  const auto shuffle = [&](long long p) {
    return ((p << 1) | (p >> (stages - 1))) & (n_terms - 1);
  };
  const auto butterfly = [&](long long p, int k) {  // swap bit 0 and bit k
    const long long b0 = p & 1, bk = (p >> k) & 1;
    return (p & ~(1LL | (1LL << k))) | (b0 << k) | bk;
  };
  for (long long i = 0; i < n_terms; ++i) {
    const long long port = omega ? shuffle(i) : i;
    t.add_channel(static_cast<NodeId>(i), sw[0][port / 2]);
  }
  for (int s = 0; s + 1 < stages; ++s)
    for (long long p = 0; p < n_terms; ++p) {
      const long long q = omega ? shuffle(p) : butterfly(p, stages - 1 - s);
      channel_once(t, sw[s][p / 2], sw[s + 1][q / 2]);
    }
  for (long long p = 0; p < n_terms; ++p)
    t.add_channel(sw[stages - 1][p / 2], static_cast<NodeId>(p));
  return t;
}

// Clos n,m,r (seed 001, Fig. 2): terminals 0..n r-1; terminal i n + k enters input switch
// "s0.i" and leaves output switch "s2.i"; every input switch feeds every middle switch
// "s1.j", every middle switch feeds every output switch.
Topology make_clos(const SpecError& err, std::string_view params) {
  const auto v = parse_ints(err, params, ',', 3, 3, "clos:n,m,r");
  const long long n = v[0], m = v[1], r = v[2];
  if (n < 1 || m < 1 || r < 1) err.fail("n, m and r must be at least 1");
  if (n * r < 2) err.fail("the network needs at least 2 terminals");
  check_size(err, n * r + 2 * r + m, 2 * n * r + 2 * r * m);
  auto t = processors_only(fmt::format("clos:{},{},{}", n, m, r), n * r);
  std::vector<NodeId> in(r), mid(m), out(r);
  for (long long i = 0; i < r; ++i) in[i] = t.add_node(NodeKind::switch_node, switch_label(0, i));
  for (long long j = 0; j < m; ++j) mid[j] = t.add_node(NodeKind::switch_node, switch_label(1, j));
  for (long long i = 0; i < r; ++i) out[i] = t.add_node(NodeKind::switch_node, switch_label(2, i));
  for (long long p = 0; p < n * r; ++p) t.add_channel(static_cast<NodeId>(p), in[p / n]);
  for (long long i = 0; i < r; ++i)
    for (long long j = 0; j < m; ++j) t.add_channel(in[i], mid[j]);
  for (long long j = 0; j < m; ++j)
    for (long long i = 0; i < r; ++i) t.add_channel(mid[j], out[i]);
  for (long long p = 0; p < n * r; ++p) t.add_channel(out[p / n], static_cast<NodeId>(p));
  return t;
}

// Binary tree with N = 2^n processors at the leaves (seed 001, "B-Tree"): switch
// "s<l>.<i>" at level l = 0..n-1 (level 0 next to the processors, the root at n-1) has
// children s<l-1>.<2i>, s<l-1>.<2i+1>; s0.<i> holds processors 2i and 2i+1. Full duplex.
Topology make_btree(const SpecError& err, std::string_view params) {
  const auto v = parse_ints(err, params, ',', 1, 1, "btree:N");
  const long long n_terms = v[0];
  if (n_terms < 2 || !is_power_of_two(n_terms)) err.fail("N must be a power of two >= 2");
  const int levels = log2_exact(n_terms);
  check_size(err, 2 * n_terms, 4 * n_terms);
  auto t = processors_only(fmt::format("btree:{}", n_terms), n_terms);
  std::vector<std::vector<NodeId>> sw(levels);
  for (int l = 0; l < levels; ++l)
    for (long long i = 0; i < (n_terms >> (l + 1)); ++i)
      sw[l].push_back(t.add_node(NodeKind::switch_node, switch_label(l, i)));
  for (long long p = 0; p < n_terms; ++p) t.add_link(sw[0][p / 2], static_cast<NodeId>(p));
  for (int l = 1; l < levels; ++l)
    for (long long i = 0; i < (n_terms >> (l + 1)); ++i)
      for (long long c = 0; c < 2; ++c) t.add_link(sw[l][i], sw[l - 1][2 * i + c]);
  return t;
}

// Binary fat tree = folded Butterfly (seed 001, Fig. 3), i.e. the 2-ary n-tree: N = 2^n
// processors, n levels of N/2 switches "s<l>.<w>" (w an (n-1)-bit word). s0.<w> holds
// processors 2w and 2w+1; s<l>.<w> is linked to s<l+1>.<w'> for the two w' that agree
// with w in every bit except bit l. Folding the two back-to-back Butterflies merges stage
// l with its mirror into one 4x4 switch (2 ports down, 2 up); the top level has only its
// 2 down ports. Full duplex: (N/2) n switches, N n links.
Topology make_fattree(const SpecError& err, std::string_view params) {
  const auto v = parse_ints(err, params, ',', 1, 1, "fattree:N");
  const long long n_terms = v[0];
  if (n_terms < 2 || !is_power_of_two(n_terms)) err.fail("N must be a power of two >= 2");
  const int levels = log2_exact(n_terms);
  const long long half = n_terms / 2;
  check_size(err, n_terms + half * levels, 2 * n_terms * levels);
  auto t = processors_only(fmt::format("fattree:{}", n_terms), n_terms);
  std::vector<std::vector<NodeId>> sw(levels);
  for (int l = 0; l < levels; ++l)
    for (long long w = 0; w < half; ++w)
      sw[l].push_back(t.add_node(NodeKind::switch_node, switch_label(l, w)));
  for (long long p = 0; p < n_terms; ++p) t.add_link(sw[0][p / 2], static_cast<NodeId>(p));
  for (int l = 0; l + 1 < levels; ++l)
    for (long long w = 0; w < half; ++w)
      for (long long b = 0; b < 2; ++b) {
        const long long up = (w & ~(1LL << l)) | (b << l);
        t.add_link(sw[l][w], sw[l + 1][up]);
      }
  return t;
}

// Full binary tree of N = 2^h - 1 processors in heap order: node i has children 2i+1 and
// 2i+2 (seed 001, "FB-Tree": every node a processor).
Topology make_fbtree(const SpecError& err, std::string_view params) {
  const auto v = parse_ints(err, params, ',', 1, 1, "fbtree:N");
  const long long n = v[0];
  if (n < 3 || !is_power_of_two(n + 1)) err.fail("N must be 2^h - 1 with h >= 2");
  check_size(err, n, 2 * n);
  auto t = processors_only(fmt::format("fbtree:{}", n), n);
  for (long long i = 1; i < n; ++i)
    t.add_link(static_cast<NodeId>((i - 1) / 2), static_cast<NodeId>(i));
  return t;
}

Topology make_spec(std::string_view spec, const SpecLimits& limits);

// fat:SPEC,c: every processor of SPEC becomes a router (switch) with c processors
// attached by one full-duplex channel each (seed 002's fat Octagon is fat:octagon,2).
// New processors come first: processor j (0..c-1) of router u is u c + j, labelled
// "<u>.<j>" after the router's display name; the routers keep their SPEC order after them
// and are labelled "r<name>". Switches of SPEC stay switches (labelled "r<name>" too).
Topology make_fat(const SpecError& err, std::string_view params) {
  const auto comma = params.rfind(',');
  if (comma == std::string_view::npos || comma == 0)
    err.fail("expected fat:SPEC,c (e.g. fat:octagon,2)");
  const auto c = parse_int(params.substr(comma + 1));
  if (!c)
    err.fail(fmt::format("'{}' is not a non-negative integer; expected fat:SPEC,c",
                         params.substr(comma + 1)));
  if (*c < 1) err.fail("c must be at least 1");
  const auto inner_spec = params.substr(0, comma);
  const Topology inner = [&] {
    try {
      return make_spec(inner_spec, err.limits);
    } catch (const InvalidParameter& e) {
      err.fail(e.problem());  // name the whole spec, not just its inner part
    }
  }();
  const long long p = inner.processor_count();
  check_size(err, p * *c + inner.node_count(), inner.channel_count() + 2 * p * *c);
  Topology t(fmt::format("fat:{},{}", inner.name(), *c));
  for (const auto u : inner.processors())
    for (long long j = 0; j < *c; ++j)
      t.add_node(NodeKind::processor, fmt::format("{}.{}", inner.display_name(u), j));
  const auto base = static_cast<NodeId>(t.node_count());
  for (NodeId u = 0; u < inner.node_count(); ++u)
    t.add_node(NodeKind::switch_node, fmt::format("r{}", inner.display_name(u)));
  for (const auto& ch : inner.channels()) t.add_channel(base + ch.from, base + ch.to);
  NodeId next = 0;
  for (const auto u : inner.processors())
    for (long long j = 0; j < *c; ++j) t.add_link(base + u, next++);
  return t;
}

// Lower case, and spaces dropped at the ends and next to ':' and ',' ("Kautz:3, 2" is
// kautz:3,2); a space anywhere else ("ring:3 4") stays and makes the spec invalid.
std::string normalise(std::string_view spec) {
  const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  for (std::size_t i = 0; i < spec.size(); ++i) {
    const char c = spec[i];
    if (is_space(c)) {
      std::size_t next = i;
      while (next < spec.size() && is_space(spec[next])) ++next;
      const bool at_edge = out.empty() || out.back() == ':' || out.back() == ',' ||
                           next == spec.size() || spec[next] == ':' || spec[next] == ',';
      if (!at_edge) out.push_back(' ');
      i = next - 1;
      continue;
    }
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

Topology make_spec(std::string_view raw, const SpecLimits& limits) {
  const std::string spec = normalise(raw);
  const SpecError err{std::string(raw), limits};
  if (spec.empty()) err.fail("empty topology spec");
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  const std::string_view params =
      colon == std::string::npos ? std::string_view{} : std::string_view(spec).substr(colon + 1);
  const bool has_params = colon != std::string::npos;
  const auto no_params = [&](Topology (*make)()) {
    if (has_params) err.fail(fmt::format("'{}' takes no parameters", kind));
    return make();
  };
  if (kind == "ring") return make_ring(err, params, true);
  if (kind == "uring") return make_ring(err, params, false);
  if (kind == "mesh") return make_grid(err, params, false);
  if (kind == "torus") return make_grid(err, params, true);
  if (kind == "hypercube") return make_hypercube(err, params);
  if (kind == "complete") return make_complete(err, params);
  if (kind == "octagon") {
    if (has_params) err.fail("'octagon' takes no parameters (use ngon:N)");
    return make_ngon(err, 8, "octagon");
  }
  if (kind == "ngon") {
    const auto v = parse_ints(err, params, ',', 1, 1, "ngon:N");
    return make_ngon(err, v[0], fmt::format("ngon:{}", v[0]));
  }
  if (kind == "petersen") return no_params(make_petersen);
  if (kind == "heawood") return no_params([] { return make_lcf("heawood", 14, {5, -5}); });
  if (kind == "levi")
    return no_params([] { return make_lcf("levi", 30, {-13, -9, 7, -7, 9, 13}); });
  if (kind == "hoffman-singleton") return no_params(make_hoffman_singleton);
  if (kind == "utility") return no_params(make_utility);
  if (kind == "kautz") return make_kautz(err, params);
  if (kind == "debruijn") return make_debruijn(err, params);
  if (kind == "omega") return make_min(err, params, true);
  if (kind == "butterfly") return make_min(err, params, false);
  if (kind == "clos") return make_clos(err, params);
  if (kind == "btree") return make_btree(err, params);
  if (kind == "fattree") return make_fattree(err, params);
  if (kind == "fbtree") return make_fbtree(err, params);
  if (kind == "fat") return make_fat(err, params);
  err.fail(fmt::format("unknown topology '{}' (see `ccsched topo list`)", kind));
}

bool has_file_extension(std::string_view text) {
  for (const std::string_view ext : {".json", ".dot", ".gv", ".edges", ".anynet"})
    if (text.size() > ext.size() && text.substr(text.size() - ext.size()) == ext) return true;
  return false;
}

}  // namespace

// Every processor must reach every other one (through switches if need be); otherwise no
// collective over all processors exists. One forward and one backward search from the
// first processor decide it.
void check_processors_strongly_connected(const Topology& t, const std::string& where) {
  if (t.processor_count() == 0) throw InvalidInput("the network has no processors", where);
  const NodeId root = t.processors()[0];
  const auto fwd = reachable(t, root, true);
  for (const auto p : t.processors())
    if (!fwd[p])
      throw InvalidInput(fmt::format("processors are not strongly connected: {} cannot reach {}",
                                     t.display_name(root), t.display_name(p)),
                         where);
  const auto bwd = reachable(t, root, false);
  for (const auto p : t.processors())
    if (!bwd[p])
      throw InvalidInput(fmt::format("processors are not strongly connected: {} cannot reach {}",
                                     t.display_name(p), t.display_name(root)),
                         where);
}

const std::vector<SpecInfo>& spec_catalogue() {
  static const std::vector<SpecInfo> catalogue = {
      {"ring", "ring:N", "bidirectional ring of N processors"},
      {"uring", "uring:N", "unidirectional ring of N processors (i -> i+1)"},
      {"mesh", "mesh:AxB | mesh:AxBxC", "2-D / 3-D mesh, nodes labelled by coordinates"},
      {"torus", "torus:AxB | torus:AxBxC", "2-D / 3-D torus (mesh with wrap-around)"},
      {"hypercube", "hypercube:n", "n-dimensional hypercube, 2^n processors"},
      {"complete", "complete:N", "fully connected network of N processors"},
      {"octagon", "octagon", "the Octagon NoC: 8-ring plus chords i -- i+4 (= ngon:8)"},
      {"ngon", "ngon:N", "N-ring (N even) with chords i -- i+N/2"},
      {"petersen", "petersen", "Petersen graph: Moore graph, 10 nodes, degree 3, diameter 2"},
      {"heawood", "heawood", "Heawood graph: (3,6)-cage, 14 nodes, diameter 3"},
      {"levi", "levi", "Levi / Tutte-Coxeter graph: (3,8)-cage, 30 nodes, diameter 4"},
      {"hoffman-singleton", "hoffman-singleton",
       "Hoffman-Singleton graph: Moore graph, 50 nodes, degree 7, diameter 2"},
      {"utility", "utility", "utility graph K3,3: 6 nodes, degree 3, girth 4"},
      {"kautz", "kautz:d,D",
       "Kautz digraph, out-degree d, diameter D, (d+1)d^(D-1) processors labelled by words"},
      {"debruijn", "debruijn:d,D", "de Bruijn digraph, d^D processors (self-loops dropped)"},
      {"omega", "omega:N", "unidirectional Omega MIN, N terminals, log2 N stages of 2x2 switches"},
      {"butterfly", "butterfly:N",
       "unidirectional Butterfly MIN, N terminals, log2 N stages of 2x2 switches"},
      {"clos", "clos:n,m,r", "unidirectional 3-stage Clos network, n*r terminals"},
      {"btree", "btree:N", "binary tree, N = 2^n processors at the leaves, switches inside"},
      {"fattree", "fattree:N", "binary fat tree (folded Butterfly), N = 2^n processors"},
      {"fbtree", "fbtree:N", "full binary tree of N = 2^h - 1 processors"},
      {"fat", "fat:SPEC,c", "every processor of SPEC becomes a router with c processors attached"},
  };
  return catalogue;
}

Topology make_topology(std::string_view spec) { return make_spec(spec, SpecLimits{}); }

Topology make_topology(std::string_view spec, const SpecLimits& limits) {
  return make_spec(spec, limits);
}

bool is_generated(const Topology& t) {
  try {
    return make_topology(t.name()).same_network(t);
  } catch (const std::exception&) {
    return false;
  }
}

int group_op(const std::vector<int>& radix, int a, int b, int sign) {
  int result = 0, place = 1;
  for (std::size_t i = radix.size(); i-- > 0;) {
    const int r = radix[i];
    const int d = ((a % r + sign * (b % r)) % r + r) % r;
    a /= r;
    b /= r;
    result += d * place;
    place *= r;
  }
  return result;
}

std::optional<Family> family_of(const Topology& t) {
  const std::string& name = t.name();
  const auto colon = name.find(':');
  if (colon == std::string::npos) return std::nullopt;
  Family f{name.substr(0, colon), {}};
  const bool grid = f.name == "torus" || f.name == "mesh";
  if (!grid && f.name != "ring" && f.name != "uring" && f.name != "hypercube") return std::nullopt;
  std::string_view params = std::string_view(name).substr(colon + 1);
  while (true) {
    const auto cut = params.find(grid ? 'x' : ',');
    const auto part = params.substr(0, cut);
    int value = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (ec != std::errc() || end != part.data() + part.size() || value < 1) return std::nullopt;
    f.sides.push_back(value);
    if (cut == std::string_view::npos) break;
    params.remove_prefix(cut + 1);
  }
  if (grid ? f.sides.size() > 3 : f.sides.size() != 1) return std::nullopt;
  if (f.name == "hypercube") {
    if (f.sides[0] > 30) return std::nullopt;
    f.sides.assign(f.sides[0], 2);
  }
  return f;
}

namespace {

// A spec string that no generator knows but that names something on disk: a path without
// a topology extension, which would otherwise be refused as an unknown family, naming
// neither the path nor what is wrong with it.
void refuse_path_without_extension(std::string_view text) {
  std::error_code ec;
  const auto status = std::filesystem::status(std::string(text), ec);
  if (ec || !std::filesystem::exists(status)) return;
  if (std::filesystem::is_directory(status))
    throw InvalidInput(
        "is a directory, not a network (give a spec such as kautz:3,2, or a "
        ".json, .dot, .gv, .edges or .anynet file)",
        std::string(text));
  throw InvalidInput(
      "is a file without a topology extension (.json, .dot, .gv, .edges or "
      ".anynet name its format)",
      std::string(text));
}

Topology spec_or_file(std::string_view spec_or_path) {
  if (has_file_extension(spec_or_path)) return read_topology_file(std::string(spec_or_path));
  try {
    return make_topology(spec_or_path);
  } catch (const Error&) {
    refuse_path_without_extension(spec_or_path);
    throw;
  }
}

}  // namespace

Topology load_topology(std::string_view spec_or_path) {
  Topology t = spec_or_file(spec_or_path);
  const bool is_file = has_file_extension(spec_or_path);
  const std::string where = is_file ? std::string(spec_or_path) : t.name();
  if (is_file && t.name().empty()) t.set_name(where);  // an unnamed file is named by its path
  check_processors_strongly_connected(t, where);
  return t;
}

}  // namespace ccsched
