// Reduction problems for the tests (engines, codegen): a network spec, a kind and the model
// knobs the reduction tests vary, the rest as `ccsched solve` sets it (make_collective,
// default_model).
#pragma once

#include <optional>
#include <string>

#include "ccsched/problem/problem.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched::testing {

inline Problem make_reduction_problem(const std::string& spec, CollectiveKind kind,
                                      std::optional<int> ports,
                                      std::optional<int> blocks = std::nullopt,
                                      Switching switching = Switching::wormhole) {
  Problem p{make_topology(spec), {}, {}};
  CollectiveRequest request;
  request.kind = kind;
  request.blocks = blocks;
  p.collective = make_collective(p.topology, request);
  p.model = default_model(p.topology);
  p.model.ports = ports;
  p.model.switching = switching;
  return p;
}

}  // namespace ccsched::testing
