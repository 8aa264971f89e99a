// The size limits end to end (docs/RELIABILITY.md "Limits"), through the built binary, on
// the 65,280-transfer hypercube:8 AAS (tests/schedule/support.hpp): `verify` reads and
// checks it, and of a schedule broken throughout prints the first 1,000 violations; `show` (and
// `solve --table`) print the per-step overview instead of the table unless --max-transfers lifts
// the limit; `render`, `codegen` and `simulate` refuse with one line naming the limit and the
// option (exit 2) and write nothing; a raised limit lets them through; `render` also refuses
// networks of more than 1,024 processors.
#include <fcntl.h>
#include <fmt/core.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "../support/cli_harness.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "support.hpp"

namespace ccsched {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::slurp;

std::size_t lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

class Limits : public test::CliTest {
 protected:
  Limits() : CliTest("ccsched_limits_") {}

  // The schedule file, written once for the suite.
  static void SetUpTestSuite() {
    big_ = fs::temp_directory_path() / ("ccsched_limits_" + std::to_string(::getpid()) + ".json");
    std::ofstream out(big_);
    write_schedule_json(test::hypercube_xor_aas(8), out);
  }
  static void TearDownTestSuite() { fs::remove(big_); }

  static inline fs::path big_;
};

TEST_F(Limits, VerifyReadsAndChecksTheWholeSchedule) {
  const CliRun r = run({"verify", big_.string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "valid: AAS on hypercube:8, 65280 transfers in 255 steps\n");
}

// A schedule broken throughout (every transfer in step 1): the first 1,000 violations,
// then how many more, and the count the library gives.
TEST_F(Limits, VerifyPrintsTheFirstViolationsAndTheCount) {
  Schedule s = test::hypercube_xor_aas(6);
  for (auto& t : s.transfers) t.step = 1;
  const std::size_t total = verify_schedule(s).size();
  ASSERT_GT(total, 1000U);
  const fs::path file = dir_ / "broken.json";
  {
    std::ofstream out(file);
    write_schedule_json(s, out);
  }
  const CliRun r = run({"verify", file.string()});
  EXPECT_EQ(r.status, 1) << r.err;
  EXPECT_EQ(lines(r.out), 1002U);
  EXPECT_NE(r.out.find(fmt::format("\n... and {} more (--max-violations 0 prints them all)\n"
                                   "invalid: {} violations\n",
                                   total - 1000, total)),
            std::string::npos)
      << r.out.substr(r.out.size() - 300);
  const CliRun all = run({"verify", file.string(), "--max-violations", "0"});
  EXPECT_EQ(all.status, 1);
  EXPECT_EQ(lines(all.out), total + 1);
  const CliRun json = run({"verify", file.string(), "--json", "--max-violations", "5"});
  EXPECT_EQ(json.status, 1);
  EXPECT_NE(json.out.find(fmt::format("\"omitted\": {}", total - 5)), std::string::npos)
      << json.out;
}

TEST_F(Limits, ShowPrintsTheOverviewPastTheLimit) {
  const CliRun r = run({"show", big_.string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("valid:       yes\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("table left out: 65280 transfers in 255 steps, more than the limit of "
                       "20000 (--max-transfers 0 prints it); the overview instead:\n"),
            std::string::npos)
      << r.out;
  // Header, valid line, note, overview title, column heads, 255 steps, total.
  EXPECT_LT(lines(r.out), 280U) << r.out;
  EXPECT_EQ(r.out.find("channel utilisation:"), std::string::npos);

  const CliRun table = run({"show", big_.string(), "--max-transfers", "0"});
  EXPECT_EQ(table.status, 0) << table.err;
  EXPECT_NE(table.out.find("channel utilisation:"), std::string::npos);
  EXPECT_GT(lines(table.out), 256U + 255U);  // a grid row per processor, a line per step

  const CliRun negative = run({"show", big_.string(), "--max-transfers", "-1"});
  EXPECT_EQ(negative.status, 2);
  EXPECT_EQ(lines(negative.err), 1U) << negative.err;
}

TEST_F(Limits, SolveTableGivesWayToTheOverview) {
  const CliRun r = run({"solve", "hypercube:8", "--cc", "AAS", "--ports", "1", "--table"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("more than the limit of 20000 (`ccsched show` on the -o file with "
                       "--max-transfers 0 prints it); the overview instead:\n"),
            std::string::npos)
      << r.out;
  EXPECT_LT(lines(r.out), 300U);

  const CliRun small = run({"solve", "ring:4", "--cc", "AAS", "--table"});
  EXPECT_EQ(small.status, 0) << small.err;
  EXPECT_NE(small.out.find("\nsrc  1"), std::string::npos) << small.out;  // the grid's head
  EXPECT_EQ(small.out.find("table left out"), std::string::npos) << small.out;
}

TEST_F(Limits, OutputCommandsRefuseWithOneLineAndWriteNothing) {
  struct Case {
    std::vector<std::string> args;
    std::string output;
  };
  const std::string file = big_.string();
  const std::vector<Case> cases = {
      {{"render", file, "-o"}, "s.svg"},
      {{"render", file, "-o"}, "r.html"},
      {{"codegen", "mpi", file, "-o"}, "p.c"},
      {{"codegen", "msccl", file, "-o"}, "a.xml"},
  };
  for (const auto& c : cases) {
    auto args = c.args;
    args.push_back((dir_ / c.output).string());
    const CliRun r = run(args);
    EXPECT_EQ(r.status, 2) << c.output << ": " << r.err;
    EXPECT_EQ(lines(r.err), 1U) << r.err;
    EXPECT_NE(r.err.find("65280 transfers, more than the limit of 20000"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("--max-transfers N raises it, 0 lifts it"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / c.output)) << c.output;
    EXPECT_TRUE(temporaries().empty());
  }
  const CliRun sim =
      run({"simulate", file, "--bandwidth", "1GBps", "--latency", "1us", "--bytes", "1024"});
  EXPECT_EQ(sim.status, 2) << sim.err;
  EXPECT_EQ(lines(sim.err), 1U) << sim.err;
  if (sim.err.find("without SimGrid") == std::string::npos) {
    EXPECT_NE(sim.err.find("65280 transfers, more than the limit of 20000 for a SimGrid replay"),
              std::string::npos)
        << sim.err;
  }
}

TEST_F(Limits, ARaisedLimitLetsTheScheduleThrough) {
  const fs::path program = dir_ / "p.c";
  const CliRun r =
      run({"codegen", "mpi", big_.string(), "-o", program.string(), "--max-transfers", "65280"});
  EXPECT_EQ(r.status, 0) << r.err;
  // One send per transfer at least: the program names every one of the 65,280.
  EXPECT_GT(fs::file_size(program), 65280U * 10U);
}

TEST_F(Limits, RenderRefusesLargeNetworks) {
  Schedule s = test::ring4_aas();
  s.topology = test::ring(1100);  // readable, not valid (the limit comes first)
  const fs::path file = dir_ / "ring.json";
  {
    std::ofstream out(file);
    write_schedule_json(s, out);
  }
  const fs::path svg = dir_ / "s.svg";
  const CliRun r = run({"render", file.string(), "-o", svg.string()});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1U) << r.err;
  EXPECT_NE(r.err.find("1100 processors, more than the limit of 1024 for step pictures "
                       "(--max-processors N raises it, 0 lifts it)"),
            std::string::npos)
      << r.err;
  const CliRun lowered = run({"render", big_.string(), "-o", svg.string(), "--max-transfers", "0",
                              "--max-processors", "100"});
  EXPECT_EQ(lowered.status, 2);
  EXPECT_NE(lowered.err.find("256 processors, more than the limit of 100"), std::string::npos)
      << lowered.err;
  // Lifted, the next check speaks: the schedule is not valid.
  const CliRun lifted = run({"render", file.string(), "-o", svg.string(), "--max-processors", "0"});
  EXPECT_EQ(lifted.status, 2);
  EXPECT_NE(lifted.err.find("not a valid schedule"), std::string::npos) << lifted.err;
  EXPECT_FALSE(fs::exists(svg));
}

}  // namespace
}  // namespace ccsched
