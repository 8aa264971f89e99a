// Random small scheduling problems for the cross-check against the oracle (oracle.hpp):
// the test suite draws a fixed-seed sample, bench/crosscheck.sh a longer one from the same
// generator. Every problem can be rebuilt by the command line, so a disagreement can be
// replayed with `ccsched solve` (command()).
//
// Networks: rings (bi- and unidirectional), tori, meshes, hypercube:3, complete graphs,
// Kautz(2,2) and (2,3), de Bruijn(2,3), Petersen, the octagon, Omega and Butterfly 4/8,
// small Clos, binary and fat trees,
// fbtree:7, random digraphs and graphs with and without switches; one faulty link one time
// in four (only when the processors stay strongly connected). Collectives: every kind that
// has messages (OAB, AAB and AAS on tiny networks, OAS, AOG, MNB, MNS, PERM, CUSTOM), kept
// to about 1-6 messages. Model: 1, 2 or all ports; minimal, nonminimal:1, nonminimal:2
// or (rarely) nonminimal:4 routing; wormhole or (one time in five) store-and-forward; no
// combining.
#pragma once

#include <random>
#include <string>

#include "ccsched/problem/problem.hpp"

namespace ccsched::testing_support {

struct RandomProblem {
  Problem problem;
  std::string name;           // "problem-17": the stem of the files write_files writes
  std::string description;    // one line: network, fault, collective, model
  std::string network;        // the spec string, or empty when the network is a random one
  std::string topology_json;  // random networks: the ccsched-topology/1 document (faults applied)
  std::string message_list;   // CUSTOM and PERM-from-a-list: the --messages file's text
  std::string options;        // everything after the network: --cc ... --switching ...

  // Writes <dir>/<name>.json and <dir>/<name>.msg where needed.
  void write_files(const std::string& dir) const;
  // `ccsched solve ...` that rebuilds this problem from the files write_files(dir) wrote.
  std::string command(const std::string& dir) const;
};

// One random problem; deterministic for the generator's state. `index` only names it.
RandomProblem random_problem(std::mt19937_64& rng, int index);

}  // namespace ccsched::testing_support
