// End-to-end tests of `ccsched verify` and `ccsched show` through the built binary: exit
// statuses (0 valid, 1 invalid, 2 unreadable), the --json shape, one-line errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../support/cli_harness.hpp"
#include "ccsched/schedule/json.hpp"
#include "support.hpp"

namespace ccsched {
namespace {

namespace fs = std::filesystem;

class Cli : public test::CliTest {
 protected:
  Cli() : CliTest("ccsched_schedule_cli_") {}
};

int lines(const std::string& text) { return static_cast<int>(test::count_lines(text)); }

Schedule broken() {
  auto s = test::ring4_aas();
  s.transfers[8].step = 1;  // two rule-3 violations
  return s;
}

TEST_F(Cli, VerifyValid) {
  const auto file = write("ok.json", write_schedule_json(test::ring4_aas()));
  const auto r = run_line("verify " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "valid: AAS on ring:4, 12 transfers in 2 steps\n");
  EXPECT_EQ(r.err, "");
}

TEST_F(Cli, VerifyInvalidPrintsEveryViolation) {
  const auto s = broken();
  const auto file = write("bad.json", write_schedule_json(s));
  const auto r = run_line("verify " + file);
  EXPECT_EQ(r.status, 1) << r.err;
  const auto c01 = *s.topology.find_channel(0, 1);
  EXPECT_EQ(r.out.rfind("rule 3 (channels): step 1, transfers 0 and 8 both use channel " +
                            std::to_string(c01) + " (0->1)\n",
                        0),
            0U)
      << r.out;
  EXPECT_EQ(lines(r.out), 3);
  EXPECT_NE(r.out.find("invalid: 2 violations\n"), std::string::npos);
}

TEST_F(Cli, VerifyJsonShape) {
  const auto file = write("bad.json", write_schedule_json(broken()));
  auto r = run_line("verify --json " + file);
  EXPECT_EQ(r.status, 1);
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc.size(), 2U);
  EXPECT_EQ(doc["valid"], false);
  ASSERT_EQ(doc["violations"].size(), 2U);
  const auto& v = doc["violations"][0];
  for (const char* key : {"rule", "step", "transfer", "channel", "node", "message", "text"})
    EXPECT_TRUE(v.contains(key)) << key;
  EXPECT_EQ(v["rule"], 3);
  EXPECT_EQ(v["step"], 1);
  EXPECT_EQ(v["transfer"], 8);
  EXPECT_TRUE(v["message"].is_null());
  EXPECT_TRUE(v["text"].is_string());

  const auto ok = write("ok.json", write_schedule_json(test::ring4_aas()));
  r = run_line("verify " + ok + " --json");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(nlohmann::json::parse(r.out),
            nlohmann::json::parse(R"({"valid": true, "violations": [], "redundant": []})"));
}

// A valid schedule with a transfer nothing needs: after the ring reduce-scatter on ring:4,
// receiver 0 copies its finished block 0 to processor 1, which only owes block 1. A
// warning names transfer 12 and nothing else (every ring transfer is needed); exit 0.
TEST_F(Cli, VerifyWarnsAboutRedundantTransfers) {
  auto s = test::ring4_reduce_scatter();
  s.transfers.push_back(
      test::reduction_transfer(4, {0, 1}, {0}, ReductionSend::acc, ReductionRecv::copy));
  s.steps = 4;
  const auto file = write("extra.json", write_schedule_json(s));
  auto r = run_line("verify " + file);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out,
            "valid: REDUCESCATTER on ring:4, 13 transfers in 4 steps\n"
            "warning: 1 of 13 transfers can each be deleted and the schedule stays valid: 12\n");
  r = run_line("verify --json " + file);
  EXPECT_EQ(nlohmann::json::parse(r.out)["redundant"], nlohmann::json::parse("[12]")) << r.out;
  // Without it, nothing is redundant.
  s.transfers.pop_back();
  s.steps = 3;
  r = run_line("verify --json " + write("ring.json", write_schedule_json(s)));
  EXPECT_EQ(nlohmann::json::parse(r.out)["redundant"], nlohmann::json::array()) << r.out;
}

