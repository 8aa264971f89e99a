// The IslandLink over MPI (engines/island.hpp): meetings are one MPI_Allreduce (who found
// a schedule, who ran out of time, who gave up), then either a broadcast of the winner's
// genes or one ring exchange of emigrants. Internal to the dist module; MPI types stay
// in the .cpp.
#pragma once

#include <memory>

#include "ccsched/dist/islands.hpp"
#include "ccsched/engines/island.hpp"

namespace ccsched::dist {

// A link for this rank on a private duplicate of MPI_COMM_WORLD.
std::shared_ptr<IslandLink> make_mpi_link(const MpiSession& session, const DistParams& params);

}  // namespace ccsched::dist
