// End-to-end tests of `ccsched bounds` through the built binary: the text and --json
// outputs, and bad input (one line on stderr, exit status 2).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "../support/cli_harness.hpp"

namespace {

class BoundsCli : public ccsched::test::CliTest {
 protected:
  BoundsCli() : CliTest("ccsched_bounds_cli_") {}
};

TEST_F(BoundsCli, JsonReport) {
  // Kautz(3,2) AAS, all-port: Σ = 228 over 36 channels -> 7 (seed 000 Table 2).
  const auto r = run_line("bounds kautz:3,2 --cc AAS --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["best"], 7);
  EXPECT_EQ(doc["collective"]["kind"], "AAS");
  EXPECT_EQ(doc["model"]["ports"], "all");
  EXPECT_EQ(doc["network"]["processors"], 12);
  bool found = false;
  for (const auto& b : doc["bounds"]) {
    EXPECT_TRUE(b.contains("argument") && b.contains("source"));
    if (b["name"] == "channel-load") {
      found = true;
      EXPECT_EQ(b["value"], 7);
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(BoundsCli, DirectDeliveryGivesTheSeedsModel) {
  // Kautz(3,3) OAS from 010: 12 steps by the root's 3 channels; with direct delivery the
  // channel 010->102 lies on the only route of 13 messages -> 13.
  auto r = run_line("bounds kautz:3,3 --cc OAS --json");
  ASSERT_EQ(r.status, 0) << r.err;
  auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["best"], 12);
  EXPECT_EQ(doc["model"]["direct_scatter"], false);
  r = run_line("bounds kautz:3,3 --cc OAS --direct --json");
  ASSERT_EQ(r.status, 0) << r.err;
  doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["best"], 13);
  EXPECT_EQ(doc["model"]["direct_scatter"], true);
}

TEST_F(BoundsCli, TextReportWithOptions) {
  // ring:8, two ports, OAS from 3: ⌈7/2⌉ = 4.
  auto r = run_line("bounds ring:8 --cc oas --ports 2 --root 3");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("best lower bound: 4 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("port-inject"), std::string::npos);
  // MNS with sender and receiver lists and a fault: messages 0->4 and 1->4; the fault
  // removes both channels of the link 0-1.
  r = run_line("bounds ring:8 --cc MNS --senders 0,1 --receivers 4 --fault 0-1 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["network"]["faults"].size(), 2u);
  EXPECT_EQ(doc["collective"]["messages"], 2);
}

TEST_F(BoundsCli, BadInputIsOneLineAndExitTwo) {
  expect_refused("bounds ring:8 --cc XYZ", "unknown collective 'XYZ'");
  expect_refused("bounds petersen --cc OAS --root 99",
                 "--root: root 99 is out of range (processors 0..9)");
  expect_refused("bounds omega:8 --cc MNS --senders 0,13 --receivers 3",
                 "--senders: sender 13 is a switch, not a processor");
  expect_refused("bounds ring:8 --cc AAS --fault 0-7 --fault 0-4",
                 "--fault 0-4: no link between 0 and 4");
  const auto file = write("bad.txt", "0 1\n2\n");
  expect_refused("bounds ring:8 --cc CUSTOM --messages " + file, file + ":2");
  expect_refused("bounds ring:8 --cc AAS --ports 0", "--ports");
}

}  // namespace
