// End-to-end tests of `ccsched cost` and `ccsched estimate` through the built binary: the
// seeds' 1.512 us example on a hand-written schedule document, the JSON shapes, the
// formulas and fits through the command line, and one-line errors with exit status 2.
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
#include <vector>

#include "../support/cli_harness.hpp"
#include "../support/reduction_schedules.hpp"

namespace {

namespace fs = std::filesystem;

namespace test = ccsched::test;
using test::CliRun;

class CostCli : public test::CliTest {
 protected:
  CostCli() : CliTest("ccsched_cost_cli_") {}
};

// A schedule document written by hand after FORMATS.md: bidirectional ring of 4, one-to-all
// scatter from 0, one port, so one transfer per step: 0->1, 0->3, then 0->1->2.
constexpr const char* kRing4Scatter = R"({
  "format": "ccsched-schedule/1",
  "topology": {
    "format": "ccsched-topology/1",
    "name": "ring:4",
    "directed": false,
    "nodes": [{"id": 0, "kind": "processor"}, {"id": 1, "kind": "processor"},
              {"id": 2, "kind": "processor"}, {"id": 3, "kind": "processor"}],
    "channels": [[0, 1], [1, 0], [1, 2], [2, 1], [2, 3], [3, 2], [3, 0], [0, 3]]
  },
  "collective": {"kind": "OAS", "senders": [0], "receivers": [1, 2, 3]},
  "model": {"ports": 1, "switching": "wormhole", "routing": "minimal", "combining": false},
  "messages": [
    {"id": 0, "origin": 0, "targets": [1]},
    {"id": 1, "origin": 0, "targets": [2]},
    {"id": 2, "origin": 0, "targets": [3]}
  ],
  "steps": 3,
  "transfers": [
    {"step": 1, "path": [0, 1], "messages": [0]},
    {"step": 2, "path": [0, 3], "messages": [2]},
    {"step": 3, "path": [0, 1, 2], "messages": [1]}
  ],
  "lower_bound": 3,
  "optimal": true
})";