TEST_F(Cli, MalformedFileIsOneLineExit2) {
  const auto file = write("junk.json", "{\"format\": \"ccsched-schedule/1\", ");
  auto r = run_line("verify " + file);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("ccsched: error: " + file + ": not valid JSON", 0), 0U) << r.err;

  auto doc = nlohmann::json::parse(write_schedule_json(test::ring4_aas()));
  doc["transfers"][2]["path"][0] = "zero";
  const auto typed = write("typed.json", doc.dump());
  r = run_line("verify --json " + typed);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("transfers[2].path[0]"), std::string::npos) << r.err;

  r = run_line("verify " + (dir_ / "missing.json").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
  r = run_line("show " + file);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(lines(r.err), 1) << r.err;
}

TEST_F(Cli, ShowPrintsHeaderTableAndUtilisation) {
  auto s = test::ring4_aas();
  s.lower_bound = 2;
  s.optimal = true;
  const auto file = write("ok.json", write_schedule_json(s));
  auto r = run_line("show " + file);
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* part :
       {"network:     ring:4", "collective:  AAS", "model:       all-port", "steps:       2\n",
        "lower bound: 2\n", "optimal:     yes\n", "solver:      -\n", "valid:       yes\n",
        "src  1    2\n", "0    1,3  2\n", "channel utilisation:\n",
        "step 1: 8/8 channels (100.0 %)\n"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;

  r = run_line("show --layout trees " + file);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("subtree 1"), std::string::npos) << r.out;
  r = run_line("show --layout pie " + file);
  EXPECT_EQ(r.status, 2);

  const auto bad = write("bad.json", write_schedule_json(broken()));
  r = run_line("show " + bad);
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("valid:       NO, 2 violations"), std::string::npos) << r.out;
}

TEST_F(Cli, VerifyAndShowAReduction) {
  const auto ok = write("rs.json", write_schedule_json(test::ring4_reduce_scatter()));
  auto r = run_line("verify " + ok);
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.out, "valid: REDUCESCATTER on ring:4, 12 transfers in 3 steps\n");
  r = run_line("show " + ok);
  EXPECT_EQ(r.status, 0) << r.err;
  for (const char* part :
       {"collective:  REDUCESCATTER, 4 senders, 4 receivers, 4 blocks\n", "valid:       yes\n",
        "step 3:  0 -> 1  acc{0,2,3}  (block 1)  reduce\n", "final accumulators:\n",
        "  3  block 3:  {0,1,2,3}  complete\n", "step 3: 4/8 channels (50.0 %)\n"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;

  auto s = test::ring4_reduce_scatter();
  s.transfers[5].blocks = {9};  // node 1's block 3 in step 2 goes astray
  const auto bad = write("bad.json", write_schedule_json(s));
  r = run_line("verify " + bad);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("rule R1 (blocks): step 2, transfer 5: block 9 is outside 0..3\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("rule R3 (result): at the end acc[3][3] = {2,3}"), std::string::npos)
      << r.out;
  r = run_line("verify --json " + bad);
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["violations"].size(), 2U) << r.out;
  EXPECT_EQ(doc["violations"][0]["rule"], "R1");
  EXPECT_EQ(doc["violations"][0]["block"], 9);
  EXPECT_EQ(doc["violations"][1]["rule"], "R3");
  EXPECT_EQ(doc["violations"][1]["node"], 3);
  EXPECT_EQ(doc["violations"][1]["block"], 3);
  r = run_line("show --layout trees " + ok);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--layout"), std::string::npos) << r.err;
}

TEST_F(Cli, BadReductionRequestsAreOneLineErrors) {
  for (const char* args : {"bounds ring:4 --cc ALLREDUCE --blocks 0",
                           "bounds ring:4 --cc REDUCESCATTER --blocks 3",
                           "bounds ring:4 --cc REDUCE --root 9"}) {
    const auto r = run_line(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(lines(r.err), 1) << args << ": " << r.err;
    EXPECT_NE(r.err.find(std::string(args).find("root") != std::string::npos ? "--root"
                                                                               : "--blocks"),
              std::string::npos)
        << r.err;
  }
}

}  // namespace
}  // namespace ccsched
