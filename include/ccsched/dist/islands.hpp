// The island model across processes (docs/EVOLUTIONARY.md):
// under `mpirun -np N`, every rank runs its own UMDA or HGSA population and every
// `interval` generations (epochs) the ranks meet — each sends its best individuals to
// the next rank on a ring and takes the previous rank's in place of its worst. The first
// rank to reach zero conflicts wins and everyone stops with its schedule.
//
//   if (dist::launched_by_mpirun()) {
//     dist::MpiSession session;                       // MPI_Init ... MPI_Finalize
//     SolveOutcome out = dist::solve_islands(problem, request, {}, session);
//     if (session.rank() == 0) print(out);            // identical on every rank
//   }
//
// The pieces are separate (pagmo's island model): the migration topology (ring.hpp), the
// emigrant selection and the immigrant replacement (migration.hpp), and the MPI link that
// carries them (MpiIslandLink). MPI headers stay inside src/dist.
#pragma once

#include <array>
#include <memory>
#include <span>

#include "ccsched/engines/driver.hpp"
#include "ccsched/engines/params.hpp"

namespace ccsched::dist {

struct DistParams {
  int interval = 10;  // generations (UMDA) or epochs (HGSA) between meetings
  int migrants = 1;   // individuals each island sends to the next per meeting
};

std::span<const ParamSpec<DistParams>> dist_param_table();

// True when this process was started by mpirun/mpiexec (Open MPI or PMIx environment).
bool launched_by_mpirun();

// MPI_Init on construction (threads: funneled — only the engine's main thread talks MPI),
// MPI_Finalize on destruction. One per process.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }

 private:
  int rank_ = 0;
  int size_ = 1;
};

// solve_problem with this rank as one island (request.engine must be umda, hgsa or mboa; the
// island's seed is request.options.seed mixed with its rank). Collective: every rank
// must call it with the same problem and request; every rank returns the same outcome.
SolveOutcome solve_islands(const Problem& problem, SolveRequest request, const DistParams& params,
                           const MpiSession& session);

}  // namespace ccsched::dist
