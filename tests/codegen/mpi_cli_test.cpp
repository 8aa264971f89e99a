// `ccsched codegen` end to end: real schedules from `ccsched solve`, C programs from
// `ccsched codegen mpi`, compiled with mpicc and run with mpirun --oversubscribe -np P —
// Kautz(3,2) AAS and AAB, Petersen OAB, Omega 8 AAB — and every rank must report correct
// data. A program whose transfer table was tampered with must report the failure (so the
// check inside the programs can fail). Bad input is one line and exit status 2, also
// when MPI is not installed. Skipped (with the reason) only when mpicc or mpirun is
// missing; scripts/setup.sh installs Open MPI.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "../support/cli_harness.hpp"
#include "../support/reduction_schedules.hpp"

namespace {

namespace fs = std::filesystem;

namespace test = ccsched::test;
using test::CliRun;
using test::slurp;

bool on_path(const std::string& program) {
  return std::system(("command -v " + program + " >/dev/null 2>&1").c_str()) == 0;
}

class CodegenCli : public test::CliTest {
 protected:
  CodegenCli() : CliTest("ccsched_codegen_cli_") {}

  fs::path solve(const std::string& spec, const std::string& cc) {
    const auto path = dir_ / "schedule.json";
    const CliRun r = run_line("solve " + spec + " --cc " + cc + " -o " + path.string());
    EXPECT_EQ(r.status, 0) << r.err;
    return path;
  }

  // mpirun on P ranks; as root Open MPI needs to be told that this is intended.
  CliRun mpirun(const fs::path& program, int ranks) {
    const std::string root = ::geteuid() == 0 ? "--allow-run-as-root " : "";
    return shell("timeout 300 mpirun --oversubscribe " + root + "-np " + std::to_string(ranks) +
                 " " + program.string());
  }

  // Generates, compiles and runs; checks every rank's line and the summary.
  void run_schedule(const std::string& spec, const std::string& cc, int ranks,
                    const std::map<int, int>& expected_by_rank, int expected_default,
                    const std::string& codegen_options = "") {
    if (!on_path("mpicc") || !on_path("mpirun"))
      GTEST_SKIP() << "Open MPI is not installed (scripts/setup.sh installs it)";
    const fs::path schedule = solve(spec, cc);
    const fs::path source = dir_ / "prog.c", program = dir_ / "prog";
    const CliRun gen = run_line("codegen mpi " + schedule.string() + " -o " + source.string() +
                                codegen_options);
    ASSERT_EQ(gen.status, 0) << gen.err;
    const CliRun cc_run = shell("mpicc -O2 -Wall -o " + program.string() + " " + source.string());
    ASSERT_EQ(cc_run.status, 0) << cc_run.out << cc_run.err;
    const CliRun r = mpirun(program, ranks);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    const std::regex line(R"(rank (\d+) \((.*?)\): ok, (\d+) of (\d+) messages correct)");
    std::map<int, int> correct;  // labels may hold parentheses: "(0,1)" on a torus
    for (auto it = std::sregex_iterator(r.out.begin(), r.out.end(), line);
         it != std::sregex_iterator(); ++it) {
      const int rank = std::stoi((*it)[1]);
      EXPECT_EQ((*it)[3], (*it)[4]) << (*it)[0];
      correct[rank] = std::stoi((*it)[3]);
    }
    ASSERT_EQ(static_cast<int>(correct.size()), ranks) << r.out;
    for (const auto& [rank, n] : correct) {
      const auto e = expected_by_rank.find(rank);
      EXPECT_EQ(n, e == expected_by_rank.end() ? expected_default : e->second) << "rank " << rank;
    }
    EXPECT_EQ(r.out.find("FAILED"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("all " + std::to_string(ranks) +
                         " ranks hold exactly what the collective "
                         "delivers"),
              std::string::npos)
        << r.out;
  }
};

TEST_F(CodegenCli, KautzAllToAllScatter) { run_schedule("kautz:3,2", "AAS", 12, {}, 11); }

TEST_F(CodegenCli, KautzAllToAllBroadcast) { run_schedule("kautz:3,2", "AAB", 12, {}, 11); }

// One-to-all broadcast from processor 0: the root receives nothing, everyone else one
// message, most of them forwarded by ranks that received it in an earlier step.
TEST_F(CodegenCli, PetersenOneToAllBroadcast) { run_schedule("petersen", "OAB", 10, {{0, 0}}, 1); }

TEST_F(CodegenCli, OmegaAllToAllBroadcast) { run_schedule("omega:8", "AAB", 8, {}, 7); }

// The gossip design's translation schedule on torus:4x4 written as a translation rule
// (mpi.hpp): every rank derives its own transfers and must hold all 15 messages.
TEST_F(CodegenCli, TorusAllToAllBroadcastAsATranslationRule) {
  run_schedule("torus:4x4", "AAB", 16, {}, 15, " --form rule");
  EXPECT_NE(slurp(dir_ / "prog.c").find("written as a translation rule"), std::string::npos);
}

// A schedule that is no translation (a Kautz network is no torus) has no rule: asked for
// one, one line and exit 2.
TEST_F(CodegenCli, NoRuleIsOneLine) {
  const fs::path schedule = solve("kautz:2,2", "AAB");
  const CliRun r = run_line("codegen mpi " + schedule.string() + " -o " +
                            (dir_ / "p.c").string() + " --form rule");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("no translation rule"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir_ / "p.c"));
  const CliRun bad = run_line("codegen mpi " + schedule.string() + " -o " +
                              (dir_ / "p.c").string() + " --form loops");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--form"), std::string::npos) << bad.err;
}

TEST_F(CodegenCli, TamperedProgramReportsTheFailure) {
  if (!on_path("mpicc") || !on_path("mpirun"))
    GTEST_SKIP() << "Open MPI is not installed (scripts/setup.sh installs it)";
  const fs::path schedule = solve("ring:6", "AAS");
  const fs::path source = dir_ / "prog.c", program = dir_ / "prog";
  ASSERT_EQ(run_line("codegen mpi " + schedule.string() + " -o " + source.string() + " --bytes 64")
                .status,
            0);
  // The first two transfers of the table swap the messages they carry.
  std::string text = slurp(source);
  const std::regex table(R"((static const int tr_msgs\[\] = \{\n  )(\d+), (\d+))");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, table));
  ASSERT_NE(m[2], m[3]);
  text = m.prefix().str() + m[1].str() + m[3].str() + ", " + m[2].str() + m.suffix().str();
  std::ofstream(source) << text;
  ASSERT_EQ(shell("mpicc -O2 -o " + program.string() + " " + source.string()).status, 0);
  const CliRun r = mpirun(program, 6);
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  // mpirun may drop the forwarded output of a job whose ranks exit non-zero (seen once
  // under load in CI): then the exit status above is the verdict; what is printed must
  // never claim success.
  const bool printed = r.out.find("ccsched:") != std::string::npos;
  if (printed) {
    EXPECT_NE(r.out.find("FAILED"), std::string::npos) << r.out;
  }
  EXPECT_EQ(r.out.find("all 6 ranks"), std::string::npos) << r.out;
}

