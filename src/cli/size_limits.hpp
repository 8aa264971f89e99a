// The size limits of the commands whose output grows with the schedule (docs/RELIABILITY.md
// "Limits"): `render` (pictures), `codegen` (programs) and `simulate` (a SimGrid replay).
// An AAS on 1,000 processors has about a million transfers: its pictures, its MPI program
// (tens of megabytes of C) or its replay would take minutes to gigabytes, so above the limit
// these commands refuse with one line naming the limit and the option that lifts it (exit
// status 2), before the schedule is verified and before anything is written. `show` and
// `solve --table` print an overview instead (tables.hpp).
#pragma once

#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched::cli {

// The default for every command: a 20,000-transfer MPI program is about a megabyte of C.
inline constexpr long long kDefaultMaxTransfers = 20000;
// Pictures: Graphviz's layout of the network grows faster than its size (hypercube:10, 1,024
// processors: 7-10 s for the layout and three panels; four times the nodes would take
// minutes), and past a thousand nodes a panel is a blur.
inline constexpr long long kDefaultMaxProcessors = 1024;

struct SizeLimits {
  long long max_transfers = kDefaultMaxTransfers;    // 0: no limit
  long long max_processors = kDefaultMaxProcessors;  // 0: no limit; only where offered
};

// --max-transfers (and --max-processors when `processors`) on `cmd`.
// `past` says what happens past a limit ("refuse", the default).
inline void add_size_options(CLI::App* cmd, SizeLimits& limits, bool processors = false,
                             const std::string& past = "refuse") {
  cmd->add_option("--max-transfers", limits.max_transfers,
                  past + " schedules with more transfers than this (0: no limit)")
      ->capture_default_str();
  if (processors)
    cmd->add_option("--max-processors", limits.max_processors,
                    past + " networks with more processors than this (0: no limit)")
        ->capture_default_str();
}

// The first limit `s` is over: "transfers" or "processors", how many, the limit and its
// option; nothing when within. Throws InvalidParameter for a negative limit.
struct OverLimit {
  std::string_view noun, option;
  long long count = 0, limit = 0;
};
inline std::optional<OverLimit> over_limit(const Schedule& s, const SizeLimits& limits) {
  if (limits.max_transfers < 0)
    throw InvalidParameter("must be 0 (no limit) or more", "--max-transfers");
  if (limits.max_processors < 0)
    throw InvalidParameter("must be 0 (no limit) or more", "--max-processors");
  const auto transfers = static_cast<long long>(s.transfers.size());
  if (limits.max_transfers > 0 && transfers > limits.max_transfers)
    return OverLimit{"transfers", "--max-transfers", transfers, limits.max_transfers};
  const long long processors = s.topology.processor_count();
  if (limits.max_processors > 0 && processors > limits.max_processors)
    return OverLimit{"processors", "--max-processors", processors, limits.max_processors};
  return std::nullopt;
}

// What `render` does past a limit (a summary): the limit `s` is over, as "N transfers, more
// than --max-transfers M", or empty.
inline std::string over_limits(const Schedule& s, const SizeLimits& limits) {
  const auto over = over_limit(s, limits);
  return over ? fmt::format("{} {}, more than {} {}", over->count, over->noun, over->option,
                            over->limit)
              : std::string();
}

// Throws InvalidParameter for a negative limit, Unsupported (one line, exit 2) when `s` is
// over a limit; `output` says what would have been made ("an MPI program").
inline void refuse_if_too_large(const Schedule& s, const std::string& file,
                                const SizeLimits& limits, std::string_view output) {
  if (const auto over = over_limit(s, limits))
    throw Unsupported(fmt::format("{} {}, more than the limit of {} for {} ({} N raises it, 0 "
                                  "lifts it)",
                                  over->count, over->noun, over->limit, output, over->option),
                      file);
}

}  // namespace ccsched::cli
