// The parameter rows UMDA and MBOA share (params.hpp): the moves and mutation operators of
// evolution/moves.cpp and the run control of evolution/control.hpp, with one name, range
// and help text each. Each engine keeps its own defaults in its struct; its table is its
// own rows followed by these (evolution_rows<UmdaParams>()).
#pragma once

#include <vector>

#include "ccsched/engines/params.hpp"

namespace ccsched::evo {

inline constexpr double kMaxCount = 2e9;  // the largest generation or move count accepted

template <class P>
std::vector<ParamSpec<P>> evolution_rows() {
  return {
      {"mutation", &P::mutation, 0, 1,
       "probability that a new chromosome is mutated (seed 000 §4.5, seed 001 §4.5: 0.9)"},
      {"mutation-moves", &P::mutation_moves, 1, 1e6,
       "moves per mutation (ours; the seeds mutate once)"},
      {"climb-moves", &P::climb_moves, 0, 1e6,
       "when the best fitness stalls, each mutation adds up to this many moves that are "
       "undone if they add conflicts: a walk across plateaus that sampling the model cannot make "
       "(ours; 0: the seeds' mutation only)"},
      {"elite-walk", &P::elite_walk, 0, 1e6,
       "while the climbing moves are on, this many new chromosomes are walkers: local-search "
       "chains started from the best members that go on from their own last state, even when "
       "it is worse (ours; 0: every new chromosome is sampled)"},
      {"climb-stall", &P::climb_stall, 1, kMaxCount,
       "generations without improvement after which the climbing moves double (ours)"},
      {"path-move", &P::path_move, 0, 1,
       "scatter: share of moves that change a path rather than a time slot (ours)"},
      {"step-move", &P::step_move, 0, 1,
       "broadcast: share of moves that change a step rather than a sender (ours)"},
      {"directed", &P::directed, 0, 1,
       "1: moves and restoration test every alternative and keep the least-conflict one "
       "(seed 000 §4.5 'testing possible paths'); 0: uniform random choice"},
      {"acceleration", &P::acceleration, 0, 1,
       "scatter: enforce the k-port injection limit before evaluation (seed 000 §4.4)"},
      {"step0", &P::step0, 0, 1,
       "broadcast: share of the first population whose genes all start at the first step "
       "(seed 000 §4.4 step-0 building blocks; the seeds set every time slot so: 1)"},
      {"hard-ports", &P::hard_ports, 0, 1,
       "broadcast, k-port: share of new chromosomes whose trees are restored with hard port "
       "limits, postponing transfers past full ports like the first population (ours)"},
      {"auto-radius", &P::auto_radius, 0, 1,
       "AAB on a regular direct network: receivers within radius 1 unless --radius (seed 000 "
       "§4.4: r = 1 for symmetric networks)"},
      {"restart", &P::restart, 0, kMaxCount,
       "start over from a fresh first population after max(this, the generations the attempt "
       "took to reach its best) generations without improvement (ours); 0: never"},
      {"generations", &P::generations, 0, kMaxCount,
       "give up a step count after this many generations; 0: no limit"},
      {"stall", &P::stall, 0, kMaxCount,
       "give up a step count after this many generations without improvement; 0: never"},
  };
}

// `own` rows, then the shared ones, then `last` (the engines end with --threads).
template <class P>
std::vector<ParamSpec<P>> param_table(std::vector<ParamSpec<P>> own,
                                      std::vector<ParamSpec<P>> last) {
  for (auto& row : evolution_rows<P>()) own.push_back(row);
  for (auto& row : last) own.push_back(row);
  return own;
}

}  // namespace ccsched::evo
