// Physical quantities as the user writes them: times ("1us", "0.5 ns", "3e-6s"), times per
// byte ("0.5ns", "0.5ns/B") or bandwidths ("2GBps", "10 Gbit/s"), and byte counts
// ("1024", "4KiB"). Every parser returns SI base units (seconds, seconds per byte, bytes
// per second, bytes) and throws InvalidParameter naming the option and the text.
//
//   double t0 = parse_time("1us", "--t0");                 // 1e-6
//   double t1 = parse_time_per_byte("10Gbps", "--t1");     // 8e-10 s/B
//   std::int64_t m = parse_bytes("1KiB", "--bytes");       // 1024
//
// Grammar (docs/COST.md, "Units"): a decimal number (C syntax, no sign, no hex, finite),
// optional spaces, a unit. Units are case-sensitive where SI needs it (B byte, b bit,
// m milli, M mega). A bare number is accepted only as "0" for times; byte counts need no
// unit.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ccsched {

// Time: s, ms, us (also µs, μs), ns, ps. Non-negative.
double parse_time(std::string_view text, std::string_view option);

// Transfer time per byte: a time unit, optionally followed by "/B" or "/byte", or a
// bandwidth (see parse_bandwidth), converted to its reciprocal. Non-negative.
double parse_time_per_byte(std::string_view text, std::string_view option);

// Bandwidth in bytes per second: a prefix (k K M G T decimal, Ki Mi Gi Ti binary), a base
// (B byte, b or bit = 1/8 byte) and "ps" or "/s": "2GBps", "2 GB/s", "10Gbps",
// "10Gbit/s", "100MiB/s". Strictly positive.
double parse_bandwidth(std::string_view text, std::string_view option);

// Byte count: a non-negative integer, optionally with B, kB/KB (1000), KiB (1024), MB,
// MiB, GB, GiB. The product must be a whole number of bytes ("1.5KB" is 1500, "1.5B" is
// an error).
std::int64_t parse_bytes(std::string_view text, std::string_view option);

// A time in microseconds for printing: fixed with up to 6 decimals (1 ps resolution),
// trailing zeros dropped ("1.512", "51.408", "2").
std::string format_us(double seconds);

// `seconds` in microseconds rounded to 1 ps, for JSON output (avoids 1.5120000000000002).
double rounded_us(double seconds);

}  // namespace ccsched
