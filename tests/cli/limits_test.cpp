// The size limits end to end (docs/RELIABILITY.md "Limits"), through the built binary, on
// the 65,280-transfer hypercube:8 AAS (tests/schedule/support.hpp): `verify` reads and
// checks it, and of a schedule broken throughout prints the first 1,000 violations; `show` (and
// `solve --table`) print the per-step overview instead of the table unless --max-transfers lifts
// the limit; `codegen msccl` refuses with one line naming the limit and the option (exit 2)
// and writes nothing, and a raised limit lets a schedule through; `simulate` replays by
// class and `render` draws a summary past the limits (1,024 processors for `render`).
#include <fcntl.h>
#include <fmt/core.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "../support/cli_harness.hpp"
#include <nlohmann/json.hpp>

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
}

// Past --max-transfers the replay goes by class (simulate.hpp): the same figures as the
// full replay, from one SimGrid run per distinct flow.
// The hypercube:6 AAS (4,032 transfers) with the limit lowered to 1,000: a full replay of
// it stays quick.
TEST_F(Limits, SimulateReplaysByClassPastTheLimit) {
  const fs::path file = dir_ / "h6.json";
  {
    std::ofstream out(file);
    write_schedule_json(test::hypercube_xor_aas(6), out);
  }
  const std::vector<std::string> args = {"simulate", file.string(), "--bandwidth", "1GBps",
                                         "--latency", "1us", "--bytes", "1024", "--json"};
  auto lowered = args;
  lowered.insert(lowered.end(), {"--max-transfers", "1000"});
  const CliRun r = run(lowered);
  if (r.err.find("without SimGrid") != std::string::npos) GTEST_SKIP() << r.err;
  ASSERT_EQ(r.status, 0) << r.err;
  const auto by_class = nlohmann::json::parse(r.out);
  // Every transfer is one message of 1024 B; hop counts 1..6: six classes.
  EXPECT_EQ(by_class["replayed_by_class"], 6) << r.out;
  const CliRun full = run(args);
  ASSERT_EQ(full.status, 0) << full.err;
  const auto every = nlohmann::json::parse(full.out);
  EXPECT_FALSE(every.contains("replayed_by_class"));
  ASSERT_EQ(every["step_seconds"].size(), 63U);
  for (std::size_t i = 0; i < 63; ++i)
    EXPECT_NEAR(every["step_seconds"][i].get<double>(),
                by_class["step_seconds"][i].get<double>(), 1e-12)
        << "step " << i + 1;
  EXPECT_NEAR(every["total_seconds"].get<double>(), by_class["total_seconds"].get<double>(),
              1e-9);
  auto negative = args;
  negative.insert(negative.end(), {"--max-transfers", "-1"});
  const CliRun refused = run(negative);
  EXPECT_EQ(refused.status, 2);
  EXPECT_EQ(lines(refused.err), 1U) << refused.err;
}

