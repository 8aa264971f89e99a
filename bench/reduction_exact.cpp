// The exact reduction search alone (engines/reduction_sat.hpp), for docs/BENCHMARKS.md
// "Exact reductions": for one network, kind and port model, asks "does it fit in T
// steps?" for each T given and prints the answer, the seconds and the size of the
// encoding. Every schedule found is checked by verify_schedule.
//
//   cmake --build build/release --target reduction_exact
//   build/release/bench/reduction_exact hypercube:3 ALLREDUCE all 2 1
//     (SPEC KIND PORTS(1|all) T...)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "ccsched/engines/reduction_sat.hpp"
#include "ccsched/problem/problem.hpp"
#include "ccsched/routing/path_set.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

int main(int argc, char** argv) {
  using namespace ccsched;
  if (argc < 5) {
    std::fprintf(stderr, "usage: reduction_exact SPEC KIND PORTS(1|all) T...\n");
    return 2;
  }
  try {
    Problem p{load_topology(argv[1]), {}, {}};
    CollectiveRequest request;
    request.kind = parse_collective_kind(argv[2]);
    p.collective = make_collective(p.topology, request);
    p.model = default_model(p.topology);
    if (std::string(argv[3]) != "all") p.model.ports = std::atoi(argv[3]);
    const PathSet paths(p.topology, p.model);
    ReductionSatEngine engine({});
    const Budget budget(600.0);
    for (int a = 4; a < argc; ++a) {
      const int T = std::atoi(argv[a]);
      const EngineResult r = engine.solve(p, paths, T, budget);
      std::string check;
      if (r.schedule) check = verify_schedule(*r.schedule).empty() ? " verified" : " INVALID";
      std::printf("T=%d %s%s %.2f s %s\n", T, std::string(to_string(r.status)).c_str(),
                  check.c_str(), r.seconds, r.note.c_str());
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  return 0;
}
