// Shared by the UMDA and HGSA tests: the seeds' known optima (seed 000 Table 6, seed 001
// Tables 1 and 3). Building problems and checking schedules is tests/support/solve_check.hpp.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "../support/solve_check.hpp"
#include "ccsched/engines/engine.hpp"
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

}  // namespace ccsched::testing_support
