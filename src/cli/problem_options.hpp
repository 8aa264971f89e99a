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
  std::vector<std::string> senders;  // ids/labels, comma lists accepted (split_list)
  std::vector<std::string> receivers;
  std::vector<std::string> faults;
  std::string routing = "minimal";  // minimal | nonminimal[:H]
  std::string switching = "wormhole";
  bool combining = false;
  std::optional<int> shift;         // PERM only; default 1
  std::string messages_file;        // CUSTOM / PERM message list
  std::optional<int> blocks;        // reductions: --blocks (make_collective checks the range)
};

// The items of list options (--senders, --receivers, --fault, faults --links and --cc):
// each value split at its commas, except commas inside brackets, so that mesh and torus
// labels such as "(0,1)" stay whole: "(0,0),(1,1)" is two processors and "(0,0)-(0,1)"
// one link. Empty items are dropped.
std::vector<std::string> split_list(const std::vector<std::string>& items);

// `with_cc` false for commands that take a list of kinds themselves (faults).
void add_problem_options(CLI::App* cmd, ProblemOptions& o, bool with_cc = true);

// Loads the network, applies faults, expands the collective and fixes the model.
// Throws ccsched::Error subclasses naming the bad option.
Problem build_problem(const ProblemOptions& o);
Problem build_problem(const ProblemOptions& o, CollectiveKind kind);

// Parses --ports ("all" or k >= 1) into a model; --routing "minimal" | "nonminimal[:H]".
void apply_model_options(const ProblemOptions& o, const Topology& t, Model& model);

// Refuses --combining for a message collective: no engine combines messages (solve_problem
// refuses it too). `faults` calls it before the sweep, whose cells would otherwise each
// record the refusal.
void refuse_combining(const Model& model, CollectiveKind kind);

}  // namespace ccsched::cli
