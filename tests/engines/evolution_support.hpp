// Shared by the UMDA, HGSA and MBOA tests: the seeds' known optima (seed 000 Table 6, seed
// 001 Tables 1 and 3), one engine run with a seed and parameters, and an in-process island
// link. Building problems and checking schedules is tests/support/solve_check.hpp.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "../support/solve_check.hpp"
#include "ccsched/engines/engine.hpp"
#include "ccsched/engines/island.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched::testing_support {

struct Known {
  std::string spec;
  std::optional<int> ports;
  CollectiveKind kind;
  int optimum;
};

inline const std::vector<Known>& known_optima() {
  static const std::vector<Known> known{
      // ring 8 under 1-port: AAB at 7 steps leaves no port idle (the hardest small cell).
      {"ring:8", 1, CollectiveKind::OAB, 3},     {"ring:8", 1, CollectiveKind::AAB, 7},
      {"ring:8", 1, CollectiveKind::OAS, 7},
      {"ring:8", 2, CollectiveKind::OAB, 2},     {"ring:8", 2, CollectiveKind::AAB, 4},
      {"ring:8", 2, CollectiveKind::OAS, 4},     {"ring:8", 2, CollectiveKind::AAS, 8},
      {"octagon", {}, CollectiveKind::OAB, 2},   {"octagon", {}, CollectiveKind::AAB, 3},
      {"octagon", {}, CollectiveKind::OAS, 3},   {"octagon", {}, CollectiveKind::AAS, 4},
      {"petersen", {}, CollectiveKind::OAB, 2},  {"petersen", {}, CollectiveKind::AAB, 3},
      {"petersen", {}, CollectiveKind::OAS, 3},  {"petersen", {}, CollectiveKind::AAS, 5},
      {"kautz:3,2", {}, CollectiveKind::OAB, 2}, {"kautz:3,2", {}, CollectiveKind::AAB, 4},
      {"kautz:3,2", {}, CollectiveKind::OAS, 4}, {"kautz:3,2", {}, CollectiveKind::AAS, 7},
      {"omega:8", {}, CollectiveKind::OAB, 3},   {"omega:8", {}, CollectiveKind::AAB, 7},
      {"omega:8", {}, CollectiveKind::OAS, 7},   {"omega:8", {}, CollectiveKind::AAS, 7},
      {"fattree:8", {}, CollectiveKind::OAB, 3}, {"fattree:8", {}, CollectiveKind::AAB, 7},
      {"fattree:8", {}, CollectiveKind::OAS, 7}, {"fattree:8", {}, CollectiveKind::AAS, 7},
  };
  return known;
}

inline std::string known_name(const ::testing::TestParamInfo<Known>& info) {
  std::string name = info.param.spec + "_" + std::string(to_string(info.param.kind)) +
                     (info.param.ports ? "_k" + std::to_string(*info.param.ports) : "");
  for (auto& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

// One run of `EngineT` (UmdaEngine, HgsaEngine, MboaEngine) for `steps` steps.
template <class EngineT>
EngineResult run_engine(const Problem& p, int steps, std::uint64_t seed, ParamValues params = {},
                        double seconds = 30) {
  const PathSet paths(p.topology, p.model);
  EngineOptions options;
  options.seed = seed;
  options.params = std::move(params);
  EngineT engine(options);
  return engine.solve(p, paths, steps, Budget(seconds));
}

// An in-process island link: records meetings, sends one immigrant at the first meeting
// (`immigrant` of the population into slot `into`; into < 0: the last slot), and stops
// with the winner's genes when the island finds a schedule.
class RecordingLink final : public IslandLink {
 public:
  RecordingLink(int interval, std::size_t immigrant, int into)
      : interval_(interval), immigrant_(immigrant), into_(into) {}
  int island() const override { return 0; }
  int island_count() const override { return 1; }
  int interval() const override { return interval_; }
  Meeting meet(const PopulationView& population, const IslandState& state) override {
    ++meetings;
    Meeting m;
    if (state.found) {
      m.stop = true;
      m.winner = population.genes(*state.found);
    } else if (meetings == 1) {
      const std::size_t slot =
          into_ < 0 ? population.fitness.size() - 1 : static_cast<std::size_t>(into_);
      m.immigrants.push_back(
          {slot, Migrant{population.genes(immigrant_), population.fitness[immigrant_]}});
    }
    return m;
  }
  int meetings = 0;

 private:
  int interval_;
  std::size_t immigrant_;
  int into_;
};

}  // namespace ccsched::testing_support
