// What a new user types, end to end through the built binary: output paths checked before
// any search, labels with commas in list options, numbers checked as typed, refusals that
// name the option (exit 2, one line, no file), claims that `verify` finds contradicted,
// the JSON summary, counted nouns, and the wording of help, progress and reports.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "../support/cli_harness.hpp"
#include "../support/slowdown.hpp"

namespace ccsched {
namespace {

namespace fs = std::filesystem;
using test::CliRun;
using test::slurp;
using testing::kSlow;

class UserInput : public test::CliTest {
 protected:
  UserInput() : CliTest("ccsched_input_") {}

  // The command with `args` is refused in one line naming `needle`, and leaves no file.
  void expect_refused_args(const std::vector<std::string>& args, const std::string& needle) {
    const CliRun r = run(args);
    std::string what;
    for (const auto& a : args) what += a + " ";
    test::expect_one_line_error(r, needle, what);
    EXPECT_FALSE(fs::exists(dir_ / "out.json")) << what;
    EXPECT_TRUE(temporaries().empty()) << what;
  }

  std::string out() const { return path("out.json"); }
};

// A long search (torus:6x6 AAS with SAT takes minutes) is never started when its result
// could not be written: the refusal comes at once.
TEST_F(UserInput, OutputIsCheckedBeforeTheSearch) {
  const std::string missing = path("no/such/folder/s.json");
  CliRun r = run({"solve", "torus:6x6", "--cc", "AAS", "--engine", "sat", "-o", missing});
  test::expect_one_line_error(r, "folder");
  EXPECT_LT(r.seconds, 5.0 * kSlow);
  r = run({"solve", "torus:6x6", "--cc", "AAS", "--engine", "sat", "-o", "/proc/version"});
  test::expect_one_line_error(r, "/proc/version: is in a kernel file system");
  EXPECT_LT(r.seconds, 5.0 * kSlow);
  r = run({"solve", "ring:4", "--cc", "AAS", "-o", ""});
  test::expect_one_line_error(r, "--output: expected a file name");
  r = run({"faults", "torus:6x6", "--cc", "AAS", "--html", path("no/such/f.html")});
  test::expect_one_line_error(r, "folder");
  EXPECT_LT(r.seconds, 5.0 * kSlow);
  r = run({"faults", "ring:4", "--cc", "OAB", "--html", ""});
  test::expect_one_line_error(r, "--html: expected a file name");
  const std::string schedule = path("ring.json");
  ASSERT_EQ(run({"solve", "ring:4", "--cc", "AAS", "--quiet", "-o", schedule}).status, 0);
  r = run({"render", schedule, "-o", ""});
  test::expect_one_line_error(r, "--output: expected a file name");
  r = run({"codegen", "mpi", schedule, "-o", path("no/such/p.c")});
  test::expect_one_line_error(r, "folder");
  r = run({"topo", "export", "ring:4", "--format", "json", "-o", ""});
  test::expect_one_line_error(r, "--output: expected a file name");
}

// Mesh and torus labels are "(x,y)": a comma inside brackets does not split a list.
TEST_F(UserInput, LabelsWithCommasStayWhole) {
  CliRun r = run({"solve", "mesh:3x3", "--cc", "AAS", "--fault", "(0,0)-(0,1)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["network"]["channels"], 22);  // 24 less one link
  r = run({"solve", "mesh:3x3", "--cc", "AAS", "--fault", "(0,0)-(0,1),(2,2)-(2,1)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["network"]["channels"], 20);
  r = run({"solve", "mesh:3x3", "--cc", "MNB", "--senders", "(0,0),(1,1)", "--receivers",
           "(2,2),(0,2)", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["collective"]["messages"], 2);
  r = run(
      {"bounds", "mesh:3x3", "--cc", "MNS", "--senders", "(0,0),(1,1)", "--receivers", "(2,2)"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2 senders, 1 receiver, 2 messages"), std::string::npos) << r.out;
  // The faults table names the link exactly as typed and as the network labels it.
  r = run({"faults", "mesh:3x3", "--cc", "OAB", "--links", "(0,0)-(0,1),(2,1)-(2,2)"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\n(0,0)-(0,1) "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n(2,1)-(2,2) "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 single-link faults;"), std::string::npos) << r.out;
}

TEST_F(UserInput, BadNumbersAreOneLineWithTheTextTyped) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--time-limit", "-5"}, "--time-limit: expected a number of seconds, above 0, got '-5'"},
      {{"--time-limit", "abc"}, "--time-limit: expected a number of seconds, above 0, got 'abc'"},
      {{"--steps", "0"}, "--steps: expected a whole number from 1"},
      {{"--steps", "-3"}, "got '-3'"},
      {{"--seed", "-1"}, "--seed: expected a seed, a whole number from 0 to"},
      {{"--seed", "1.5"}, "got '1.5'"},
      {{"--radius", "-1"}, "--radius: expected a whole number from 1"},
      {{"--runs", "0"}, "--runs: expected a whole number from 1"},
      {{"--relay-time-limit", "-1"}, "--relay-time-limit: expected a number of seconds, 0 or more"},
      {{"--routing", "nonminimal:1000000"}, "--routing: nonminimal:1000000 allows more extra hops"},
      {{"--shift", "2"}, "--shift: only PERM takes a shift (AAS was asked for)"},
  };
  for (const auto& [extra, needle] : cases) {
    std::vector<std::string> args{"solve", "ring:4", "--cc", "AAS", "-o", out()};
    args.insert(args.end(), extra.begin(), extra.end());
    expect_refused_args(args, needle);
  }
  for (const char* option : {"--time-limit", "--cell-time-limit", "--seed"})
    expect_refused_args({"faults", "ring:4", "--cc", "OAB", option, "-2"}, option);
  // --blocks far past what any schedule can hold is refused from the estimate, at once.
  const CliRun r = run({"solve", "ring:8", "--cc", "ALLREDUCE", "--blocks", "1000000"});
  test::expect_one_line_error(r, "--blocks: 1000000 blocks, each summed over 8 inputs");
  EXPECT_NE(r.err.find("give at most 149796 blocks"), std::string::npos) << r.err;
  EXPECT_LT(r.seconds, 5.0 * kSlow);
  expect_refused_args({"solve", "ring:8", "--cc", "ALLREDUCE", "--blocks", "0"},
                      "--blocks: expected a whole number from 1");
  // PERM takes the shift, as before.
  EXPECT_EQ(run({"solve", "ring:4", "--cc", "PERM", "--shift", "2", "--quiet"}).status, 0);
}

// No engine combines messages; when the user named none, the refusal names none either.
TEST_F(UserInput, CombiningNamesNoEngineTheUserDidNotChoose) {
  CliRun r = run({"solve", "ring:4", "--cc", "AAS", "--combining"});
  test::expect_one_line_error(r, "--combining: ");
  EXPECT_EQ(r.err.find("greedy"), std::string::npos) << r.err;
  r = run({"faults", "ring:4", "--cc", "AAS", "--combining"});
  test::expect_one_line_error(r, "--combining");
  EXPECT_EQ(r.err.find("greedy"), std::string::npos) << r.err;
  // A reduction combines blocks.
  EXPECT_EQ(run({"solve", "ring:4", "--cc", "ALLREDUCE", "--blocks", "2", "--combining", "--quiet"})
                .status,
            0);
}

TEST_F(UserInput, HelpSaysWhatItDoes) {
  const CliRun solve = run({"solve", "--help"});
  EXPECT_EQ(solve.status, 0);
  EXPECT_NE(solve.out.find("one-way network"), std::string::npos) << solve.out;
  const CliRun msccl = run({"codegen", "msccl", "--help"});
  EXPECT_EQ(msccl.status, 0);
  for (const char* kind : {"ALLREDUCE", "REDUCESCATTER", "REDUCE", "AAS"})
    EXPECT_NE(msccl.out.find(kind), std::string::npos) << kind << "\n" << msccl.out;
}

// `solve --algorithm` (docs/ENGINES.md, "Classical algorithms"): a combination that makes
// no sense is one line and exit 2; a classical schedule is written, verifies and names its
// algorithm.
TEST_F(UserInput, ClassicalAlgorithms) {
  test::expect_one_line_error(run({"solve", "ring:8", "--cc", "SCAN", "--algorithm", "ring"}),
                              "ring does not write SCAN");
  test::expect_one_line_error(run({"solve", "ring:8", "--cc", "ALLREDUCE", "--algorithm", "tree"}),
                              "unknown algorithm 'tree'");
  test::expect_one_line_error(
      run({"solve", "ring:8", "--cc", "ALLREDUCE", "--algorithm", "ring", "--engine", "sat"}), "--engine");
  test::expect_one_line_error(run({"solve", "torus:4x4", "--cc", "ALLREDUCE", "--algorithm",
                                   "recursive-doubling", "--switching", "store-and-forward"}),
                              "use --switching wormhole");
  const std::string schedule = path("swing.json");
  const CliRun r = run({"solve", "ring:6", "--cc", "ALLREDUCE", "--algorithm", "swing", "--senders",
                        "5,4,3,2,1,0", "--json", "-o", schedule});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto summary = nlohmann::json::parse(r.out);
  EXPECT_EQ(summary["engine"], "classical:swing");
  EXPECT_EQ(summary["optimal"], false);
  EXPECT_EQ(run({"verify", schedule}).status, 0);
}

TEST_F(UserInput, EdgeListsDoNotMixNumbersAndNames) {
  const std::string file = write("net.edges", "0 1\n1 2\n2 x\nx 0\n");
  test::expect_one_line_error(run({"topo", "info", file}),
                              "net.edges:3: node \"x\" is not a number");
}

// `verify` reports a claim the schedule itself contradicts, and exits 1.
TEST_F(UserInput, VerifyFindsContradictedClaims) {
  const std::string schedule = path("ring.json");
  ASSERT_EQ(run({"solve", "ring:6", "--cc", "AAS", "--quiet", "-o", schedule}).status, 0);
  EXPECT_EQ(run({"verify", schedule}).status, 0);
  auto doc = nlohmann::json::parse(slurp(schedule));
  const int steps = doc["steps"];

  doc["lower_bound"] = steps + 1;
  doc["optimal"] = false;
  CliRun r = run({"verify", write("high.json", doc.dump())});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("claims: lower_bound " + std::to_string(steps + 1)), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("invalid: 1 violation\n"), std::string::npos) << r.out;

  doc["lower_bound"] = steps - 1;
  doc["optimal"] = true;
  r = run({"verify", write("optimal.json", doc.dump()), "--json"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(report["valid"], false);
  ASSERT_EQ(report["violations"].size(), 1u);
  EXPECT_EQ(report["violations"][0]["rule"], "claims");
}

TEST_F(UserInput, SolveJsonNamesTheProblemAndTheRun) {
  CliRun r = run({"solve", "kautz:3,2", "--cc", "OAB", "--root", "2", "--seed", "7", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["network"]["name"], "kautz:3,2");
  EXPECT_EQ(j["network"]["processors"], 12);
  EXPECT_EQ(j["collective"]["kind"], "OAB");
  EXPECT_EQ(j["collective"]["messages"], 1);
  EXPECT_EQ(j["model"]["ports"], "all");
  EXPECT_EQ(j["model"]["switching"], "wormhole");
  EXPECT_EQ(j["model"]["routing"], "minimal");
  EXPECT_TRUE(j["engine"].is_string());
  EXPECT_FALSE(j["engine"].get<std::string>().empty());
  EXPECT_EQ(j["seed"], 7);
  EXPECT_EQ(j["steps"], j["lower_bound"]);
  test::expect_one_line_error(run({"solve", "ring:4", "--cc", "AAS", "--json", "--table"}),
                              "--json");
}

// One of a thing is singular, everywhere a count is printed.
TEST_F(UserInput, CountsOfOneAreSingular) {
  CliRun r = run({"solve", "ring:4", "--cc", "MNS", "--senders", "0", "--receivers", "1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("MNS, 1 message\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 switches"), std::string::npos) << r.out;
  r = run({"solve", "ring:4", "--cc", "REDUCE", "--root", "0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("4 senders, 1 receiver, 1 block\n"), std::string::npos) << r.out;
  const std::string star = write("star.edges", "switch 3\n0 3\n1 3\n2 3\n");
  r = run({"topo", "info", star});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("(3 processors, 1 switch)"), std::string::npos) << r.out;
  r = run({"bounds", star, "--cc", "OAB", "--root", "0"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1 switch, 6 channels"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 sender, 2 receivers, 1 message\n"), std::string::npos) << r.out;
  const std::string schedule = path("one.json");
  ASSERT_EQ(run({"solve", "ring:4", "--cc", "MNS", "--senders", "0", "--receivers", "1", "--quiet",
                 "-o", schedule})
                .status,
            0);
  r = run({"verify", schedule});
  EXPECT_NE(r.out.find("1 transfer in 1 step\n"), std::string::npos) << r.out;
  r = run({"show", schedule});
  EXPECT_NE(r.out.find("1 sender, 1 receiver, 1 message\n"), std::string::npos) << r.out;
  // No line says "1 steps", "1 messages" or the like.
  for (const auto& text :
       {r.out, run({"solve", "ring:4", "--cc", "MNS", "--senders", "0", "--receivers", "1"}).out})
    for (const char* wrong : {"1 steps", "1 messages", "1 receivers", "1 switches", "1 senders",
                              "1 transfers", "1 blocks"})
      EXPECT_EQ(text.find(std::string(" ") + wrong), std::string::npos) << wrong << "\n" << text;
}

TEST_F(UserInput, ClearMessagesForPathsAndSizes) {
  const std::string schedule = path("ring.json");
  ASSERT_EQ(run({"solve", "ring:4", "--cc", "AAS", "--quiet", "-o", schedule}).status, 0);
  test::expect_one_line_error(
      run({"codegen", "mpi", schedule, "-o", path("p.c"), "--bytes", "100GB"}),
      "--bytes: '100GB' (100000000000 bytes) is more than the largest");
  test::expect_one_line_error(run({"codegen", "mpi", schedule, "-o", "/proc/version"}),
                              "/proc/version");
  test::expect_one_line_error(run({"topo", "info", "/tmp"}), "/tmp: is a directory");
  test::expect_one_line_error(run({"solve", "/tmp", "--cc", "AAS"}), "/tmp: is a directory");
  const std::string plain = write("notes.txt", "0 1\n");
  test::expect_one_line_error(run({"topo", "info", plain}), "without a topology extension");
  // A spec string still wins over a file of the same name in the working folder.
  EXPECT_EQ(run({"topo", "info", "petersen"}).status, 0);
}

// The report shows the seed the run used, also when a design that draws no random number
// made the schedule.
TEST_F(UserInput, ReportShowsTheSeedOfTheRun) {
  const std::string schedule = path("ring.json");
  ASSERT_EQ(
      run({"solve", "ring:4", "--cc", "AAS", "--seed", "5", "--quiet", "-o", schedule}).status, 0);
  EXPECT_EQ(nlohmann::json::parse(slurp(schedule))["solver"]["seed"], 5);
  const std::string report = path("r.html");
  const CliRun r = run({"render", schedule, "-o", report});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(slurp(report).find("(seed 5,"), std::string::npos);
}

TEST_F(UserInput, FaultsHeaderCountsTheFaultsSwept) {
  CliRun r = run({"faults", "ring:4", "--cc", "OAB", "--links", "0-1"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("network ring:4: 1 single-link fault;"), std::string::npos) << r.out;
  r = run({"faults", "ring:4", "--cc", "OAB", "--links", "0-1,2-3", "--double"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2 single-link faults and 1 pair;"), std::string::npos) << r.out;
  r = run({"faults", "ring:4", "--cc", "OAB", "--double"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("4 single-link faults and 6 pairs;"), std::string::npos) << r.out;
  r = run({"faults", "ring:4", "--cc", "OAB", "--links", "0-1,2-3", "--double", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto swept = nlohmann::json::parse(r.out)["faults_swept"];
  EXPECT_EQ(swept["single"], 2);
  EXPECT_EQ(swept["single_asked"], 2);
  EXPECT_EQ(swept["pairs"], 1);
  EXPECT_EQ(swept["pairs_asked"], 1);
}

TEST_F(UserInput, EstimateNamesIgnoreCase) {
  const std::vector<std::string> common{"estimate", "--p",     "16",   "--switching", "CT",
                                        "--ts",     "10us",    "--tb", "1ns",         "--th",
                                        "50ns",     "--bytes", "1024"};
  for (const char* op : {"OAB", "AllReduce"}) {
    std::vector<std::string> upper = common, lower = common;
    upper.insert(upper.end(), {"--topology", "Hypercube", "--op", op});
    std::string low(op);
    for (char& c : low) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    lower.insert(lower.end(), {"--topology", "hypercube", "--op", low});
    const CliRun a = run(upper), b = run(lower);
    EXPECT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(a.out, b.out) << op;
  }
}

// On a terminal (here: --progress), the progress line shows the whole run's elapsed time,
// the time left under --time-limit, and what the engine is trying.
TEST_F(UserInput, ProgressShowsElapsedAndTimeLeft) {
  // torus:6x6 AAS in 28 steps: the SAT search runs for minutes, past the limit (scaled
  // under the sanitizers, where the bounds before it take longer).
  const CliRun r = run({"solve", "torus:6x6", "--cc", "AAS", "--engine", "sat", "--steps", "28",
                        "--time-limit", std::to_string(4.0 * kSlow), "--progress"});
  EXPECT_EQ(r.status, 1) << r.err;  // no schedule of 28 steps within the limit
  EXPECT_NE(r.err.find("s elapsed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("s left"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("trying "), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ccsched
