// MPI start-up and shutdown for the island model, and the test that tells whether this
// process was launched by mpirun at all (then `ccsched solve` becomes one island).
#include <mpi.h>

#include <cstdlib>
#include <string_view>

#include "ccsched/core/error.hpp"
#include "ccsched/dist/islands.hpp"

namespace ccsched::dist {

bool launched_by_mpirun() {
  // Open MPI's launcher sets OMPI_COMM_WORLD_SIZE; PMIx and MPICH-style launchers set
  // PMIX_RANK or PMI_RANK.
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK"})
    if (std::getenv(name) != nullptr) return true;
  return false;
}

MpiSession::MpiSession() {
  // The MPI library must be the real one: SimGrid's SMPI (linked for `ccsched simulate`)
  // exports the same symbols, and binding to it would abort inside MPI_Init.
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  MPI_Get_library_version(version, &length);
  const std::string_view library(version, static_cast<std::size_t>(length));
  if (library.find("SimGrid") != std::string_view::npos ||
      library.find("SMPI") != std::string_view::npos)
    throw Unsupported("MPI calls are bound to SimGrid's SMPI, not to Open MPI (link order)", "mpi");
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) throw Unsupported("MPI is already initialised", "mpi");
  int provided = 0;
  // Only the engine's main thread calls MPI; worker threads never do.
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

}  // namespace ccsched::dist
