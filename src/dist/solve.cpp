// solve_islands: the driver with this rank as one island (see islands.hpp), and the
// island parameters' table (it feeds `ccsched solve --help` under mpirun builds).
#include <array>

#include "ccsched/core/error.hpp"
#include "ccsched/dist/islands.hpp"
#include "mpi_island.hpp"

namespace ccsched::dist {
namespace {

const std::array<ParamSpec<DistParams>, 2> kTable{{
    {"migration-interval", &DistParams::interval, 1, 1e9,
     "generations (umda, mboa) or epochs (hgsa) between island meetings under mpirun"},
    {"migrants", &DistParams::migrants, 0, 1e6,
     "best individuals each island sends to the next on the ring per meeting"},
}};

}  // namespace

std::span<const ParamSpec<DistParams>> dist_param_table() { return kTable; }

SolveOutcome solve_islands(const Problem& problem, SolveRequest request, const DistParams& params,
                           const MpiSession& session) {
  if (request.engine != "umda" && request.engine != "hgsa" && request.engine != "mboa")
    throw Unsupported("only the evolutionary engines (umda, hgsa, mboa) run as islands",
                      "--engine");
  request.options.island = make_mpi_link(session, params);
  SolveOutcome out = solve_problem(problem, request);
  request.options.island.reset();
  return out;
}

}  // namespace ccsched::dist
