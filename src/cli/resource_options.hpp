// --max-memory (docs/RELIABILITY.md, "Resource limits"), shared by the commands that build a search:
// `solve` and `faults`. Before anything large is allocated, the plan estimates the path
// lists, the SAT encoding or the evolutionary population from the problem's sizes
// (engines/resources.hpp), truncates the per-pair path lists when all of them would not
// fit, and refuses with one line (exit 2) when the chosen engine cannot fit at all.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "ccsched/engines/driver.hpp"

namespace ccsched::cli {

struct ResourceOptions {
  std::string max_memory;  // "4G", "512M", ...; empty: default_memory_limit()
};

void add_resource_options(CLI::App* cmd, ResourceOptions& o);

// "4G", "512M", "64k", "1.5GiB", "1000000" (bytes) -> bytes. Throws InvalidParameter.
double parse_size(std::string_view text);

// Half of the machine's physical memory (sysconf), or 4 GiB when it cannot be read.
double default_memory_limit();

// The limit the options give (parsed, or the default).
double memory_limit(const ResourceOptions& o);

// The most block transfers a reduction's schedule may need: the largest schedules the
// tools are measured on (docs/RELIABILITY.md "Limits": hypercube:10, 1,047,552 transfers).
inline constexpr double kMaxBlockTransfers = 1 << 20;

// The most blocks a reduction summing `senders` inputs may have within kMaxBlockTransfers
// (each block's sum takes senders - 1 transfers); `--blocks` and the counts `solve --bytes`
// tries stay within it.
long long largest_block_count(std::size_t senders);

// Refuses, before any search, a reduction whose every schedule would exceed
// kMaxBlockTransfers (--blocks too large for its senders), with one InvalidParameter line
// naming --blocks and the largest block count that fits.
void refuse_oversized_reduction(const Problem& problem);

// Fits the request to the memory limit: sets request.options.max_memory (the SAT engine
// re-checks every encoding it builds) and request.path_limits (path lists truncated when
// the full lists would take more than a quarter of the limit). Throws Unsupported naming
// --max-memory, with advice, when the engine the request names cannot fit even its
// smallest form (SAT at one step or --steps; an evolutionary population); `auto` and
// `greedy` are never refused here (auto falls back to the greedy schedule). Calls
// refuse_oversized_reduction first.
void plan_resources(const Problem& problem, double limit, SolveRequest& request);

}  // namespace ccsched::cli
