// Several schedules side by side (`cost --crossover`, `simulate A.json B.json`): the letter
// each one goes by in the tables ("A", "B", ..., "Z", "A1", ...) and the engine (or
// algorithm) that wrote it, "-" when the file does not say.
#pragma once

#include <cstddef>
#include <string>

#include "ccsched/schedule/schedule.hpp"

namespace ccsched::cli {

inline std::string schedule_letter(std::size_t k) {
  return std::string(1, static_cast<char>('A' + k % 26)) + (k >= 26 ? std::to_string(k / 26) : "");
}

inline std::string schedule_engine(const Schedule& s) {
  return s.solver && !s.solver->engine.empty() ? s.solver->engine : std::string("-");
}

}  // namespace ccsched::cli
