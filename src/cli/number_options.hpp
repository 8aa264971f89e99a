// Checks of the numeric options, run on the text as typed, before CLI11 converts it: a
// bad value is one line naming the option and the text ("--steps: expected a whole
// number from 1 to 1000000, got '0'"), exit status 2, and never a silent wrap-around
// ("--seed -1" read as 18446744073709551615) or the converter's own wording.
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace ccsched::cli {

// The largest value of an int option (steps, blocks, radius, runs).
inline constexpr long long kMaxInt = std::numeric_limits<int>::max();

// A number of seconds: finite, above 0, or 0 too when `zero` is allowed.
inline CLI::Validator seconds_check(bool zero) {
  return CLI::Validator(
      [zero](std::string& text) -> std::string {
        double value = 0.0;
        const auto* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ec == std::errc() && ptr == end && std::isfinite(value) &&
            (zero ? value >= 0.0 : value > 0.0))
          return {};
        return std::string("expected a number of seconds, ") + (zero ? "0 or more" : "above 0") +
               ", got '" + text + "'";
      },
      "SECONDS");
}

// A whole number in lo..hi, digits only (an optional leading '-' when lo is negative).
inline CLI::Validator integer_check(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        long long value = 0;
        const auto* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ec == std::errc() && ptr == end && value >= lo && value <= hi) return {};
        return "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
               ", got '" + text + "'";
      },
      "INT");
}

// A random seed: 0 to 2^64 - 1, digits only.
inline CLI::Validator seed_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const auto* end = text.data() + text.size();
        const auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (!text.empty() && text[0] != '-' && text[0] != '+' && ec == std::errc() && ptr == end)
          return {};
        return "expected a seed, a whole number from 0 to 18446744073709551615, got '" + text + "'";
      },
      "SEED");
}

}  // namespace ccsched::cli