TEST_F(CodegenCli, BuildAndRunFromTheCommand) {
  if (!on_path("mpicc") || !on_path("mpirun"))
    GTEST_SKIP() << "Open MPI is not installed (scripts/setup.sh installs it)";
  const fs::path schedule = solve("ring:4", "OAB");
  const CliRun r =
      run_line("codegen mpi " + schedule.string() + " -o " + (dir_ / "p.c").string() + " --run");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "p"));
  EXPECT_NE(r.out.find("all 4 ranks hold exactly"), std::string::npos) << r.out;
}

// A reduction schedule through the command: the program checks the sums and says so.
TEST_F(CodegenCli, RingAllReduceRunsFromTheCommand) {
  if (!on_path("mpicc") || !on_path("mpirun"))
    GTEST_SKIP() << "Open MPI is not installed (scripts/setup.sh installs it)";
  const fs::path schedule = dir_ / "allreduce.json";
  std::ofstream(schedule) << ccsched::testing::ring4_allreduce_ring();
  const CliRun r = run_line("codegen mpi " + schedule.string() + " -o " + (dir_ / "p.c").string() +
                            " --bytes 256 --run");
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5) << r.out;
  for (int rank = 0; rank < 4; ++rank)
    EXPECT_NE(r.out.find("rank " + std::to_string(rank) + " (" + std::to_string(rank) +
                         "): ok, 4 of 4 accumulators correct"),
              std::string::npos)
        << r.out;
  EXPECT_NE(r.out.find("all 4 ranks hold exactly the sums"), std::string::npos) << r.out;
}

TEST_F(CodegenCli, BadInputIsOneLineAndExitTwo) {
  const fs::path schedule = solve("ring:6", "AAS");
  expect_one_line_error(
      run_line("codegen mpi " + schedule.string() + " -o " + (dir_ / "p.cpp").string()),
      "unknown output extension");
  expect_one_line_error(
      run_line("codegen msccl " + schedule.string() + " -o " + (dir_ / "a.json").string()),
      "unknown output extension");
  expect_one_line_error(run_line("codegen mpi " + schedule.string() + " -o " +
                                 (dir_ / "p.c").string() + " --bytes 6"),
                        "--bytes");
  // MPI not installed: no mpicc on PATH.
  expect_one_line_error(
      shell("env -u MPICC PATH=/nonexistent " + test::ccsched_binary() + " codegen mpi " +
            schedule.string() + " -o " + (dir_ / "p.c").string() + " --build"),
      "MPI is not installed");
  // A schedule that fails verify.
  nlohmann::json doc = nlohmann::json::parse(slurp(schedule));
  doc["transfers"].erase(doc["transfers"].begin());
  const auto bad = dir_ / "bad.json";
  std::ofstream(bad) << doc.dump();
  expect_one_line_error(run_line("codegen mpi " + bad.string() + " -o " + (dir_ / "q.c").string()),
                        "not a valid schedule");
  EXPECT_FALSE(fs::exists(dir_ / "q.c"));
  // A collective MSCCL has no name for.
  const CliRun perm = run_line("solve ring:6 --cc PERM -o " + (dir_ / "perm.json").string());
  ASSERT_EQ(perm.status, 0) << perm.err;
  expect_one_line_error(run_line("codegen msccl " + (dir_ / "perm.json").string() + " -o " +
                                 (dir_ / "a.xml").string()),
                        "no MSCCL collective");
  // And the good case writes XML.
  const CliRun ok =
      run_line("codegen msccl " + schedule.string() + " -o " + (dir_ / "a.xml").string());
  EXPECT_EQ(ok.status, 0) << ok.err;
  EXPECT_NE(slurp(dir_ / "a.xml").find("coll=\"alltoall\""), std::string::npos);
}

}  // namespace
