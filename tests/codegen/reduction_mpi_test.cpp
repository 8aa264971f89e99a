// MPI programs for reduction schedules (FORMATS.md "Reductions"): the hand-made schedules
// of tests/support/reduction_schedules.hpp and reduction_schedules_more.hpp (ring
// all-reduce, recursive doubling, reduce, ring reduce-scatter, scan) are generated, compiled with mpicc and run with mpirun on 4 ranks; every rank
// must find every accumulator the kind requires equal to the closed-form sum. Schedules
// broken after verification (a reduce turned into a copy loses inputs, a copy turned into
// a reduce counts them twice) and a program whose expected sums were edited must make the
// program exit 1 and name the rank and block, so the check inside the programs can fail.
// Schedules solved by the driver (ring:8 all-reduce, torus:4x4 reduce-scatter, ring:6 scan)
// run the same way, on as many ranks as the network has processors.
// Skipped (with the reason) only when mpicc or mpirun is missing.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <stdexcept>
#include <string>

#include "../support/reduction_problems.hpp"
#include "../support/reduction_schedules_more.hpp"
#include "ccsched/codegen/mpi.hpp"
#include "ccsched/codegen/toolchain.hpp"
#include "ccsched/engines/driver.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "ccsched/topology/generators.hpp"

namespace ccsched {
namespace {

namespace fs = std::filesystem;
using testing::ring4_reduce_scatter;
using testing::ring4_scan;

Schedule read(const std::string& json) { return read_schedule_json(json, "test"); }

class ReductionMpi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!find_program("mpicc", "MPICC") || !find_program("mpirun", "MPIRUN"))
      GTEST_SKIP() << "Open MPI is not installed (scripts/setup.sh installs it)";
    dir_ = fs::temp_directory_path() /
           ("ccsched_reduction_mpi_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  ProcessResult build_and_run(const std::string& source_text, int ranks = 4) {
    const fs::path source = dir_ / "prog.c", program = dir_ / "prog";
    std::ofstream(source) << source_text;
    compile_mpi_program(source.string(), program.string());
    return run_mpi_program(program.string(), ranks);
  }

  // Runs a valid schedule; `expected[r]` accumulators must be correct at rank r.
  void expect_correct(const std::string& json, const std::map<int, int>& expected) {
    expect_correct(read(json), expected);
  }
  void expect_correct(const Schedule& s, const std::map<int, int>& expected) {
    ASSERT_TRUE(verify_schedule(s).empty()) << "the schedule itself is invalid";
    const int ranks = s.topology.processor_count();
    MpiProgramOptions options;
    options.elements = 64;
    const ProcessResult r = build_and_run(generate_mpi_program(s, options), ranks);
    EXPECT_EQ(r.status, 0) << r.output;
    // Labels may hold parentheses themselves (a torus node is "(1,2)").
    const std::regex line(R"(rank (\d+) \((.*?)\): ok, (\d+) of (\d+) accumulators correct)");
    std::map<int, int> seen;
    for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), line);
         it != std::sregex_iterator(); ++it) {
      EXPECT_EQ((*it)[3], (*it)[4]) << (*it)[0];
      seen[std::stoi((*it)[1])] = std::stoi((*it)[4]);
    }
    EXPECT_EQ(seen, expected) << r.output;
    EXPECT_NE(r.output.find("all " + std::to_string(ranks) +
                            " ranks hold exactly the sums the collective requires"),
              std::string::npos)
        << r.output;
  }

  void expect_failure(const std::string& source_text, const std::string& needle) {
    const ProcessResult r = build_and_run(source_text);
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("FAILED"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(needle), std::string::npos) << r.output;
  }

  fs::path dir_;
};

TEST_F(ReductionMpi, RingAllReduceInFourBlocks) {
  expect_correct(testing::ring4_allreduce_ring(), {{0, 4}, {1, 4}, {2, 4}, {3, 4}});
}

TEST_F(ReductionMpi, RecursiveDoublingAllReduce) {
  expect_correct(testing::ring4_allreduce_doubling(), {{0, 1}, {1, 1}, {2, 1}, {3, 1}});
}

// The root has no input: its accumulator starts empty and the first value is stored.
TEST_F(ReductionMpi, ReduceIntoARootWithoutInput) {
  expect_correct(testing::ring4_reduce_into_empty_root(), {{0, 1}, {1, 0}, {2, 0}, {3, 0}});
}

TEST_F(ReductionMpi, RingReduceScatter) {
  expect_correct(ring4_reduce_scatter(), {{0, 1}, {1, 1}, {2, 1}, {3, 1}});
}

TEST_F(ReductionMpi, InclusiveScan) {
  expect_correct(ring4_scan(), {{0, 1}, {1, 1}, {2, 1}, {3, 1}});
}

