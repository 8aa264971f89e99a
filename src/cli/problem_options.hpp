// The options that describe a scheduling problem, shared by `bounds`, `solve` and
// `faults`: SPEC|FILE, --cc, --ports, --root, --senders/--receivers, --fault, --routing,
// --switching, --combining, --shift, --messages, --blocks.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ccsched/problem/problem.hpp"

namespace ccsched::cli {

struct ProblemOptions {
  std::string network;              // spec string or file
  std::string cc = "AAS";
  std::string ports;                // "", "all" or an integer
  std::string root;
  std::vector<std::string> senders;   // ids/labels, comma lists accepted
  std::vector<std::string> receivers;
  std::vector<std::string> faults;
  std::string routing = "minimal";  // minimal | nonminimal[:H]
  std::string switching = "wormhole";
  bool combining = false;
  int shift = 1;
  std::string messages_file;        // CUSTOM / PERM message list
  std::optional<int> blocks;        // reductions: --blocks (make_collective checks the range)
};

// `with_cc` false for commands that take a list of kinds themselves (faults).
void add_problem_options(CLI::App* cmd, ProblemOptions& o, bool with_cc = true);

// Loads the network, applies faults, expands the collective and fixes the model.
// Throws ccsched::Error subclasses naming the bad option.
Problem build_problem(const ProblemOptions& o);
Problem build_problem(const ProblemOptions& o, CollectiveKind kind);

// Parses --ports ("all" or k >= 1) into a model; --routing "minimal" | "nonminimal[:H]".
void apply_model_options(const ProblemOptions& o, const Topology& t, Model& model);

// Accepts a number of seconds, 0 or more (--relay-time-limit), with a one-line error.
inline const CLI::Validator kSeconds(
    [](std::string& text) -> std::string {
      try {
        std::size_t used = 0;
        const double v = std::stod(text, &used);
        if (used == text.size() && v >= 0.0) return {};
      } catch (const std::exception&) {
      }
      return "expected a number of seconds, 0 or more, got '" + text + "'";
    },
    "SECONDS");

}  // namespace ccsched::cli
