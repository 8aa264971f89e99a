// Several schedules side by side (`cost --crossover`, `simulate A.json B.json`): the
// options both commands take, the schedules read and checked alike, the letter each one
// goes by in the tables ("A", "B", ..., "Z", "A1", ...) and the engine (or algorithm) that
// wrote it, "-" when the file does not say.
#pragma once

#include <CLI/CLI.hpp>

#include <cstddef>
#include <initializer_list>
#include <string>
#include <vector>

#include "ccsched/schedule/schedule.hpp"
#include "verified_schedule.hpp"

namespace ccsched::cli {

// What `cost` and `simulate` share; each command adds its own model's options.
struct ComparedOptions {
  std::vector<std::string> files;
  bool crossover = false;
  std::string from = "8";
  std::string to = "1GiB";
  std::string tc;
  std::string bytes;
  bool json = false;
};

// --crossover (with the command's own help) and the sizes it runs from and to.
inline void add_crossover_options(CLI::App& cmd, ComparedOptions& o, const std::string& help) {
  cmd.add_flag("--crossover", o.crossover, help);
  cmd.add_option("--from", o.from, "--crossover: smallest size (default 8 B)");
  cmd.add_option("--to", o.to, "--crossover: largest size (default 1 GiB)");
}

// Every file of `o`, each passing verify (the rules of `tolerated` as warnings), and none
// given an add time (--tc) it would not use.
inline std::vector<Schedule> read_compared_schedules(const ComparedOptions& o,
                                                     std::initializer_list<int> tolerated = {}) {
  std::vector<Schedule> schedules;
  for (const auto& f : o.files) schedules.push_back(read_verified_schedule(f, tolerated));
  if (!o.tc.empty())
    for (std::size_t k = 0; k < schedules.size(); ++k)
      refuse_add_time_without_reduction(schedules[k], o.files[k]);
  return schedules;
}

inline std::string schedule_letter(std::size_t k) {
  return std::string(1, static_cast<char>('A' + k % 26)) + (k >= 26 ? std::to_string(k / 26) : "");
}

inline std::string schedule_engine(const Schedule& s) {
  return s.solver && !s.solver->engine.empty() ? s.solver->engine : std::string("-");
}

}  // namespace ccsched::cli
