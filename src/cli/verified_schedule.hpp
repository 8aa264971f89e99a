// Reading a schedule document for the commands that act on it (render, codegen, simulate):
// a schedule that fails `verify` has no meaningful picture, program or time, so it is
// refused with one line naming the first broken rule (exit status 2). `tolerated` lists
// rules whose violations are reported as warnings instead (simulate measures what breaking
// the channel and port rules costs). With size limits, a schedule over them is refused
// first (size_limits.hpp): verifying a million transfers only to refuse them is waste.
#pragma once

#include <fmt/core.h>

#include <algorithm>
#include <cstdio>
#include <initializer_list>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "size_limits.hpp"

namespace ccsched::cli {

inline void require_valid(const Schedule& s, const std::string& file,
                          std::initializer_list<int> tolerated = {}) {
  const auto violations = verify_schedule(s);
  std::size_t warned = 0;
  const Violation* first_fatal = nullptr;
  std::size_t fatal = 0;
  for (const Violation& v : violations) {
    if (std::find(tolerated.begin(), tolerated.end(), v.rule) != tolerated.end()) {
      ++warned;
    } else {
      if (!first_fatal) first_fatal = &v;
      ++fatal;
    }
  }
  if (first_fatal)
    throw InvalidInput(
        fmt::format("not a valid schedule ({} violation{}; first: {}); see "
                    "'ccsched verify'",
                    violations.size(), violations.size() == 1 ? "" : "s", first_fatal->text),
        file);
  if (warned > 0) {
    const auto it = std::find_if(violations.begin(), violations.end(), [&](const Violation& v) {
      return std::find(tolerated.begin(), tolerated.end(), v.rule) != tolerated.end();
    });
    fmt::print(stderr, "ccsched: warning: {}: {} conflict{} (first: {}); replaying it anyway\n",
               file, warned, warned == 1 ? "" : "s", it->text);
  }
}

inline Schedule read_verified_schedule(const std::string& file,
                                       std::initializer_list<int> tolerated = {}) {
  Schedule s = read_schedule_file(file);
  require_valid(s, file, tolerated);
  return s;
}

// As read_verified_schedule, refusing a schedule over `limits` before it is verified.
inline Schedule read_verified_schedule(const std::string& file, const SizeLimits& limits,
                                       std::string_view output,
                                       std::initializer_list<int> tolerated = {}) {
  Schedule s = read_schedule_file(file);
  refuse_if_too_large(s, file, limits, output);
  require_valid(s, file, tolerated);
  return s;
}

// `--tc` (the time to add a byte) prices a reduction's adds; on a schedule that adds
// nothing it would be silently unused, so it is refused instead.
inline void refuse_add_time_without_reduction(const Schedule& s, const std::string& file) {
  if (!is_reduction(s.collective))
    throw InvalidParameter(fmt::format("only for reduction schedules ({} is {}, which adds "
                                       "nothing)",
                                       file, to_string(s.collective.kind)),
                           "--tc");
}

}  // namespace ccsched::cli
