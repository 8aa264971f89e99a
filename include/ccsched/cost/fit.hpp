// Fitting the cluster models of seed 003 to measured (bytes, time) pairs by linear least
// squares, and reading such measurements from a text file.
//
// File format: one measurement per line, "BYTES TIME" or "BYTES, TIME"; BYTES as in
// parse_bytes ("2000", "2KB"), TIME with a unit ("495us", "0.495 ms") or a bare number
// meaning microseconds (the unit of the chapter's table). '#' starts a comment; blank
// lines are ignored. Errors throw InvalidInput with where "FILE:LINE".
//
//   auto rows = read_measurements_file("table.txt");
//   ModelC c = fit_model_c(rows, "table.txt");
//   FitReport r = fit_report(rows, [&](std::int64_t m) { return model_time(c, m); });
//
// Seed 003 determined its parameters differently (latency = time of an empty message,
// tb = 1/R with R the largest bandwidth observed, ts0 and ts1 by a straight line over
// messages up to Vmax); those inputs are not in its table, so here every model is the
// least-squares fit of the measurements given (docs/COST.md compares the two).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/cost/cluster.hpp"

namespace ccsched {

struct Measurement {
  std::int64_t bytes = 0;
  double seconds = 0.0;
  int line = 0;  // 1-based line in the file, 0 when not from a file
};

std::vector<Measurement> read_measurements(std::string_view text, std::string_view file);
std::vector<Measurement> read_measurements_file(const std::string& path);

// Model C: least squares of t = ts + m*tb. Needs two different sizes.
ModelC fit_model_c(std::span<const Measurement> rows, std::string_view where);

// Model A: ts + th is the intercept of the same line; the data cannot separate them, so
// `th` is given (0 by default) and ts = intercept - th. Throws InvalidParameter ("--th")
// when th exceeds the intercept.
ModelA fit_model_a(std::span<const Measurement> rows, double th, std::string_view where);

struct ModelBFit {
  ModelB model;
  // False when no measurement is shorter than Vmax - Vh (as in the chapter's table): then
  // ts0 and ts1 cannot be told apart, the fit sets ts1 = 0 and ts0 = the latency
  // ts0 + (Vmax - Vh)*ts1, which is exact for every message of more than one packet.
  bool separated = true;
};
// Model B with vmax and vh given: least squares over ts0, ts1, tb, model B being linear
// in them (t = ts0 + min(m, Vmax - Vh)*ts1 + (m + Vh*n)*tb for every n >= 1).
ModelBFit fit_model_b(std::span<const Measurement> rows, std::int64_t vmax, std::int64_t vh,
                      std::string_view where);

struct FitRow {
  std::int64_t bytes = 0;
  double measured = 0.0;  // seconds
  double model = 0.0;     // seconds
  // (measured - model) / measured * 100: the sign convention of seed 003's error table
  // (the only one under which its model A and C columns lie on a straight line).
  std::optional<double> error_percent;  // none when measured is 0
};

struct FitReport {
  std::vector<FitRow> rows;
  double rms_seconds = 0.0;
  double max_abs_error_percent = 0.0;
};

FitReport fit_report(std::span<const Measurement> rows,
                     const std::function<double(std::int64_t)>& model);

}  // namespace ccsched
