// Replays every file of the fuzz corpus (tests/fuzz/corpus/<target>/) through the same
// reader + round-trip function the libFuzzer target runs (fuzz/targets.cpp). A file named
// ok-* must be accepted and survive its round trips; bad-* must be rejected with a
// ccsched error (InvalidInput / InvalidParameter / Unsupported). Any other exception — a
// round-trip mismatch or an error type a reader let escape — fails the test.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "targets.hpp"

namespace ccsched::fuzz {
namespace {

namespace fs = std::filesystem;

fs::path corpus_dir(std::string_view target) {
  return fs::path(CCSCHED_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / std::string(target);
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> files(std::string_view target) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::directory_iterator(corpus_dir(target)))
    if (entry.is_regular_file()) out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

// GoogleTest prints a parameter with this (else as raw bytes).
void PrintTo(const Target& t, std::ostream* os) { *os << t.name; }

namespace {

class CorpusTest : public ::testing::TestWithParam<Target> {};

TEST_P(CorpusTest, EveryFileGetsItsExpectedOutcome) {
  const auto& t = GetParam();
  ASSERT_TRUE(fs::is_directory(corpus_dir(t.name))) << corpus_dir(t.name);
  int ok = 0, bad = 0;
  for (const auto& path : files(t.name)) {
    const std::string name = path.filename().string();
    const bool want_ok = name.starts_with("ok-");
    ASSERT_TRUE(want_ok || name.starts_with("bad-"))
        << name << ": corpus files are named ok-* (accepted) or bad-* (rejected)";
    (want_ok ? ok : bad) += 1;
    Outcome got{};
    try {
      got = t.run(slurp(path));
    } catch (const std::exception& e) {
      ADD_FAILURE() << name << ": " << e.what();
      continue;
    }
    EXPECT_EQ(got, want_ok ? Outcome::accepted : Outcome::rejected) << name;
  }
  // A corpus with only one kind of input would leave half the reader unexercised.
  EXPECT_GE(ok, 2) << t.name;
  EXPECT_GE(bad, 2) << t.name;
}

INSTANTIATE_TEST_SUITE_P(AllTargets, CorpusTest, ::testing::ValuesIn(all_targets()),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(FuzzTargets, EveryTargetHasAnEntryPointAndACorpus) {
  for (const auto& t : all_targets()) {
    EXPECT_TRUE(
        fs::exists(fs::path(CCSCHED_SOURCE_DIR) / "fuzz" / (std::string(t.name) + "_fuzz.cpp")))
        << t.name;
    EXPECT_TRUE(fs::is_directory(corpus_dir(t.name))) << t.name;
  }
  EXPECT_EQ(target("spec").name, "spec");
  EXPECT_THROW(target("nonexistent"), std::invalid_argument);
}

// Empty input: rejected by the formats that need a header or a value; an empty edge list
// or anynet file is an empty network (load_topology refuses it later: no processors).
TEST(FuzzTargets, EmptyInput) {
  for (const auto& t : all_targets()) {
    const bool empty_network = t.name == "topology_edges" || t.name == "topology_anynet";
    EXPECT_EQ(t.run(""), empty_network ? Outcome::accepted : Outcome::rejected) << t.name;
  }
}

}  // namespace
}  // namespace ccsched::fuzz
