// End-to-end tests of `ccsched topo`: list, info (text and JSON), export to every format,
// and the error contract (one line on stderr, exit status 2, no output file left behind).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "../support/cli_harness.hpp"
#include "ccsched/topology/generators.hpp"
#include "ccsched/topology/io.hpp"

namespace ccsched {
namespace {

namespace fs = std::filesystem;

using test::count_lines;

class TopoCli : public test::CliTest {
 protected:
  TopoCli() : CliTest("ccsched_topo_cli_") {}
};

TEST_F(TopoCli, ListNamesEverySpec) {
  const auto r = run_line("topo list");
  ASSERT_EQ(r.status, 0) << r.err;
  for (const auto& s : spec_catalogue()) EXPECT_NE(r.out.find(s.syntax), std::string::npos);
}

TEST_F(TopoCli, InfoJsonHasTheInvariants) {
  const auto r = run_line("topo info kautz:3,2 --json");
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("name"), "kautz:3,2");
  EXPECT_EQ(j.at("nodes"), 12);
  EXPECT_EQ(j.at("processors"), 12);
  EXPECT_EQ(j.at("switches"), 0);
  EXPECT_EQ(j.at("channels"), 36);
  EXPECT_EQ(j.at("directed"), true);
  EXPECT_EQ(j.at("min_degree"), 3);
  EXPECT_EQ(j.at("max_degree"), 3);
  EXPECT_EQ(j.at("diameter"), 2);
  EXPECT_EQ(j.at("sigma"), 228);
  EXPECT_EQ(j.at("girth"), 3);
  EXPECT_EQ(j.at("bisection_width"), 12);
  EXPECT_EQ(j.at("bisection_exact"), true);
  const auto text = run_line("topo info petersen");
  ASSERT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("diameter       2"), std::string::npos) << text.out;
}

TEST_F(TopoCli, ExportEveryFormatReadsBack) {
  const std::pair<std::string, std::string> formats[] = {
      {"json", ".json"}, {"dot", ".dot"}, {"edges", ".edges"}, {"anynet", ".anynet"}};
  for (const auto& [format, ext] : formats) {
    SCOPED_TRACE(format);
    const auto file = path("fat" + ext);
    const auto r = run_line("topo export fat:octagon,2 --format " + format + " -o " + file);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    const auto back = load_topology(file);
    EXPECT_EQ(back.processor_count(), 16);
    EXPECT_EQ(back.channel_count(), 56);
    // Info on the file gives the invariants of the network.
    const auto info = run_line("topo info " + file + " --json");
    ASSERT_EQ(info.status, 0) << info.err;
    EXPECT_EQ(nlohmann::json::parse(info.out).at("bisection_width"), 8);
  }
  const auto stdout_export = run_line("topo export ring:4 --format edges");
  ASSERT_EQ(stdout_export.status, 0);
  EXPECT_NE(stdout_export.out.find("0 1\n"), std::string::npos);
}

TEST_F(TopoCli, ErrorsPrintOneLineExitTwoAndLeaveNoFile) {
  write("malformed.json", "{\"format\": ");
  write("missing.json",
        R"({"format": "ccsched-topology/1", "nodes": [{"id": 0, "kind": "processor"}],
      "channels": [[0, 4]]})");
  write("loop.json", R"({"format": "ccsched-topology/1", "nodes": [{"id": 0, "kind": "processor"}],
      "channels": [[0, 0]]})");
  write("dup.edges", "0 1\n0 -> 1\n");
  write("weak.edges", "0 1\n2 -> 1\n");
  write("unknown.json", R"({"format": "other/1", "nodes": [], "channels": []})");
  const std::pair<std::string, std::string> cases[] = {
      {"kautz:0,2", "kautz:0,2: "},
      {"mesh:0x4", "mesh:0x4: "},
      {"omega:12", "omega:12: "},
      {"ngon:7", "ngon:7: "},
      {"nonsense", "unknown topology"},
      {"'%%garbage'", "%%garbage"},
      {path("malformed.json"), "malformed JSON"},
      {path("missing.json"), "channels[0][1]: node 4 does not exist"},
      {path("loop.json"), "channels[0]: self-loop"},
      {path("dup.edges"), "dup.edges:2: duplicate channel"},
      {path("weak.edges"), "processors are not strongly connected"},
      {path("unknown.json"), "format: unknown format"},
      {path("absent.json"), "cannot open"},
  };
  for (const auto& [network, message] : cases) {
    SCOPED_TRACE(network);
    for (const auto& command :
         {"topo info " + network,
          "topo export " + network + " --format json -o " + path("out.json")}) {
      expect_refused(command, message);
      EXPECT_FALSE(fs::exists(path("out.json")));
    }
  }
  // A directed network cannot be written as anynet: Unsupported, exit 2, no file.
  const auto r = run_line("topo export omega:8 --format anynet -o " + path("o.anynet"));
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(count_lines(r.err), 1u);
  EXPECT_FALSE(fs::exists(path("o.anynet")));
  const auto bad_format = run_line("topo export ring:4 --format xml -o " + path("r.xml"));
  EXPECT_EQ(bad_format.status, 2);
  EXPECT_FALSE(fs::exists(path("r.xml")));
}

}  // namespace
}  // namespace ccsched
