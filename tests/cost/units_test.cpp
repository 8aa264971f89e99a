// Unit parsing: every accepted spelling gives the SI value, and every bad text throws
// InvalidParameter naming the option and quoting the text.
#include "ccsched/cost/units.hpp"

#include <gtest/gtest.h>

#include <string>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

TEST(Units, Times) {
  EXPECT_DOUBLE_EQ(parse_time("1us", "--t0"), 1e-6);
  EXPECT_DOUBLE_EQ(parse_time("0.5ns", "--t0"), 0.5e-9);
  EXPECT_DOUBLE_EQ(parse_time("2ms", "--t0"), 2e-3);
  EXPECT_DOUBLE_EQ(parse_time("1s", "--t0"), 1.0);
  EXPECT_DOUBLE_EQ(parse_time("3e-6s", "--t0"), 3e-6);
  EXPECT_DOUBLE_EQ(parse_time("1.5 us", "--t0"), 1.5e-6);  // a space is allowed
  EXPECT_DOUBLE_EQ(parse_time(" 250ps ", "--t0"), 250e-12);
  EXPECT_DOUBLE_EQ(parse_time("1\u00b5s", "--t0"), 1e-6);  // micro sign
  EXPECT_DOUBLE_EQ(parse_time("1\u03bcs", "--t0"), 1e-6);  // Greek mu
  EXPECT_DOUBLE_EQ(parse_time(".5us", "--t0"), 0.5e-6);
  EXPECT_DOUBLE_EQ(parse_time("0", "--t0"), 0.0);  // the one bare number allowed
}

TEST(Units, TimesPerByteAndBandwidths) {
  EXPECT_DOUBLE_EQ(parse_time_per_byte("0.5ns", "--t1"), 0.5e-9);
  EXPECT_DOUBLE_EQ(parse_time_per_byte("0.5ns/B", "--t1"), 0.5e-9);
  EXPECT_DOUBLE_EQ(parse_time_per_byte("0.5 ns / byte", "--t1"), 0.5e-9);
  // 2 GB/s = 2e9 B/s -> 0.5 ns per byte.
  EXPECT_DOUBLE_EQ(parse_time_per_byte("2GBps", "--t1"), 0.5e-9);
  // 10 Gbit/s = 1.25e9 B/s -> 0.8 ns per byte.
  EXPECT_DOUBLE_EQ(parse_time_per_byte("10Gbps", "--t1"), 0.8e-9);
  EXPECT_DOUBLE_EQ(parse_time_per_byte("10 Gbit/s", "--t1"), 0.8e-9);
  EXPECT_DOUBLE_EQ(parse_time_per_byte("100MiB/s", "--t1"), 1.0 / (100.0 * 1048576.0));

  EXPECT_DOUBLE_EQ(parse_bandwidth("2GBps", "--beta"), 2e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("2 GB/s", "--beta"), 2e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("10Gbps", "--beta"), 1.25e9);
  EXPECT_DOUBLE_EQ(parse_bandwidth("1KiBps", "--beta"), 1024.0);
  EXPECT_DOUBLE_EQ(parse_bandwidth("8bps", "--beta"), 1.0);
}

TEST(Units, Bytes) {
  EXPECT_EQ(parse_bytes("1024", "--bytes"), 1024);
  EXPECT_EQ(parse_bytes("0", "--bytes"), 0);
  EXPECT_EQ(parse_bytes("1024B", "--bytes"), 1024);
  EXPECT_EQ(parse_bytes("1KiB", "--bytes"), 1024);
  EXPECT_EQ(parse_bytes("4 KiB", "--bytes"), 4096);
  EXPECT_EQ(parse_bytes("1.5KB", "--bytes"), 1500);
  EXPECT_EQ(parse_bytes("2MB", "--bytes"), 2000000);
  EXPECT_EQ(parse_bytes("1MiB", "--bytes"), 1048576);
  EXPECT_EQ(parse_bytes("1e3", "--bytes"), 1000);
}

// The error names the option (where) and quotes the text (what).
void expect_bad(double (*parse)(std::string_view, std::string_view), const std::string& text,
                const std::string& option) {
  try {
    parse(text, option);
    ADD_FAILURE() << "accepted '" << text << "'";
  } catch (const InvalidParameter& e) {
    EXPECT_EQ(e.where(), option) << text;
    EXPECT_NE(e.problem().find("'" + text + "'"), std::string::npos) << e.what();
  }
}

TEST(Units, BadTimes) {
  for (const std::string text : {"1", "1xs", "", "-1us", "+1us", "abc", "us", "1 u s", "inf s",
                                 "nan us", "1usec", "1 us/B", "1MS", "2GBps"})
    expect_bad(parse_time, text, "--t0");
}

TEST(Units, BadTimesPerByte) {
  for (const std::string text :
       {"3", "0GBps", "1 furlong", "-0.5ns", "1ns/b", "1ns/KB", "10Gb", "1mBps"})
    expect_bad(parse_time_per_byte, text, "--t1");
}

TEST(Units, BadBandwidths) {
  for (const std::string text : {"1ns", "5", "0Gbps", "1GHz", "-1GBps"})
    expect_bad(parse_bandwidth, text, "--beta");
}

TEST(Units, BadBytes) {
  for (const std::string text : {"1.5B", "-3", "1KQ", "12 apples", "0.1", "1TB", "", "1e300"}) {
    try {
      parse_bytes(text, "--bytes");
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const InvalidParameter& e) {
      EXPECT_EQ(e.where(), "--bytes");
      EXPECT_NE(e.problem().find("'" + text + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(Units, FormatMicroseconds) {
  EXPECT_EQ(format_us(1.512e-6), "1.512");
  EXPECT_EQ(format_us(51.408e-6), "51.408");
  EXPECT_EQ(format_us(2e-6), "2");
  EXPECT_EQ(format_us(0.0), "0");
  EXPECT_EQ(format_us(1e-12), "0.000001");
  EXPECT_DOUBLE_EQ(rounded_us((1.0 + 0.512) * 1e-6), 1.512);
}

}  // namespace
}  // namespace ccsched
