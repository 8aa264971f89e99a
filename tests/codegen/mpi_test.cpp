// MPI program generation through the library: the tables the program carries match the
// schedule (ranks, messages, steps, transfers, the receivers of each step), options reach
// the program, and bad parameters throw. Running the programs is mpi_cli_test's job.
#include "ccsched/codegen/mpi.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

// Seed 000 Fig. 2 in miniature: ring of 4, scatter from 0, one port: 0->1, 0->3, 0->1->2.
Schedule ring4_scatter() {
  Schedule s;
  s.topology = make_topology("ring:4");
  CollectiveRequest request;
  request.kind = CollectiveKind::OAS;
  s.collective = make_collective(s.topology, request);
  s.model = default_model(s.topology);
  s.model.ports = 1;
  s.steps = 3;
  const auto id = [&](NodeId target) {
    for (const Message& m : s.collective.messages)
      if (m.targets.front() == target) return m.id;
    return -1;
  };
  s.transfers = {{1, {0, 1}, {id(1)}}, {2, {0, 3}, {id(3)}}, {3, {0, 1, 2}, {id(2)}}};
  return s;
}

TEST(MpiProgram, TablesMatchTheSchedule) {
  MpiProgramOptions options;
  options.elements = 7;
  options.barrier = true;
  const std::string c = generate_mpi_program(ring4_scatter(), options);
  EXPECT_NE(c.find("RANKS = 4, MESSAGES = 3, STEPS = 3, TRANSFERS = 3"), std::string::npos) << c;
  EXPECT_NE(c.find("#define CCSCHED_ELEMENTS 7"), std::string::npos);
  EXPECT_NE(c.find("#define CCSCHED_BARRIER 1"), std::string::npos);
  EXPECT_NE(c.find("static const int step_start[] = {\n  0, 1, 2, 3};"), std::string::npos) << c;
  EXPECT_NE(c.find("static const int tr_from[] = {\n  0, 0, 0};"), std::string::npos);
  EXPECT_NE(c.find("static const int tr_to[] = {\n  1, 3, 2};"), std::string::npos);
  EXPECT_NE(c.find("MPI_Isend"), std::string::npos);
  EXPECT_NE(c.find("MPI_Irecv"), std::string::npos);
  EXPECT_NE(c.find("MPI_Waitall"), std::string::npos);
}

TEST(MpiProgram, RanksAreProcessorsInIdOrder) {
  // Omega 8: processors 0..7, switches after them have no rank.
  Schedule s;
  s.topology = make_topology("omega:8");
  CollectiveRequest request;
  request.kind = CollectiveKind::OAS;
  s.collective = make_collective(s.topology, request);
  s.model = default_model(s.topology);
  s.steps = 1;
  s.transfers = {{1, {0, 8, 12, 16, 1}, {0}}};
  const std::string c = generate_mpi_program(s);
  EXPECT_NE(c.find("RANKS = 8"), std::string::npos);
  s.transfers = {{1, {0, 8}, {0}}};  // ends at a switch: no rank
  EXPECT_THROW(generate_mpi_program(s), InvalidInput);
}

TEST(MpiProgram, BadParameters) {
  MpiProgramOptions options;
  options.elements = 0;
  EXPECT_THROW(generate_mpi_program(ring4_scatter(), options), InvalidParameter);
}

}  // namespace
}  // namespace ccsched