// Past the limits `render` draws a summary (summary.hpp) and says so in one line.
TEST_F(Limits, RenderSummarisesPastTheLimit) {
  const fs::path svg = dir_ / "s.svg";
  const CliRun r = run({"render", big_.string(), "-o", svg.string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(lines(r.err), 1U) << r.err;
  EXPECT_NE(r.err.find("65280 transfers, more than --max-transfers 20000: drawing a summary"),
            std::string::npos)
      << r.err;
  const std::string picture = slurp(svg);
  EXPECT_NE(picture.find("transfers per step"), std::string::npos);
  EXPECT_NE(picture.find("channel load"), std::string::npos);
  // 255 steps of 256 transfers each: a bar per step, all of full height.
  EXPECT_NE(picture.find("AAS on hypercube:8: 65280 transfers in 255 steps"), std::string::npos);
  const fs::path html = dir_ / "r.html";
  const CliRun report = run({"render", big_.string(), "-o", html.string()});
  EXPECT_EQ(report.status, 0) << report.err;
  const std::string page = slurp(html);
  EXPECT_NE(page.find("id=\"ccsched-status\""), std::string::npos);
  EXPECT_NE(page.find("The first 100 of 65280 transfers"), std::string::npos);
  EXPECT_LT(page.size(), 400000U);  // the per-step overview, not 65,280 transfers
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(Limits, ARaisedLimitLetsTheScheduleThrough) {
  const fs::path program = dir_ / "p.c";
  const CliRun r = run({"codegen", "mpi", big_.string(), "-o", program.string(),
                        "--max-transfers", "65280", "--form", "tables"});
  EXPECT_EQ(r.status, 0) << r.err;
  // One send per transfer at least: the program names every one of the 65,280.
  EXPECT_GT(fs::file_size(program), 65280U * 10U);
  // The XOR schedule is the same from every processor of the hypercube: past the limit
  // it is written as a translation rule (mpi.hpp), one entry per step.
  const CliRun rule = run({"codegen", "mpi", big_.string(), "-o", program.string()});
  EXPECT_EQ(rule.status, 0) << rule.err;
  EXPECT_LT(fs::file_size(program), 65280U);
  EXPECT_NE(slurp(program).find("written as a translation rule of 255 entries"),
            std::string::npos);
  const CliRun tables = run({"codegen", "mpi", big_.string(), "-o", program.string(), "--form",
                             "tables"});
  EXPECT_EQ(tables.status, 2);
  EXPECT_NE(tables.err.find("more than the limit of 20000 for an MPI program of tables"),
            std::string::npos)
      << tables.err;
}

// A network past --max-processors is summarised too: a valid broadcast along ring:1100.
TEST_F(Limits, RenderSummarisesLargeNetworks) {
  Schedule s;
  s.topology = test::ring(1100);
  s.collective = test::oab(s.topology, 0);
  s.model.ports.reset();
  s.steps = 1099;
  for (Step t = 1; t <= 1099; ++t) s.transfers.push_back({t, {t - 1, t}, {0}});
  ASSERT_TRUE(verify_schedule(s).empty());
  const fs::path file = dir_ / "ring.json";
  {
    std::ofstream out(file);
    write_schedule_json(s, out);
  }
  const fs::path svg = dir_ / "s.svg";
  const CliRun r = run({"render", file.string(), "-o", svg.string()});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("1100 processors, more than --max-processors 1024: drawing a summary"),
            std::string::npos)
      << r.err;
  // 1,099 steps: two steps a bar; every channel but the last of the one-way chain is idle
  // or carries one transfer.
  const std::string picture = slurp(svg);
  EXPECT_NE(picture.find("(2 steps a bar)"), std::string::npos);
  // A broadcast has no translation rule: past the limit no MPI program is written.
  const fs::path program = dir_ / "p.c";
  const CliRun mpi =
      run({"codegen", "mpi", file.string(), "-o", program.string(), "--max-transfers", "500"});
  EXPECT_EQ(mpi.status, 2);
  EXPECT_EQ(lines(mpi.err), 1U) << mpi.err;
  EXPECT_NE(mpi.err.find("1099 transfers, more than the limit of 500 for an MPI program of "
                         "tables, and no translation rule"),
            std::string::npos)
      << mpi.err;
  EXPECT_FALSE(fs::exists(program));
  const CliRun negative =
      run({"render", file.string(), "-o", svg.string(), "--max-processors", "-1"});
  EXPECT_EQ(negative.status, 2);
  EXPECT_EQ(lines(negative.err), 1U) << negative.err;
  // An invalid schedule is refused whatever its size.
  s.transfers.pop_back();
  {
    std::ofstream out(file);
    write_schedule_json(s, out);
  }
  fs::remove(svg);
  const CliRun invalid = run({"render", file.string(), "-o", svg.string()});
  EXPECT_EQ(invalid.status, 2);
  EXPECT_NE(invalid.err.find("not a valid schedule"), std::string::npos) << invalid.err;
  EXPECT_FALSE(fs::exists(svg));
}

}  // namespace
}  // namespace ccsched
