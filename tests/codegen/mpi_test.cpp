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

// All-to-all broadcast on ring:n by the one-port pipeline: in step t every v receives from
// v - 1 the message of origin v - t. The same from every processor: a translation rule of
// one entry per step.
Schedule ring_pipeline_aab(int n) {
  Schedule s;
  s.topology = make_topology("ring:" + std::to_string(n));
  CollectiveRequest request;
  request.kind = CollectiveKind::AAB;
  s.collective = make_collective(s.topology, request);
  s.model = default_model(s.topology);
  s.model.ports = 1;
  s.steps = n - 1;
  for (int t = 1; t < n; ++t)
    for (int v = 0; v < n; ++v)
      s.transfers.push_back({t, {(v + n - 1) % n, v}, {(v + n - t) % n}});
  return s;
}

TEST(MpiProgram, TranslationRule) {
  const Schedule small = ring_pipeline_aab(8);
  ASSERT_TRUE(has_translation_rule(small));
  MpiProgramOptions rule;
  rule.form = MpiProgramForm::rule;
  const std::string c = generate_mpi_program(small, rule);
  EXPECT_NE(c.find("RANKS = 8, SHAPES = 1, MESSAGES = 8, STEPS = 7, ENTRIES = 7, DIGITS = 1"),
            std::string::npos)
      << c;
  // Step t: delta 1, the message of origin v - t (offset t), shape 0 (the 7 others).
  EXPECT_NE(c.find("static const int en_delta[] = {\n  1, 1, 1, 1, 1, 1, 1};"), std::string::npos);
  EXPECT_NE(c.find("static const int en_offset[] = {\n  1, 2, 3, 4, 5, 6, 7};"),
            std::string::npos);
  EXPECT_EQ(c.find("static const int tr_from[]"), std::string::npos);  // no transfer table
  // Small schedules keep their tables unless asked.
  EXPECT_NE(generate_mpi_program(small).find("static const int tr_from[]"), std::string::npos);

  // 65,280 transfers: automatically a rule, a few kilobytes of entries.
  const Schedule big = ring_pipeline_aab(256);
  const std::string large = generate_mpi_program(big);
  EXPECT_NE(large.find("written as a translation rule of 255 entries"), std::string::npos);
  EXPECT_LT(large.size(), 40000U);

  // One transfer carrying another message breaks the symmetry: no rule.
  Schedule broken = small;
  broken.transfers[3].messages = {5};
  EXPECT_FALSE(has_translation_rule(broken));
  EXPECT_THROW(generate_mpi_program(broken, rule), Unsupported);
  EXPECT_NE(generate_mpi_program(broken).find("static const int tr_from[]"), std::string::npos);
  // Nor has a network that is no group (a mesh's ids are, its channels are not, and the
  // pipeline is no mesh schedule) or a one-to-all broadcast (one message, not P).
  Schedule oab = small;
  oab.collective.messages.resize(1);
  EXPECT_FALSE(has_translation_rule(oab));
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
