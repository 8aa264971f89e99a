// The hook through which an evolutionary engine (umda, hgsa, mboa) takes part in an island
// model (docs/ARCHITECTURE.md, `dist`; docs/EVOLUTIONARY.md). The engines know nothing of
// MPI: every `interval()` generations (UMDA, MBOA) or epochs (HGSA) they call `meet` with a
// view of their population, and the link — implemented over MPI in the `dist` module —
// decides what migrates and whether everyone stops. Meetings are collective and happen at
// the same generation on every island, so a fixed seed and island count give the same
// schedule on every run.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace ccsched {

// One candidate schedule as it travels between islands: the genes in the engine's
// encoding, flattened (see docs/EVOLUTIONARY.md "Encodings"), and its fitness (conflicts
// plus step-limit penalty; 0 means a valid schedule).
struct Migrant {
  std::vector<std::int32_t> genes;
  std::int64_t fitness = 0;
};

// What the migration policies see of an island's population.
struct PopulationView {
  std::vector<std::int64_t> fitness;  // one per member, in the engine's order
  std::function<std::vector<std::int32_t>(std::size_t)> genes;  // flattened genes of a member
};

// This island's situation at a meeting.
struct IslandState {
  std::optional<std::size_t> found;  // index of a zero-conflict member, if any
  bool gave_up = false;              // its own stopping rule (generations, stall) fired
  bool budget_expired = false;       // time limit or interrupt seen on this island
};

// The link's answer; identical on every island.
struct Meeting {
  bool stop = false;                                // every island ends its run now
  bool budget_exhausted = false;                    // ... because some island ran out of time
  std::optional<std::vector<std::int32_t>> winner;  // genes of the winning valid schedule
  std::vector<std::pair<std::size_t, Migrant>> immigrants;  // member index to overwrite
};

class IslandLink {
 public:
  virtual ~IslandLink() = default;
  virtual int island() const = 0;  // this island's index, mixed into the engine seed
  virtual int island_count() const = 0;
  virtual int interval() const = 0;  // generations (or epochs) between meetings, >= 1
  // Collective: every island calls it at the same generation. Stops everyone when some
  // island found a valid schedule (the lowest-numbered such island wins and its genes
  // are in `winner`), when every island gave up, or when any island's budget expired.
  virtual Meeting meet(const PopulationView& population, const IslandState& state) = 0;
};

}  // namespace ccsched
