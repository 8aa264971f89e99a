// End-to-end tests of `ccsched render` and `ccsched faults --html` through the built
// binary, and a real browser: headless Chromium opens the HTML report from a file, the
// test reads the DOM after the page's script ran (the script writes a status marker,
// window.onerror counts errors into another) and takes a screenshot. A report with an
// injected script error shows that the error marker works. Skipped (with the reason)
// only when no Chromium is installed; scripts/setup.sh installs it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>
#include <string>

#include "../support/cli_harness.hpp"

namespace {

namespace fs = std::filesystem;
namespace test = ccsched::test;

using test::CliRun;
using test::slurp;

std::size_t count(const std::string& text, const std::string& needle) {
  return test::count_of(text, needle);
}

std::optional<std::string> find_chromium() {
  if (const char* env = std::getenv("CCSCHED_CHROMIUM"); env && *env) return std::string(env);
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
    for (const char* dir : {"/usr/bin", "/usr/local/bin", "/snap/bin"})
      if (::access((std::string(dir) + "/" + name).c_str(), X_OK) == 0)
        return std::string(dir) + "/" + name;
  return std::nullopt;
}

class RenderCli : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("ccsched_render_cli_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    // Real schedules from the real engine.
    for (const auto& [spec, cc, name] :
         {std::tuple{"kautz:3,2", "AAS", "kautz_aas.json"}, {"omega:8", "AAB", "omega_aab.json"},
          {"ring:8", "ALLREDUCE", "ring8_allreduce.json"}}) {
      const CliRun r =
          run(std::string("solve ") + spec + " --cc " + cc + " -o " + (dir_ / name).string());
      ASSERT_EQ(r.status, 0) << r.err;
    }
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  // The suite shares one folder: the schedules are solved once, in SetUpTestSuite.
  static CliRun run(const std::string& args) {
    return test::run_command(test::ccsched_binary() + " " + args, dir_);
  }

  static void expect_one_line_error(const std::string& args, const std::string& needle) {
    test::expect_one_line_error(run(args), needle, args);
  }

  // The DOM after the page's scripts ran, as headless Chromium dumps it.
  static std::string dump_dom(const std::string& chromium, const fs::path& page) {
    const auto out = dir_ / "dom.html";
    const std::string cmd =
        "timeout 120 " + chromium +
        " --headless --disable-gpu --no-sandbox --disable-dev-shm-usage --no-first-run "
        "--user-data-dir=" +
        (dir_ / "profile").string() + " --dump-dom file://" + page.string() + " >" + out.string() +
        " 2>/dev/null";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return slurp(out);
  }

  static std::string attribute(const std::string& dom, const std::string& id,
                               const std::string& name) {
    const std::regex div("<div id=\"" + id + "\"[^>]*\\b" + name + "=\"([^\"]*)\"");
    std::smatch m;
    return std::regex_search(dom, m, div) ? m[1].str() : std::string("(missing)");
  }

  static fs::path dir_;
};

fs::path RenderCli::dir_;

TEST_F(RenderCli, SvgHasOnePanelPerStep) {
  const auto svg = dir_ / "steps.svg";
  const CliRun r = run("render " + (dir_ / "omega_aab.json").string() + " -o " + svg.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = slurp(svg);
  EXPECT_EQ(text.rfind("<?xml", 0), 0u);
  EXPECT_EQ(count(text, "<g class=\"step-panel\""), 7u);  // Omega 8 AAB: 7 steps
  EXPECT_EQ(count(text, "class=\"transfer\""), 56u);      // 8 per step
}

TEST_F(RenderCli, BadInputIsOneLineAndExitTwo) {
  const std::string good = (dir_ / "kautz_aas.json").string();
  expect_one_line_error("render " + good + " -o " + (dir_ / "x.png").string(),
                        "unknown output extension");
  expect_one_line_error("render " + good + " -o " + (dir_ / "x.svg").string() + " --layout spring",
                        "--layout");
  // A schedule that fails verify: one transfer left out, so a message is never delivered.
  nlohmann::json doc = nlohmann::json::parse(slurp(good));
  doc["transfers"].erase(doc["transfers"].begin());
  const auto bad = dir_ / "bad.json";
  std::ofstream(bad) << doc.dump();
  expect_one_line_error("render " + bad.string() + " -o " + (dir_ / "bad.html").string(),
                        "not a valid schedule");
  EXPECT_FALSE(fs::exists(dir_ / "bad.html"));
}

TEST_F(RenderCli, ChromiumRendersTheReport) {
  const auto chromium = find_chromium();
  if (!chromium) GTEST_SKIP() << "no chromium installed (scripts/setup.sh installs it)";
  const auto report = dir_ / "report.html";
  const CliRun r = run("render " + (dir_ / "kautz_aas.json").string() + " -o " + report.string());
  ASSERT_EQ(r.status, 0) << r.err;

  const std::string dom = dump_dom(*chromium, report);
  EXPECT_EQ(attribute(dom, "ccsched-status", "data-ready"), "yes") << dom.substr(0, 400);
  EXPECT_EQ(attribute(dom, "ccsched-status", "data-panels"), "7");  // Kautz(3,2) AAS: 7 steps
  EXPECT_EQ(attribute(dom, "ccsched-errors", "data-count"), "0");
  EXPECT_EQ(count(dom, "class=\"step-panel current\""), 1u);  // step-through shows one

  // A screenshot: a PNG of the requested size with real content (a blank page compresses
  // to a few kilobytes).
  const auto png = dir_ / "report.png";
  const std::string cmd = "timeout 120 " + *chromium +
                          " --headless --disable-gpu --no-sandbox --disable-dev-shm-usage "
                          "--no-first-run --hide-scrollbars "
                          "--user-data-dir=" +
                          (dir_ / "profile").string() +
                          " --window-size=1100,1400 --screenshot=" + png.string() + " file://" +
                          report.string() + " >/dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const std::string image = slurp(png);
  ASSERT_GT(image.size(), 24u);
  EXPECT_EQ(image.substr(1, 3), "PNG");
  const auto be32 = [&](std::size_t at) {
    return (static_cast<unsigned>(static_cast<unsigned char>(image[at])) << 24) |
           (static_cast<unsigned>(static_cast<unsigned char>(image[at + 1])) << 16) |
           (static_cast<unsigned>(static_cast<unsigned char>(image[at + 2])) << 8) |
           static_cast<unsigned>(static_cast<unsigned char>(image[at + 3]));
  };
  EXPECT_EQ(be32(16), 1100u);
  EXPECT_EQ(be32(20), 1400u);
  EXPECT_GT(image.size(), 30000u);

  // The error marker works: a report with a broken script reports it.
  std::string broken = slurp(report);
  broken.insert(broken.rfind("</body>"), "<script>no_such_function();</script>\n");
  const auto broken_page = dir_ / "broken.html";
  std::ofstream(broken_page) << broken;
  const std::string broken_dom = dump_dom(*chromium, broken_page);
  EXPECT_EQ(attribute(broken_dom, "ccsched-errors", "data-count"), "1");
  EXPECT_NE(broken_dom.find("no_such_function"), std::string::npos);
}

// A reduction schedule from `solve` renders both ways: the SVG with its steps, labelled
// arrows and per-processor sums, and the report, whose script runs in a browser.
TEST_F(RenderCli, ReductionPicturesAndReport) {
  const auto schedule = dir_ / "ring8_allreduce.json";
  const nlohmann::json doc = nlohmann::json::parse(slurp(schedule));
  const std::size_t steps = doc["steps"].get<std::size_t>();
  const std::size_t transfers = doc["transfers"].size();
  const auto svg = dir_ / "allreduce.svg";
  CliRun r = run("render " + schedule.string() + " -o " + svg.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string text = slurp(svg);
  EXPECT_EQ(count(text, "<g class=\"step-panel\""), steps);
  EXPECT_EQ(count(text, "<text class=\"carry\""), transfers);
  EXPECT_EQ(count(text, "<text class=\"acc"), 8 * steps);  // every processor, every step
  EXPECT_GE(count(text, ">8/8</text>"), 8u);  // at least the last step: every sum complete

  const auto report = dir_ / "allreduce.html";
  r = run("render " + schedule.string() + " -o " + report.string());
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(slurp(report).find("<pre>step 1:"), std::string::npos);
  const auto chromium = find_chromium();
  if (!chromium) GTEST_SKIP() << "no chromium installed (scripts/setup.sh installs it)";
  const std::string dom = dump_dom(*chromium, report);
  EXPECT_EQ(attribute(dom, "ccsched-status", "data-ready"), "yes");
  EXPECT_EQ(attribute(dom, "ccsched-status", "data-panels"), std::to_string(steps));
  EXPECT_EQ(attribute(dom, "ccsched-errors", "data-count"), "0");
}

TEST_F(RenderCli, FaultsHtmlTable) {
  const auto page = dir_ / "faults.html";
  const CliRun r = run("faults ring:6 --cc OAB,OAS --html " + page.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string html = slurp(page);
  EXPECT_EQ(count(html, "<tr><td"), 7u);  // no fault and each of the 6 links
  EXPECT_NE(html.find("OAB lb/steps"), std::string::npos);
  expect_one_line_error("faults ring:6 --cc OAB --html " + (dir_ / "f.txt").string(), "--html");
  const auto chromium = find_chromium();
  if (!chromium) GTEST_SKIP() << "no chromium installed (scripts/setup.sh installs it)";
  const std::string dom = dump_dom(*chromium, page);
  EXPECT_EQ(attribute(dom, "ccsched-status", "data-ready"), "yes");
  EXPECT_EQ(attribute(dom, "ccsched-status", "data-rows"), "7");
  EXPECT_EQ(attribute(dom, "ccsched-errors", "data-count"), "0");
}

}  // namespace
