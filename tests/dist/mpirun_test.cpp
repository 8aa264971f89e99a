// End to end: `mpirun --oversubscribe -np 3 ccsched solve ... --engine umda|hgsa|mboa` runs one
// island per rank on this 2-core machine, writes one valid schedule, and the same seed
// on the same number of ranks writes the same schedule.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "../support/cli_harness.hpp"
#include "../support/solve_check.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"

namespace ccsched {
namespace {

// The run's stdout and stderr together, as mpirun interleaves its ranks' output; the
// capture files in a folder of this process's own.
struct CommandRun {
  int status = -1;
  std::string output;
};

CommandRun run(const std::string& command) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ccsched_dist_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const test::CliRun r = test::run_command(command, dir);
  std::filesystem::remove_all(dir);
  return {r.status, r.out + r.err};
}

// mpirun refuses to run as root unless told; the test machine runs tests as root. Under the
// sanitizer build, Open MPI's own allocations (MCA components, dlopen'ed and unloaded before
// exit) are still live at exit and LeakSanitizer would fail the ranks for them: leak
// checking is off for the ranks only (every other test, and ccsched's own code in the
// non-MPI tests, keeps it).
std::string mpirun(int ranks) {
  return std::string(
             "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
             "ASAN_OPTIONS=detect_leaks=0 ") +
         CCSCHED_MPIEXEC + " --oversubscribe -np " + std::to_string(ranks) + " " +
         test::ccsched_binary();
}

class Islands : public ::testing::TestWithParam<const char*> {};

TEST_P(Islands, ThreeRanksGiveOneValidReproducibleSchedule) {
  const std::string engine = GetParam();
  const std::string dir = ::testing::TempDir();
  std::string texts[2];
  for (int i = 0; i < 2; ++i) {
    const std::string out = dir + "/islands_" + engine + std::to_string(i) + ".json";
    std::remove(out.c_str());
    const CommandRun r = run(mpirun(3) + " solve kautz:3,2 --cc AAS --steps 7 --engine " + engine +
                             " --seed 5 --migration-interval 2 --time-limit 60 -o " + out);
    ASSERT_EQ(r.status, 0) << r.output;
    // Only rank 0 prints the summary.
    EXPECT_EQ(r.output.find("steps        7"), r.output.rfind("steps        7")) << r.output;
    const Schedule s = read_schedule_file(out);
    EXPECT_TRUE(verify_schedule(s).empty());
    EXPECT_EQ(s.steps, 7);
    EXPECT_EQ(s.solver->engine, engine);
    texts[i] = testing_support::fingerprint(s);
  }
  EXPECT_EQ(texts[0], texts[1]);
}

INSTANTIATE_TEST_SUITE_P(Engines, Islands, ::testing::Values("umda", "hgsa", "mboa"));

// Under mpirun only the evolutionary engines run as islands; others are refused clearly.
TEST(IslandsCli, OtherEnginesAreRefused) {
  const CommandRun r = run(mpirun(2) + " solve petersen --cc OAB --engine sat");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("only --engine umda, hgsa or mboa"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace ccsched