TEST_F(CostCli, SeedExampleJson) {
  const auto file = write("s.json", kRing4Scatter);
  const CliRun r = run_line("cost " + file + " --t0 1us --t1 0.5ns --bytes 1024 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  // Seed 000 eq. (4): each step 1 us + 1024 * 0.5 ns = 1.512 us; 3 steps 4.536 us.
  ASSERT_EQ(doc["step_us"].size(), 3u);
  for (const auto& step : doc["step_us"]) EXPECT_NEAR(step.get<double>(), 1.512, 1e-9);
  EXPECT_NEAR(doc["total_us"].get<double>(), 4.536, 1e-9);
  EXPECT_EQ(doc["bytes"], 1024);
  EXPECT_NEAR(doc["t0_us"].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(doc["t1_us_per_byte"].get<double>(), 0.0005, 1e-15);
  EXPECT_EQ(doc["steps"], 3);
}

TEST_F(CostCli, TextOutputAndBandwidthUnit) {
  const auto file = write("s.json", kRing4Scatter);
  // 2 GB/s is 0.5 ns per byte: the same 4.536 us.
  const CliRun r = run_line("cost " + file + " --t0 1us --t1 2GBps --bytes 1KiB");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("1.512"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4.536"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "");
}

// An all-gather of B blocks: --bytes is each processor's vector, M/B bytes per message.
TEST_F(CostCli, BlockedAllGatherHeader) {
  const std::string file = (dir_ / "ag.json").string();
  ASSERT_EQ(run_line("solve ring:4 --cc AAB --blocks 2 --quiet -o " + file).status, 0);
  const CliRun r = run_line("cost " + file + " --t0 1us --t1 1ns --bytes 1024");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("m = 1024 B per processor's vector in 2 blocks, 512 B per message"),
            std::string::npos)
      << r.out;
}

TEST_F(CostCli, Errors) {
  const auto file = write("s.json", kRing4Scatter);
  expect_refused("cost " + file + " --t0 1xs --t1 0.5ns --bytes 1024", "--t0");
  expect_refused("cost " + file + " --t0 1us --t1 0.5ns --bytes 1.5B", "--bytes");
  expect_refused("cost " + (dir_ / "missing.json").string() + " --t0 1us --t1 0.5ns --bytes 1024",
                 "missing.json");
  // A conflict (two transfers on channel 0->1 in step 1) makes the schedule invalid.
  std::string broken = kRing4Scatter;
  broken.replace(broken.find("{\"step\": 3"), 10, "{\"step\": 1");
  const auto bad = write("bad.json", broken);
  expect_refused("cost " + bad + " --t0 1us --t1 0.5ns --bytes 1024", "bad.json");
}

// The hand-made ring all-reduce (4 blocks of 256 B): reduce-scatter steps 1 + 256 * 0.0005
// + 256 * 0.00025 = 1.192 us, all-gather steps 1.128 us, 6.96 us in all.
TEST_F(CostCli, ReductionScheduleWithAdds) {
  const auto file = write("allreduce.json", ccsched::testing::ring4_allreduce_ring());
  const CliRun r =
      run_line("cost " + file + " --t0 1us --t1 0.5ns --tc 0.25ns --bytes 1KiB --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["blocks"], 4);
  EXPECT_EQ(doc["block_bytes"], 256);
  EXPECT_NEAR(doc["tc_us_per_byte"].get<double>(), 0.00025, 1e-15);
  ASSERT_EQ(doc["step_us"].size(), 6u);
  for (int i = 0; i < 6; ++i) {
    EXPECT_NEAR(doc["step_us"][i].get<double>(), i < 3 ? 1.192 : 1.128, 1e-9);
    EXPECT_EQ(doc["step_added_bytes"][i], i < 3 ? 256 : 0);
    EXPECT_NEAR(doc["step_compute_us"][i].get<double>(), i < 3 ? 0.064 : 0.0, 1e-9);
    EXPECT_EQ(doc["step_bytes"][i], 256);
  }
  EXPECT_NEAR(doc["total_us"].get<double>(), 6.96, 1e-9);

  const CliRun text = run_line("cost " + file + " --t0 1us --t1 0.5ns --tc 0.25ns --bytes 1024");
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("4 blocks of 256 B"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("6.96"), std::string::npos) << text.out;

  // Without --tc the adds are neglected: 3 * 1.128 + 3 * 1.128 = 6.768 us.
  const CliRun plain = run_line("cost " + file + " --t0 1us --t1 0.5ns --bytes 1024 --json");
  ASSERT_EQ(plain.status, 0) << plain.err;
  EXPECT_NEAR(nlohmann::json::parse(plain.out)["total_us"].get<double>(), 6.768, 1e-9);

  expect_refused("cost " + file + " --t0 1us --t1 0.5ns --bytes 1001", "--bytes");
  // --tc belongs to reductions only.
  const auto scatter = write("s.json", kRing4Scatter);
  expect_refused("cost " + scatter + " --t0 1us --t1 0.5ns --tc 1ns --bytes 1024", "--tc");
}

TEST_F(CostCli, EstimateAnalytic) {
  // Ring, p = 16, CT one-to-all broadcast: (ts + m tb) log2 p + th (p - 1)
  // = (10 + 100*0.01)*4 + 1*15 = 59 us.
  const CliRun r = run_line(
      "estimate --topology ring --p 16 --op oab --switching ct --ts 10us "
      "--tb 10ns --th 1us --bytes 100 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_NEAR(doc["time_us"].get<double>(), 59.0, 1e-9);
  EXPECT_EQ(doc["from_chapter"], true);
  EXPECT_EQ(doc["formula"], "(ts + m*tb)*log2(p) + th*(p - 1)");

  // Torus, p = 64, SF shift: (ts + m tb)(2 floor(8/2) + 1) = (1 + 4096/1000)*9 us
  // with tb = 1 ns/B (1 GB/s): (1 + 4.096)*9 = 45.864 us.
  const CliRun s = run_line(
      "estimate --topology torus --p 64 --op shift --q 3 --switching sf "
      "--ts 1us --tb 1GBps --bytes 4KiB --json");
  ASSERT_EQ(s.status, 0) << s.err;
  EXPECT_NEAR(nlohmann::json::parse(s.out)["time_us"].get<double>(), 45.864, 1e-9);

  // 36 formulas for the chapter's six operations, 48 reduction algorithms.
  const CliRun list = run_line("estimate --list --json");
  ASSERT_EQ(list.status, 0) << list.err;
  const auto rows = nlohmann::json::parse(list.out);
  EXPECT_EQ(rows.size(), 36u + 48u);
  EXPECT_EQ(std::count_if(rows.begin(), rows.end(),
                          [](const auto& row) { return row.contains("algorithm"); }),
            48);
}

// Hypercube, p = 8, SF, all-reduce of m = 1600 B; ts = 10 us, tb = 10 ns/B, tc = 5 ns/B.
// Recursive doubling: 3 stages of 10 + 16 + 8 = 102 us. Rabenseifner: halving (800, 400,
// 200 B sent and added) 22 + 16 + 13, doubling all-gather 12 + 14 + 18: 95 us. Lines
// 30 + 0.045 m and 60 + 0.021875 m (us) cross at m = 30 / 0.023125 = 1297.30 B.
TEST_F(CostCli, EstimateReductionJson) {
  const CliRun r = run_line(
      "estimate --topology hypercube --p 8 --op allreduce --switching sf --ts 10us "
      "--tb 10ns --tc 5ns --bytes 1600 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["mode"], "reduction");
  EXPECT_EQ(doc["op"], "allreduce");
  EXPECT_NEAR(doc["tc_us_per_byte"].get<double>(), 0.005, 1e-15);
  ASSERT_EQ(doc["algorithms"].size(), 4u);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& a : doc["algorithms"]) by_name[a["name"].get<std::string>()] = a;
  EXPECT_NEAR(by_name["recursive-doubling"]["time_us"].get<double>(), 102.0, 1e-9);
  EXPECT_NEAR(by_name["rabenseifner"]["time_us"].get<double>(), 95.0, 1e-9);
  EXPECT_EQ(by_name["rabenseifner"]["blocks"], 8);
  EXPECT_NEAR(by_name["rabenseifner"]["block_bytes"].get<double>(), 200.0, 1e-12);
  EXPECT_EQ(by_name["rabenseifner"]["fastest"], true);
  EXPECT_EQ(by_name["recursive-doubling"]["from_chapter"], true);
  EXPECT_EQ(doc["best"], "rabenseifner");
  EXPECT_NEAR(doc["time_us"].get<double>(), 95.0, 1e-9);
  EXPECT_EQ(doc["fastest_for_small_m"], "recursive-doubling");
  ASSERT_EQ(doc["crossovers"].size(), 1u);
  const auto& c = doc["crossovers"][0];
  EXPECT_NEAR(c["bytes"].get<double>(), 30.0 / 0.023125, 1e-6);
  EXPECT_EQ(c["below"], "recursive-doubling");
  EXPECT_EQ(c["above"], "rabenseifner");
  // Both lines at the crossover.
  const double m = c["bytes"].get<double>();
  EXPECT_NEAR(c["time_us"].get<double>(), 30 + 0.045 * m, 1e-6);
  EXPECT_NEAR(c["time_us"].get<double>(), 60 + 0.021875 * m, 1e-6);
}

TEST_F(CostCli, EstimateReductionText) {
  const CliRun r = run_line(
      "estimate --topology hypercube --p 8 --op allreduce --switching sf --ts 10us "
      "--tb 10ns --tc 5ns --bytes 1600");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("fastest at m = 1600 B: rabenseifner, 95 us"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("crossover: m = 1297.3 B, where recursive-doubling and rabenseifner"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("never the fastest: ring, reduce-broadcast"), std::string::npos) << r.out;

  // CT ring with p = 12: the logical-hypercube algorithm does not apply and says why.
  const CliRun ring = run_line(
      "estimate --topology ring --p 12 --op allreduce --switching ct --ts 10us "
      "--tb 10ns --th 1us --bytes 1600");
  ASSERT_EQ(ring.status, 0) << ring.err;
  EXPECT_NE(ring.out.find("reduce-broadcast"), std::string::npos) << ring.out;
  EXPECT_NE(ring.out.find("needs p a power of two"), std::string::npos) << ring.out;
  EXPECT_NE(ring.out.find("adds neglected"), std::string::npos) << ring.out;
}

TEST_F(CostCli, EstimateReductionErrors) {
  const std::string base =
      "estimate --topology ring --p 8 --switching sf --ts 1us --tb 1ns --bytes 8 ";
  expect_refused(base + "--op oab --tc 1ns", "--tc");
  expect_refused(base + "--op allreduce --q 2", "--q");
  expect_refused(base + "--op allreduce --tc 1xs", "--tc");
  expect_refused(base + "--op gather", "--op");
  expect_refused("estimate --model c --alpha 1us --beta 1GBps --bytes 8 --tc 1ns", "--tc");
  expect_refused(
      "estimate --topology ring --p 8 --op scan --switching ct --ts 1us --tb 1ns --bytes 8",
      "--th");
  expect_refused(
      "estimate --topology torus --p 9 --op reduce --switching ct --ts 1us --tb 1ns "
      "--th 1us --bytes 8",
      "--p");
}

TEST_F(CostCli, EstimateModels) {
  // Model C: 10 us + 1000 B / 1 GB/s = 10 + 1 = 11 us.
  const CliRun c = run_line("estimate --model c --alpha 10us --beta 1GBps --bytes 1000 --json");
  ASSERT_EQ(c.status, 0) << c.err;
  EXPECT_NEAR(nlohmann::json::parse(c.out)["time_us"].get<double>(), 11.0, 1e-9);

  // Model B by hand (cluster_test): ts0 50 us, ts1 10 ns/B, tb 100 ns/B, m = 3000: 376.6 us.
  const CliRun b =
      run_line("estimate --model b --ts0 50us --ts1 10ns --tb 100ns --bytes 3000 --json");
  ASSERT_EQ(b.status, 0) << b.err;
  EXPECT_NEAR(nlohmann::json::parse(b.out)["time_us"].get<double>(), 376.6, 1e-9);

  // Model C fitted to the chapter's table: the least-squares line (see cluster_test)
  // ts = 264.49 us, tb = 0.0895922 us/B; at 5000 B: 264.49 + 447.96 = 712.45 us.
  const auto table = write("table.txt",
                           "# seed 003: bytes, microseconds\n2000 495\n10000 1184\n20000 2055\n"
                           "30000 2874\n40000 3758\n50000 4749\n60000 5730\n");
  const CliRun f = run_line("estimate --model c --fit " + table + " --bytes 5000 --json");
  ASSERT_EQ(f.status, 0) << f.err;
  const auto doc = nlohmann::json::parse(f.out);
  const double tb = 1682900000.0 / 18784000000.0;
  const double ts = (20845.0 - 212000.0 * tb) / 7.0;
  EXPECT_NEAR(doc["parameters"]["alpha_us"].get<double>(), ts, 1e-6);
  EXPECT_NEAR(doc["time_us"].get<double>(), ts + 5000 * tb, 1e-5);
  EXPECT_EQ(doc["fit"]["rows"].size(), 7u);

  const CliRun fb = run_line("estimate --model b --fit " + table + " --json");
  ASSERT_EQ(fb.status, 0) << fb.err;
  EXPECT_EQ(nlohmann::json::parse(fb.out)["fit"]["separated"], false);
}

TEST_F(CostCli, EstimateErrors) {
  const std::string base =
      "estimate --topology hypercube --op oab --switching sf --ts 1us "
      "--tb 1ns --bytes 8 ";
  expect_refused(base + "--p 12", "--p");
  expect_refused(
      "estimate --topology torus --p 8 --op p2p --switching sf --ts 1us "
      "--tb 1ns --bytes 8",
      "--p");
  expect_refused(base + "--p 16 --q 3", "--q");
  expect_refused(
      "estimate --topology ring --p 8 --op shift --q 8 --switching sf "
      "--ts 1us --tb 1ns --bytes 8",
      "--q");
  expect_refused(
      "estimate --topology ring --p 8 --op oab --switching ct --ts 1us "
      "--tb 1ns --bytes 8",
      "--th");
  expect_refused(base + "--p 16 --model c", "estimate");
  expect_refused("estimate --model d --bytes 8", "--model");
  expect_refused("estimate --model c --alpha 10 --beta 1GBps --bytes 8", "--alpha");
  expect_refused(
      "estimate --topology mesh --p 16 --op oab --switching sf --ts 1us "
      "--tb 1ns --bytes 8",
      "--topology");
  const auto bad = write("bad.txt", "2000 495\n\n3000 4 parsecs\n");
  expect_refused("estimate --model c --fit " + bad, "bad.txt:3");
}

}  // namespace

namespace {

// `cost --crossover` (docs/COST.md, "Choosing by message size"): a one-block and a
// 16-block all-reduce of torus:4x4 under one port (recursive doubling, 4 steps; the ring, 30
// steps): the one block is faster up to 8 KiB (4 t0 + 4 m t1 against 30 t0 + 30 m/16 t1:
// equal at m = 11.1 KB), the ring from 16 KiB; below 16 B the ring has no whole block.
TEST_F(CostCli, CrossoverTable) {
  const CliRun a = run_line("solve torus:4x4 --cc ALLREDUCE --ports 1 -o one.json");
  ASSERT_EQ(a.status, 0) << a.err;
  const CliRun b =
      run_line("solve torus:4x4 --cc ALLREDUCE --ports 1 --blocks 16 --time-limit 20 -o ring.json");
  ASSERT_EQ(b.status, 0) << b.err;
  const CliRun r = run_line(
      "cost one.json ring.json --t0 1us --t1 1ns --crossover --from 8 --to 1MiB --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["schedules"].size(), 2u);
  EXPECT_EQ(doc["schedules"][0]["steps"], 4);
  EXPECT_EQ(doc["schedules"][1]["steps"], 30);
  ASSERT_EQ(doc["ranges"].size(), 2u);
  EXPECT_EQ(doc["ranges"][0]["best"], 0);
  EXPECT_EQ(doc["ranges"][0]["to"], 8192);
  EXPECT_EQ(doc["ranges"][1]["best"], 1);
  EXPECT_EQ(doc["ranges"][1]["from"], 16384);
  EXPECT_TRUE(doc["sizes"][0]["us"][1].is_null());  // 8 B: fewer bytes than blocks
  EXPECT_NEAR(doc["sizes"][0]["us"][0].get<double>(), 4 * (1 + 8 * 0.001), 1e-9);
  // Errors: --bytes with --crossover, several files without it, another network.
  EXPECT_EQ(run_line("cost one.json ring.json --t0 1us --t1 1ns --crossover --bytes 8").status, 2);
  EXPECT_EQ(run_line("cost one.json ring.json --t0 1us --t1 1ns --bytes 8").status, 2);
  ASSERT_EQ(run_line("solve ring:4 --cc ALLREDUCE --ports 1 -o other.json").status, 0);
  const CliRun mixed = run_line("cost one.json other.json --t0 1us --t1 1ns --crossover");
  EXPECT_EQ(mixed.status, 2);
  EXPECT_EQ(std::count(mixed.err.begin(), mixed.err.end(), '\n'), 1) << mixed.err;
}

// `--crossover --plot FILE.svg`: one polyline per schedule, points in increasing size;
// the plot without --crossover, another extension or a folder that does not exist is one
// line, exit 2, and no file.
TEST_F(CostCli, CrossoverPlot) {
  ASSERT_EQ(run_line("solve torus:4x4 --cc ALLREDUCE --ports 1 -o one.json").status, 0);
  ASSERT_EQ(
      run_line("solve torus:4x4 --cc ALLREDUCE --ports 1 --blocks 16 --time-limit 20 -o ring.json")
          .status,
      0);
  const CliRun r = run_line("cost one.json ring.json --t0 1us --t1 1ns --crossover --from 8 --to 1MiB "
                            "--plot " + path("x.svg"));
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(path("x.svg"));
  std::stringstream text;
  text << in.rdbuf();
  const std::string svg = text.str();
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
  // Tags balance (a tiny well-formedness check) and there is one polyline per schedule.
  std::vector<std::string> open;
  const std::regex tag(R"re(<(/?)([A-Za-z][A-Za-z0-9:_-]*)[^>]*?(/?)>)re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tag); it != std::sregex_iterator();
       ++it) {
    if ((*it)[1] == "/") {
      ASSERT_FALSE(open.empty());
      EXPECT_EQ(open.back(), (*it)[2].str());
      open.pop_back();
    } else if ((*it)[3] != "/") {
      open.push_back((*it)[2]);
    }
  }
  EXPECT_TRUE(open.empty());
  const std::regex line(R"re(<polyline[^>]*points="([^"]*)")re");
  std::vector<std::size_t> points;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), line); it != std::sregex_iterator();
       ++it) {
    std::istringstream coords((*it)[1].str());
    double last = -1.0, x = 0.0, y = 0.0;
    char comma = 0;
    std::size_t n = 0;
    while (coords >> x >> comma >> y) {
      EXPECT_GT(x, last);
      last = x;
      ++n;
    }
    points.push_back(n);
  }
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0], 18u);  // 8 B .. 1 MiB
  EXPECT_EQ(points[1], 17u);  // 16 blocks: from 16 B
  EXPECT_NE(svg.find("ring, 16 blocks, 30 steps (ring.json)"), std::string::npos);
  EXPECT_NE(svg.find(">1 MiB<"), std::string::npos);
  EXPECT_NE(svg.find("µs<"), std::string::npos);
  // Errors: one line, exit 2, nothing written.
  expect_refused("cost one.json --t0 1us --t1 1ns --bytes 8 --plot " + path("y.svg"), "--crossover");
  expect_refused("cost one.json ring.json --t0 1us --t1 1ns --crossover --plot " + path("y.png"),
                 "SVG");
  expect_refused(
      "cost one.json ring.json --t0 1us --t1 1ns --crossover --plot " + path("no/such/y.svg"),
      "does not exist");
  EXPECT_FALSE(fs::exists(path("y.svg")));
  EXPECT_FALSE(fs::exists(path("y.png")));
  EXPECT_TRUE(temporaries().empty());
}

// `solve --bytes`: the fastest block count under the model, with the estimate in the JSON
// summary; bad values exit 2 with one line.
TEST_F(CostCli, SolveChoosesTheBlockCountByMessageSize) {
  auto chosen = [&](const std::string& bytes) {
    const CliRun r = run_line("solve torus:4x4 --cc ALLREDUCE --ports 1 --bytes " + bytes +
                              " --t0 1us --t1 1ns --time-limit 20 --json");
    EXPECT_EQ(r.status, 0) << r.err;
    const auto doc = nlohmann::json::parse(r.out);
    EXPECT_EQ(doc["collective"]["blocks"], doc["estimate"]["blocks"]);
    EXPECT_GE(doc["estimate"]["tried"].size(), 2u);
    // The estimate is the fastest of those tried.
    for (const auto& t : doc["estimate"]["tried"])
      if (t.contains("total_us")) {
        EXPECT_LE(doc["estimate"]["total_us"].get<double>(), t["total_us"].get<double>());
      }
    return doc["estimate"]["blocks"].get<int>();
  };
  EXPECT_EQ(chosen("64"), 1);
  EXPECT_GE(chosen("1MiB"), 16);
  for (const std::string bad :
       {"--bytes -1 --t0 1us --t1 1ns", "--bytes 64", "--t0 1us --t1 1ns",
        "--bytes 64 --t0 1us", "--bytes 0 --t0 1us --t1 1ns",
        "--bytes 64 --t0 1us --t1 1ns --steps 4", "--bytes 64 --t0 1us --t1 1ns --runs 2"}) {
    const CliRun r = run_line("solve ring:4 --cc ALLREDUCE " + bad);
    EXPECT_EQ(r.status, 2) << bad;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << bad << ": " << r.err;
  }
}


// The by-size guarantee (docs/COST.md, "Choosing a schedule by message size"): the time
// `solve --bytes` picks is never above a classical algorithm's on the same network and
// model (the classical schedules are among its candidates), and the JSON names the winner.
TEST_F(CostCli, SolveByBytesNeverLosesToClassical) {
  struct Case {
    std::string net, ports;
  };
  for (const Case& c : {Case{"ring:8", "1"}, Case{"torus:4x4", "all"}})
    for (const std::string bytes : {"64", "1MiB"}) {
      const std::string model = " --cc ALLREDUCE --ports " + c.ports;
      const std::string time = " --bytes " + bytes + " --t0 1us --t1 1ns";
      const CliRun by = run_line("solve " + c.net + model + time + " --time-limit 10 --json");
      ASSERT_EQ(by.status, 0) << by.err;
      const auto doc = nlohmann::json::parse(by.out);
      const double chosen = doc["estimate"]["total_us"].get<double>();
      EXPECT_EQ(doc["estimate"]["engine"], doc["engine"]);
      for (const std::string algorithm :
           {"ring", "recursive-doubling", "rabenseifner", "swing", "bine", "binomial"})
        for (const std::string& blocks : std::vector<std::string>{
                 "", " --blocks 1", " --blocks " + c.net.substr(c.net.find(':') + 1)}) {
          if (c.net != "ring:8" && !blocks.empty() && blocks != " --blocks 1")
            continue;  // torus:4x4: 16 blocks is its own count for ring and rabenseifner
          const std::string file = (dir_ / "classical.json").string();
          const CliRun made = run_line("solve " + c.net + model + " --algorithm " + algorithm +
                                       blocks + " -o " + file);
          ASSERT_EQ(made.status, 0) << algorithm << blocks << ": " << made.err;
          const CliRun cost = run_line("cost " + file + time + " --json");
          if (cost.status != 0) continue;  // 64 B do not split into the blocks
          const double classical = nlohmann::json::parse(cost.out)["total_us"].get<double>();
          EXPECT_LE(chosen, classical + 1e-6) << c.net << " " << bytes << " " << algorithm << blocks;
        }
    }
}

}  // namespace
