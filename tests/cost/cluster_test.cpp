// Models A, B, C of seed 003, their least-squares fits (on the chapter's measurement table
// from seed_tables.json and on synthetic data), and the measurement file reader.
#include "ccsched/cost/cluster.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/fit.hpp"

namespace ccsched {
namespace {

constexpr double kUs = 1e-6;

// Seed 003's table, message bytes -> measured microseconds (tests/data/seed_tables.json).
std::vector<Measurement> chapter_table() {
  std::ifstream in(std::string(CCSCHED_TEST_DATA_DIR) + "/seed_tables.json");
  EXPECT_TRUE(in.good());
  const auto doc = nlohmann::json::parse(in);
  std::vector<Measurement> rows;
  for (const auto& r : doc["time_model_examples"]["model_b_table"]["rows"])
    rows.push_back({r[0].get<std::int64_t>(), r[1].get<double>() * kUs, 0});
  return rows;
}

TEST(ClusterModels, HandComputedTimes) {
  // Model C: 100 us + 1000 B * 0.1 us/B = 200 us. Model A adds th = 5 us: 205 us.
  EXPECT_NEAR(model_time(ModelC{100 * kUs, 0.1 * kUs}, 1000) / kUs, 200.0, 1e-9);
  EXPECT_NEAR(model_time(ModelA{100 * kUs, 0.1 * kUs, 5 * kUs}, 1000) / kUs, 205.0, 1e-9);
  EXPECT_DOUBLE_EQ((ModelC{1 * kUs, 1e-9}.beta()), 1e9);

  // Model B: ts0 = 50 us, ts1 = 0.01 us/B, tb = 0.1 us/B, Vmax = 1500, Vh = 40, so a
  // packet carries 1460 bytes.
  const ModelB b{50 * kUs, 0.01 * kUs, 0.1 * kUs, 1500, 40};
  // m = 1000, n = 1: 50 + 1000*0.01 + (1000 + 40)*0.1 = 50 + 10 + 104 = 164 us.
  EXPECT_NEAR(model_time(b, 1000) / kUs, 164.0, 1e-9);
  // m = 3000, n = ceil(3000/1460) = 3: 50 + 1460*0.01 + (3000 + 3*40)*0.1 = 64.6 + 312.
  EXPECT_NEAR(model_time(b, 3000) / kUs, 376.6, 1e-9);
  // m = 0 travels in one packet of headers: 50 + 0 + 40*0.1 = 54 us.
  EXPECT_NEAR(model_time(b, 0) / kUs, 54.0, 1e-9);
  // Latency ts = ts0 + (Vmax - Vh)*ts1 = 50 + 14.6.
  EXPECT_NEAR(model_b_latency(b) / kUs, 64.6, 1e-9);
  EXPECT_EQ(model_b_packets(b, 1460), 1);
  EXPECT_EQ(model_b_packets(b, 1461), 2);
  EXPECT_EQ(model_b_packets(b, 0), 1);
  // Continuity at one full packet: n = 1 and n > 1 formulas agree at m = 1460.
  EXPECT_NEAR(model_time(b, 1460) / kUs, 50 + 14.6 + 150.0, 1e-9);

  EXPECT_THROW(check_model_b(ModelB{0, 0, 0, 40, 40}), InvalidParameter);
  EXPECT_THROW(check_model_b(ModelB{0, 0, 0, 1500, -1}), InvalidParameter);
}

TEST(ClusterFit, ModelCOnTheChapterTable) {
  // Normal equations for t = ts + m*tb over the 7 rows (m in B, t in us):
  //   sum m = 212000, sum t = 20845, sum m^2 = 9.104e9,
  //   sum m*t = 990000 + 11840000 + 41100000 + 86220000 + 150320000 + 237450000
  //             + 343800000 = 871720000,
  //   tb = (7*871720000 - 212000*20845) / (7*9.104e9 - 212000^2)
  //      = 1682900000 / 18784000000 = 0.0895922 us/B  (beta = 11.16 MB/s),
  //   ts = (20845 - 212000*tb) / 7 = 264.49 us.
  const double tb = 1682900000.0 / 18784000000.0;
  const double ts = (20845.0 - 212000.0 * tb) / 7.0;
  const ModelC c = fit_model_c(chapter_table(), "table");
  EXPECT_NEAR(c.tb / kUs, tb, 1e-12);
  EXPECT_NEAR(c.ts / kUs, ts, 1e-9);
  EXPECT_NEAR(c.ts / kUs, 264.49, 0.01);

  // Model A: same line, th given: ts = 264.49 - 10.
  const ModelA a = fit_model_a(chapter_table(), 10 * kUs, "table");
  EXPECT_NEAR(a.ts / kUs, ts - 10.0, 1e-9);
  EXPECT_NEAR(a.tb / kUs, tb, 1e-12);
  EXPECT_THROW(fit_model_a(chapter_table(), 300 * kUs, "table"), InvalidParameter);
}

TEST(ClusterFit, ChapterErrorColumnsImplyItsParameters) {
  // Seed 003's table also gives each model's error in percent. With
  // error = (measured - model)/measured, model = measured*(1 - error); for model C:
  //   2000 B: 495*(1 - 0.3480) = 322.74,   60000 B: 5730*(1 - 0.0709) = 5323.74,
  // a line of slope (5323.74 - 322.74)/58000 = 0.086224 us/B and intercept
  // 322.74 - 2000*0.086224 = 150.29 us. Fitting the 7 implied values must give that line,
  // and the fitted model must reproduce the chapter's column to its rounding (0.01 %
  // of the time, plus the rounding of the fit itself).
  const double error_c[] = {34.80, 14.48, 8.77, 4.76, 4.22, 6.05, 7.09};  // seed 003 table
  const auto measured = chapter_table();
  std::vector<Measurement> implied;
  for (std::size_t i = 0; i < measured.size(); ++i)
    implied.push_back({measured[i].bytes, measured[i].seconds * (1 - error_c[i] / 100), 0});
  const ModelC c = fit_model_c(implied, "implied");
  EXPECT_NEAR(c.ts / kUs, 150.29, 0.3);
  EXPECT_NEAR(c.tb / kUs, 0.086224, 2e-5);
  const FitReport r = fit_report(measured, [&](std::int64_t m) { return model_time(c, m); });
  for (std::size_t i = 0; i < r.rows.size(); ++i)
    EXPECT_NEAR(*r.rows[i].error_percent, error_c[i], 0.05) << r.rows[i].bytes;
}

TEST(ClusterFit, ModelBOnTheChapterTableCannotSeparateTs0AndTs1) {
  // Every message of the table is longer than Vmax - Vh = 1460 B, so only the latency
  // ts0 + 1460*ts1 and tb show. n = ceil(m/1460) = 2, 7, 14, 21, 28, 35, 42, and the
  // regressor x = m + 40*n is 2080 and 10280*k for m = 10000*k:
  //   sum x = 2080 + 10280*21 = 217960, sum x^2 = 2080^2 + 10280^2*91 = 9621060800,
  //   sum x*t = 2080*495 + 10280*(1184 + 2*2055 + 3*2874 + 4*3758 + 5*4749 + 6*5730)
  //           = 1029600 + 10280*87073 = 896140040,
  //   tb = (7*896140040 - 217960*20845) / (7*9621060800 - 217960^2)
  //      = 1729604080 / 19840864000,  latency = (20845 - 217960*tb)/7.
  const double tb = 1729604080.0 / 19840864000.0;
  const double latency = (20845.0 - 217960.0 * tb) / 7.0;
  const ModelBFit f = fit_model_b(chapter_table(), 1500, 40, "table");
  EXPECT_FALSE(f.separated);
  EXPECT_EQ(f.model.ts1, 0.0);
  EXPECT_NEAR(f.model.tb / kUs, tb, 1e-12);
  EXPECT_NEAR(model_b_latency(f.model) / kUs, latency, 1e-9);
}

TEST(ClusterFit, ModelBRecoversItsParametersFromExactData) {
  const ModelB truth{80 * kUs, 0.02 * kUs, 0.09 * kUs, 1500, 40};
  std::vector<Measurement> rows;
  for (std::int64_t m : {0, 200, 700, 1400, 3000, 10000, 25000, 60000})
    rows.push_back({m, model_time(truth, m), 0});
  const ModelBFit f = fit_model_b(rows, 1500, 40, "synthetic");
  EXPECT_TRUE(f.separated);
  EXPECT_NEAR(f.model.ts0 / kUs, 80.0, 1e-6);
  EXPECT_NEAR(f.model.ts1 / kUs, 0.02, 1e-9);
  EXPECT_NEAR(f.model.tb / kUs, 0.09, 1e-9);
  // Only one-packet messages: tb and ts1 are inseparable, so the fit refuses.
  std::vector<Measurement> short_only(rows.begin(), rows.begin() + 4);
  EXPECT_THROW(fit_model_b(short_only, 1500, 40, "synthetic"), InvalidInput);
}

TEST(ClusterFit, NeedsTwoSizes) {
  const std::vector<Measurement> one{{1000, 100 * kUs, 1}, {1000, 110 * kUs, 2}};
  EXPECT_THROW(fit_model_c(one, "x"), InvalidInput);
}

TEST(Measurements, ReadsColumnsUnitsAndComments) {
  const auto rows = read_measurements(
      "# bytes time\n"
      "2000 495\n"
      "\n"
      "  10000\t1184   # tabs and trailing comment\n"
      "20000, 2.055 ms\n"
      "4KiB 0.5e-3s\r\n",
      "t.txt");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].bytes, 2000);
  EXPECT_NEAR(rows[0].seconds, 495e-6, 1e-15);  // bare number: microseconds
  EXPECT_EQ(rows[0].line, 2);
  EXPECT_EQ(rows[1].line, 4);
  EXPECT_NEAR(rows[2].seconds, 2055e-6, 1e-15);
  EXPECT_EQ(rows[3].bytes, 4096);
  EXPECT_NEAR(rows[3].seconds, 500e-6, 1e-15);
}

TEST(Measurements, ErrorsNameFileAndLine) {
  const std::pair<const char*, const char*> bad[] = {
      {"2000 495\n1000\n", "t.txt:2"},            // one column
      {"2000 495\n\n1.5 3\n", "t.txt:3"},         // fractional bytes
      {"2000 495\nabc 3\n", "t.txt:2"},           // not a number
      {"2000 495\n3000 -4\n", "t.txt:2"},         // negative time
      {"2000 495\n3000 4 parsecs\n", "t.txt:2"},  // unknown unit
      {"1,2,3\n", "t.txt:1"},                     // three columns
  };
  for (const auto& [text, where] : bad) {
    try {
      read_measurements(text, "t.txt");
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InvalidInput& e) {
      EXPECT_EQ(e.where(), where) << e.what();
    }
  }
  EXPECT_THROW(read_measurements("# nothing\n", "t.txt"), InvalidInput);
  EXPECT_THROW(read_measurements_file("/nonexistent/t.txt"), InvalidInput);
}

}  // namespace
}  // namespace ccsched
