// The grid all-to-all scatter designs (docs/ENGINES.md "Grid all-to-all designs"): every
// schedule passes the verifier and stays within the stated gap of the lower bound that
// the bounds module computes on its own; networks that only look like grids, and
// patterns that are not all-to-all, get nothing.
#include <gtest/gtest.h>

#include <string>

#include "ccsched/bounds/bounds.hpp"
#include "ccsched/engines/grid_designs.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"
#include "evolution_support.hpp"

namespace ccsched {
namespace {

using testing_support::make_problem;
using testing_support::violations_text;

struct Case {
  std::string spec;
  std::optional<int> ports;  // nullopt: all-port
  double gap;                // steps <= bound * (1 + gap)
};

int bound_of(const Problem& p) { return lower_bounds(p, PathSet(p.topology, p.model)).best; }

void expect_within(const Case& c) {
  const Problem p = make_problem(c.spec, CollectiveKind::AAS, c.ports);
  const auto s = grid_aas_schedule(p);
  ASSERT_TRUE(s.has_value()) << c.spec;
  EXPECT_EQ(verify_schedule(*s).size(), 0U) << c.spec << "\n" << violations_text(*s);
  const int bound = bound_of(p);
  EXPECT_GE(s->steps, bound) << c.spec;  // a design below a valid bound is a wrong bound
  EXPECT_LE(s->steps, static_cast<int>(bound * (1 + c.gap))) << c.spec << " bound " << bound;
  std::printf("%-12s ports %-3s steps %4d bound %4d\n", c.spec.c_str(),
              c.ports ? std::to_string(*c.ports).c_str() : "all", s->steps, bound);
}

TEST(GridDesigns, AllPortTiledRingsAndToriMeetTheChannelLoadBound) {
  for (const std::string spec : {"ring:8", "ring:16", "torus:4x4", "torus:8x8"})
    expect_within({spec, std::nullopt, 0.2});
}

TEST(GridDesigns, AllPortOtherGridsStayNearTheBound) {
  for (const std::string spec : {"ring:7", "ring:10", "torus:6x6", "torus:5x5", "torus:4x8",
                                 "mesh:4x4", "mesh:5x3", "mesh:8x8", "torus:4x4x4", "mesh:3x3x3"})
    expect_within({spec, std::nullopt, 0.5});
}

TEST(GridDesigns, OnePortStaysNearTheBound) {
  for (const std::string spec : {"ring:8", "torus:4x4", "torus:8x8", "torus:6x6", "mesh:4x4",
                                 "mesh:5x3"})
    expect_within({spec, 1, 0.5});
}

}  // namespace
}  // namespace ccsched
