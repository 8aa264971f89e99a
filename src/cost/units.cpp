// Parsing of times, times per byte, bandwidths and byte counts (include/ccsched/cost/units.hpp).
// One small scanner splits "number [spaces] unit"; each quantity then looks its unit up
// in a table, so the accepted spellings are listed in one place and quoted in the errors.
#include "ccsched/cost/units.hpp"

#include <fmt/core.h>

#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "ccsched/core/error.hpp"

namespace ccsched {
namespace {

struct Quantity {
  double value = 0.0;
  std::string_view unit;  // trimmed; empty when the text is a bare number
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

[[noreturn]] void fail(std::string_view option, std::string_view text, std::string_view why) {
  throw InvalidParameter(fmt::format("'{}': {}", text, why), std::string(option));
}

// "number [spaces] unit". The number is what std::from_chars accepts in general format
// (C decimal syntax) minus signs, infinities and NaNs: negative quantities make no sense
// for any of our parameters, and rejecting the sign here gives one clear message.
Quantity split(std::string_view text, std::string_view option) {
  const std::string_view s = trim(text);
  if (s.empty()) fail(option, text, "empty value");
  if (s.front() == '-') fail(option, text, "must not be negative");
  if (s.front() == '+') fail(option, text, "write the number without a sign");
  Quantity q;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), q.value);
  if (ec != std::errc{} || end == s.data())
    fail(option, text, "expected a number followed by a unit");
  if (!std::isfinite(q.value)) fail(option, text, "must be a finite number");
  q.unit = trim(s.substr(static_cast<std::size_t>(end - s.data())));
  return q;
}

struct Unit {
  std::string_view name;
  double factor;
};

// Time units; "µs" is U+00B5 MICRO SIGN, "μs" U+03BC GREEK SMALL LETTER MU (both occur).
constexpr std::array<Unit, 7> kTimeUnits{{{"s", 1.0},
                                          {"ms", 1e-3},
                                          {"us", 1e-6},
                                          {"\u00b5s", 1e-6},
                                          {"\u03bcs", 1e-6},
                                          {"ns", 1e-9},
                                          {"ps", 1e-12}}};

constexpr std::array<Unit, 10> kBytePrefixes{{{"", 1.0},
                                              {"k", 1e3},
                                              {"K", 1e3},
                                              {"M", 1e6},
                                              {"G", 1e9},
                                              {"T", 1e12},
                                              {"Ki", 1024.0},
                                              {"Mi", 1048576.0},
                                              {"Gi", 1073741824.0},
                                              {"Ti", 1099511627776.0}}};

std::optional<double> time_factor(std::string_view unit) {
  for (const auto& u : kTimeUnits)
    if (u.name == unit) return u.factor;
  return std::nullopt;
}

// Bandwidth unit = prefix + base + rate suffix; returns bytes per second per unit.
std::optional<double> bandwidth_factor(std::string_view unit) {
  std::string_view rest = unit;
  if (!rest.ends_with("ps") && !rest.ends_with("/s")) return std::nullopt;
  rest.remove_suffix(2);
  double base = 0.0;
  if (rest.ends_with("bit")) {
    base = 0.125;
    rest.remove_suffix(3);
  } else if (rest.ends_with("B")) {
    base = 1.0;
    rest.remove_suffix(1);
  } else if (rest.ends_with("b")) {
    base = 0.125;
    rest.remove_suffix(1);
  } else {
    return std::nullopt;
  }
  for (const auto& p : kBytePrefixes)
    if (p.name == rest) return base * p.factor;
  return std::nullopt;
}

constexpr std::string_view kTimeUnitList = "s, ms, us (or \u00b5s), ns, ps";

}  // namespace

double parse_time(std::string_view text, std::string_view option) {
  const Quantity q = split(text, option);
  if (q.unit.empty()) {
    if (q.value == 0.0) return 0.0;
    fail(option, text, fmt::format("needs a time unit ({})", kTimeUnitList));
  }
  const auto f = time_factor(q.unit);
  if (!f) fail(option, text, fmt::format("unknown time unit '{}' (use {})", q.unit, kTimeUnitList));
  return q.value * *f;
}

double parse_time_per_byte(std::string_view text, std::string_view option) {
  const Quantity q = split(text, option);
  if (q.unit.empty()) {
    if (q.value == 0.0) return 0.0;
    fail(option, text, "needs a unit: a time per byte (0.5ns, 0.5ns/B) or a bandwidth (2GBps)");
  }
  std::string_view unit = q.unit;
  // "0.5 ns / B": allow spaces around the slash, as people write it in papers.
  std::string compact;
  for (char c : unit)
    if (c != ' ' && c != '\t') compact.push_back(c);
  unit = compact;
  for (std::string_view per : {"/B", "/byte"}) {
    if (unit.ends_with(per)) {
      const auto f = time_factor(unit.substr(0, unit.size() - per.size()));
      if (f) return q.value * *f;
    }
  }
  if (const auto f = time_factor(unit)) return q.value * *f;
  if (const auto bw = bandwidth_factor(unit)) {
    if (q.value == 0.0) fail(option, text, "a bandwidth must be positive");
    return 1.0 / (q.value * *bw);
  }
  fail(option, text,
       fmt::format("unknown unit '{}': use a time per byte ({}, optionally with /B) or a "
                   "bandwidth (e.g. 2GBps, 10Gbps, 100MiB/s)",
                   q.unit, kTimeUnitList));
}

double parse_bandwidth(std::string_view text, std::string_view option) {
  const Quantity q = split(text, option);
  std::string compact;
  for (char c : q.unit)
    if (c != ' ' && c != '\t') compact.push_back(c);
  const auto bw = bandwidth_factor(compact);
  if (!bw)
    fail(option, text,
         q.unit.empty()
             ? std::string("needs a bandwidth unit (e.g. 2GBps, 10Gbps, 100MiB/s)")
             : fmt::format("unknown bandwidth unit '{}' (e.g. 2GBps, 10Gbps, 100MiB/s)", q.unit));
  if (q.value == 0.0) fail(option, text, "a bandwidth must be positive");
  return q.value * *bw;
}

std::int64_t parse_bytes(std::string_view text, std::string_view option) {
  const Quantity q = split(text, option);
  std::string_view unit = q.unit;
  double factor = 1.0;
  if (!unit.empty()) {
    if (!unit.ends_with("B"))
      fail(option, text,
           fmt::format("unknown byte unit '{}' (use B, kB, KiB, MB, MiB, GB, GiB)", q.unit));
    unit.remove_suffix(1);
    std::optional<double> f;
    for (const auto& p : kBytePrefixes)
      if (p.name == unit && p.name != "T" && p.name != "Ti") f = p.factor;
    if (!f)
      fail(option, text,
           fmt::format("unknown byte unit '{}' (use B, kB, KiB, MB, MiB, GB, GiB)", q.unit));
    factor = *f;
  }
  const double bytes = q.value * factor;
  // 2^53: beyond it doubles no longer hold every integer; no message is that long.
  if (bytes > 9007199254740992.0) fail(option, text, "too large");
  const double whole = std::round(bytes);
  if (std::abs(bytes - whole) > 1e-9 * std::max(1.0, bytes))
    fail(option, text, "must be a whole number of bytes");
  return static_cast<std::int64_t>(whole);
}

std::string format_us(double seconds) {
  std::string s = fmt::format("{:.6f}", seconds * 1e6);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

double rounded_us(double seconds) { return std::round(seconds * 1e12) / 1e6; }

}  // namespace ccsched
