// Generators for every topology spec string of FORMATS.md ("kautz:3,2", "omega:8", ...),
// and the loader that takes either a spec string or a file path.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/topology/topology.hpp"

namespace ccsched {

struct SpecInfo {
  std::string name;         // "kautz"
  std::string syntax;       // "kautz:d,D"
  std::string description;  // one line
};

// Every spec the generators know, in the order `ccsched topo list` prints them.
const std::vector<SpecInfo>& spec_catalogue();

// Builds the network a spec string names. Throws InvalidParameter (unknown spec, bad
// parameters) naming the spec string.
Topology make_topology(std::string_view spec);

// Size limits of make_topology: a spec whose network would exceed them is refused with
// InvalidParameter before anything is built. The defaults guard against typos such as
// "hypercube:40"; the fuzz targets pass smaller ones.
struct SpecLimits {
  long long max_nodes = 1'000'000;
  long long max_channels = 20'000'000;
};
Topology make_topology(std::string_view spec, const SpecLimits& limits);

// The letter of symbol x (0..35) in the labels of Kautz and de Bruijn words: 0-9, then a-z.
char word_letter(int x);

// True when `t` is exactly the network its name generates (make_topology(t.name()): same
// nodes, labels and channels). Designs that rely on a family's structure (grids, fat
// trees) recognise it this way, so a faulty copy, a file with another wiring or other
// labels, or a name that is no spec gets no design.
bool is_generated(const Topology& t);

// The family and sides a network's name promises, read from the name alone: the one
// parser of generated names the designs use (docs/ARCHITECTURE.md, "Modules"). torus and
// mesh: the dimensions (row-major, last fastest, as make_topology numbers the nodes); ring
// and uring: {N}; hypercube: n twos. Nothing for other names. The name is trusted for the
// numbering only (a faulty copy keeps its name): a caller that needs the exact network
// also asks is_generated, and callers route over the channels that exist.
struct Family {
  std::string name;        // "torus", "mesh", "ring", "uring", "hypercube"
  std::vector<int> sides;
};
std::optional<Family> family_of(const Topology& t);

// Nodes of a torus, ring or hypercube as elements of Z_{r_1} x ... x Z_{r_n} (mixed radix,
// most significant digit first, as make_topology numbers them): a + sign * b, digit by
// digit modulo the radix (sign +1 or -1). The translations of these Cayley graphs.
int group_op(const std::vector<int>& radix, int a, int b, int sign);

// A spec string, or a path ending .json/.dot/.gv/.edges/.anynet (read by io.hpp).
// Throws InvalidInput / InvalidParameter; checks that the processors are strongly
// connected (a network where some processor cannot reach another is refused).
Topology load_topology(std::string_view spec_or_path);

// The check load_topology makes, for networks built otherwise (the Python module's
// NetworkX graphs): throws InvalidInput at `where` when the network has no processors or
// some processor cannot reach another.
void check_processors_strongly_connected(const Topology& t, const std::string& where);

}  // namespace ccsched
