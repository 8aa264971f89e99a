// The MPI island link (see mpi_island.hpp). A meeting is collective and ordered the same
// on every rank:
//   1. MPI_Allreduce(MIN) of {winner rank or INT_MAX, 0 if out of time else 1, 1 if gave
//      up else 0}: the lowest rank with a zero-conflict member wins; any rank out of time
//      stops everyone; all ranks must have given up to stop for that reason.
//   2. A winner's genes are broadcast from it, so every rank returns the same schedule.
//   3. Otherwise the best `migrants` members go to the next rank on the ring and the
//      previous rank's arrive (MPI_Sendrecv), replacing the worst members if not worse.
// Nothing here depends on timing except the out-of-time flag, so a fixed seed and rank
// count give the same schedule.
#include "mpi_island.hpp"

#include <mpi.h>

#include <climits>
#include <cstdint>
#include <vector>

#include "ccsched/dist/migration.hpp"
#include "ccsched/dist/ring.hpp"

namespace ccsched::dist {
namespace {

class MpiIslandLink final : public IslandLink {
 public:
  MpiIslandLink(const MpiSession& session, const DistParams& params)
      : rank_(session.rank()), ring_(session.size()), params_(params) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
  }
  ~MpiIslandLink() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized) MPI_Comm_free(&comm_);
  }

  int island() const override { return rank_; }
  int island_count() const override { return ring_.islands(); }
  int interval() const override { return params_.interval; }

  Meeting meet(const PopulationView& population, const IslandState& state) override {
    int local[3] = {state.found ? rank_ : INT_MAX, state.budget_expired ? 0 : 1,
                    state.gave_up ? 1 : 0};
    int global[3] = {0, 0, 0};
    MPI_Allreduce(local, global, 3, MPI_INT, MPI_MIN, comm_);
    Meeting meeting;
    if (global[0] != INT_MAX) {
      meeting.stop = true;
      std::vector<std::int32_t> genes;
      if (global[0] == rank_) genes = population.genes(*state.found);
      int size = static_cast<int>(genes.size());
      MPI_Bcast(&size, 1, MPI_INT, global[0], comm_);
      genes.resize(static_cast<std::size_t>(size));
      MPI_Bcast(genes.data(), size, MPI_INT32_T, global[0], comm_);
      meeting.winner = std::move(genes);
      return meeting;
    }
    if (global[1] == 0 || global[2] == 1) {
      meeting.stop = true;
      meeting.budget_exhausted = global[1] == 0;
      return meeting;
    }
    exchange(population, meeting);
    return meeting;
  }

 private:
  // Emigrants out to the next rank, immigrants in from the previous one. The message is
  // [count, then per migrant: fitness (two words), gene count, genes].
  void exchange(const PopulationView& population, Meeting& meeting) {
    std::vector<std::int32_t> out;
    const auto chosen =
        select_emigrants(population.fitness, static_cast<std::size_t>(params_.migrants));
    out.push_back(static_cast<std::int32_t>(chosen.size()));
    for (const std::size_t i : chosen) {
      const auto f = static_cast<std::uint64_t>(population.fitness[i]);
      out.push_back(static_cast<std::int32_t>(f >> 32));
      out.push_back(static_cast<std::int32_t>(f & 0xffffffffULL));
      const auto genes = population.genes(i);
      out.push_back(static_cast<std::int32_t>(genes.size()));
      out.insert(out.end(), genes.begin(), genes.end());
    }
    int out_size = static_cast<int>(out.size()), in_size = 0;
    const int next = ring_.next(rank_), previous = ring_.previous(rank_);
    MPI_Sendrecv(&out_size, 1, MPI_INT, next, 1, &in_size, 1, MPI_INT, previous, 1, comm_,
                 MPI_STATUS_IGNORE);
    std::vector<std::int32_t> in(static_cast<std::size_t>(in_size));
    MPI_Sendrecv(out.data(), out_size, MPI_INT32_T, next, 2, in.data(), in_size, MPI_INT32_T,
                 previous, 2, comm_, MPI_STATUS_IGNORE);
    std::vector<Migrant> arrivals;
    std::size_t at = 1;
    for (std::int32_t k = 0; in.size() > 0 && k < in[0] && at + 3 <= in.size(); ++k) {
      Migrant m;
      const std::uint64_t f =
          (static_cast<std::uint64_t>(static_cast<std::uint32_t>(in[at])) << 32) |
          static_cast<std::uint32_t>(in[at + 1]);
      m.fitness = static_cast<std::int64_t>(f);
      const auto n = static_cast<std::size_t>(in[at + 2]);
      at += 3;
      if (at + n > in.size()) break;
      m.genes.assign(in.begin() + static_cast<std::ptrdiff_t>(at),
                     in.begin() + static_cast<std::ptrdiff_t>(at + n));
      at += n;
      arrivals.push_back(std::move(m));
    }
    std::vector<std::int64_t> arrival_fitness;
    for (const auto& m : arrivals) arrival_fitness.push_back(m.fitness);
    for (const auto& [member, arrival] : choose_replacements(population.fitness, arrival_fitness))
      meeting.immigrants.emplace_back(member, std::move(arrivals[arrival]));
  }

  int rank_;
  RingTopology ring_;
  DistParams params_;
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace

std::shared_ptr<IslandLink> make_mpi_link(const MpiSession& session, const DistParams& params) {
  return std::make_shared<MpiIslandLink>(session, params);
}

}  // namespace ccsched::dist