// Schedules the driver solved (not hand-made): whatever engine or design wins -- the exact
// reduction search, a closed form, the reversed broadcast -- its transfers must compute the
// sums when run. One accumulator per rank: the all-reduce and the scan have one block, and
// reduce-scatter leaves block j at receiver j alone.
Schedule solved(const std::string& spec, CollectiveKind kind) {
  const Problem p = testing::make_reduction_problem(spec, kind, 1);
  SolveRequest solve;
  solve.time_limit = 30.0;
  auto out = solve_problem(p, solve);
  if (!out.schedule) throw std::runtime_error(spec + ": no schedule: " + out.reason);
  return std::move(*out.schedule);
}

std::map<int, int> one_each(int ranks) {
  std::map<int, int> m;
  for (int r = 0; r < ranks; ++r) m[r] = 1;
  return m;
}

TEST_F(ReductionMpi, SolvedRingAllReduce) {
  const Schedule s = solved("ring:8", CollectiveKind::ALLREDUCE);
  EXPECT_LE(s.steps, 4);  // recursive doubling's 4 at most; the exact search may do better
  expect_correct(s, one_each(8));
}

TEST_F(ReductionMpi, SolvedTorusReduceScatter) {
  const Schedule s = solved("torus:4x4", CollectiveKind::REDUCESCATTER);
  EXPECT_EQ(s.collective.blocks, 16);
  expect_correct(s, one_each(16));
}

TEST_F(ReductionMpi, SolvedRingScan) {
  const Schedule s = solved("ring:6", CollectiveKind::SCAN);
  expect_correct(s, one_each(6));
}

// Step 3's reduce into processor 1 (block 2) becomes a copy: 1 loses its own input of
// block 2, and the all-gather spreads the short sum to everyone.
TEST_F(ReductionMpi, LostInputFails) {
  Schedule s = read(testing::ring4_allreduce_ring());
  Transfer& t = s.transfers[8];
  ASSERT_EQ(t.step, 3);
  ASSERT_EQ(t.path.back(), 1);
  t.recv = ReductionRecv::copy;
  ASSERT_FALSE(verify_schedule(s).empty());
  expect_failure(generate_mpi_program(s), "rank 1: block 2 element 0 is");
}

// Recursive doubling's second exchange between 1 and 2 is done twice (step 3): both then
// hold every input and the inputs of 1 and 2's pair twice.
TEST_F(ReductionMpi, DoubleCountFails) {
  Schedule s = read(testing::ring4_allreduce_doubling());
  s.steps = 3;
  for (int i : {4, 5}) {
    Transfer again = s.transfers[static_cast<std::size_t>(i)];
    again.step = 3;
    s.transfers.push_back(again);
  }
  ASSERT_FALSE(verify_schedule(s).empty());
  expect_failure(generate_mpi_program(s), "rank 2 (2): block 0 wrong");
}

// The schedule is right; the program's table of required sums is edited so that rank 3
// must hold the sum of 3 senders only: the closed-form check must notice.
TEST_F(ReductionMpi, EditedExpectedSumFails) {
  std::string c = generate_mpi_program(read(testing::ring4_allreduce_doubling()));
  const std::string table = "static const int target_count[] = {\n  4, 4, 4, 4};";
  const auto at = c.find(table);
  ASSERT_NE(at, std::string::npos) << c;
  c.replace(at, table.size(), "static const int target_count[] = {\n  4, 4, 4, 3};");
  expect_failure(c, "rank 3 (3): block 0 wrong");
}

// A sender of an empty accumulator is reported by the running program.
TEST_F(ReductionMpi, SendingAnEmptyAccumulatorFails) {
  Schedule s = read(testing::ring4_reduce_into_empty_root());
  s.transfers[0].path = {0, 1};  // 0 has no input and nothing in acc yet
  s.transfers[0].send = ReductionSend::acc;
  expect_failure(generate_mpi_program(s), "rank 0: step 1 sends acc[0], which is empty");
}

// The tables without running anything: what each rank must hold and the block sizes.
TEST(ReductionMpiTables, RequiredAccumulatorsAndBlockSize) {
  MpiProgramOptions options;
  options.elements = 256;  // 1 KiB vector: 4 blocks of 32 int64 values
  const std::string ring = generate_mpi_program(read(testing::ring4_allreduce_ring()), options);
  EXPECT_NE(ring.find("#define CCSCHED_ELEMENTS 32\n"), std::string::npos) << ring;
  EXPECT_NE(ring.find("BLOCKS = 4, STEPS = 6, TRANSFERS = 24, TARGETS = 16"), std::string::npos);
  const std::string scan = generate_mpi_program(read(ring4_scan()));
  EXPECT_NE(scan.find("static const int target_count[] = {\n  1, 2, 3, 4};"), std::string::npos)
      << scan;
  const std::string rs = generate_mpi_program(read(ring4_reduce_scatter()));
  EXPECT_NE(rs.find("static const int target_block[] = {\n  0, 1, 2, 3};"), std::string::npos);
  const std::string root = generate_mpi_program(read(testing::ring4_reduce_into_empty_root()));
  EXPECT_NE(root.find("static const int sender_position[] = {\n  -1, 0, 1, 2};"),
            std::string::npos)
      << root;
  EXPECT_NE(root.find("static const int tr_recv[]"), std::string::npos);
}

}  // namespace
}  // namespace ccsched
