// Least-squares fits of models A, B and C to measurements, and the measurement file
// reader (include/ccsched/cost/fit.hpp). The models are linear in their parameters once
// Vmax and Vh are fixed, so one small QR solver (modified Gram-Schmidt on unit-scaled
// columns: times of 1e-4 s next to sizes of 1e4 bytes would ruin normal equations'
// conditioning) serves all three.
#include "ccsched/cost/fit.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/units.hpp"

namespace ccsched {
namespace {

using Column = std::vector<double>;

double dot(const Column& a, const Column& b) {
  double s = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

// min ||sum_j x_j cols[j] - y||; nullopt when the columns are numerically dependent, i.e.
// the data cannot tell the parameters apart.
std::optional<std::vector<double>> least_squares(std::vector<Column> cols, Column y) {
  const std::size_t k = cols.size();
  std::vector<double> scale(k);
  for (std::size_t j = 0; j < k; ++j) {
    scale[j] = std::sqrt(dot(cols[j], cols[j]));
    if (scale[j] == 0.0) return std::nullopt;
    for (double& v : cols[j]) v /= scale[j];
  }
  std::vector<std::vector<double>> r(k, std::vector<double>(k, 0.0));
  for (std::size_t j = 0; j < k; ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      r[i][j] = dot(cols[i], cols[j]);
      for (std::size_t n = 0; n < y.size(); ++n) cols[j][n] -= r[i][j] * cols[i][n];
    }
    r[j][j] = std::sqrt(dot(cols[j], cols[j]));
    if (r[j][j] < 1e-9) return std::nullopt;
    for (double& v : cols[j]) v /= r[j][j];
  }
  std::vector<double> z(k);
  for (std::size_t j = 0; j < k; ++j) {
    z[j] = dot(cols[j], y);
    for (std::size_t n = 0; n < y.size(); ++n) y[n] -= z[j] * cols[j][n];
  }
  std::vector<double> x(k);
  for (std::size_t jj = k; jj-- > 0;) {
    double s = z[jj];
    for (std::size_t i = jj + 1; i < k; ++i) s -= r[jj][i] * x[i];
    x[jj] = s / r[jj][jj];
  }
  for (std::size_t j = 0; j < k; ++j) x[j] /= scale[j];
  return x;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Fits t = a + b*m over the rows.
std::pair<double, double> fit_line(std::span<const Measurement> rows, std::string_view where) {
  std::set<std::int64_t> sizes;
  for (const auto& r : rows) sizes.insert(r.bytes);
  if (sizes.size() < 2)
    throw InvalidInput(
        fmt::format("{} measurement(s) of {} size(s): a fit needs at least two message sizes",
                    rows.size(), sizes.size()),
        std::string(where));
  Column ones(rows.size(), 1.0), m, t;
  for (const auto& r : rows) {
    m.push_back(static_cast<double>(r.bytes));
    t.push_back(r.seconds);
  }
  const auto x = least_squares({ones, m}, t);
  if (!x) throw InvalidInput("the message sizes are too close to fit a line", std::string(where));
  return {(*x)[0], (*x)[1]};
}

}  // namespace

std::vector<Measurement> read_measurements(std::string_view text, std::string_view file) {
  std::vector<Measurement> rows;
  int line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    line = trim(line);
    if (line.empty()) continue;
    const std::string where = fmt::format("{}:{}", file, line_no);
    // "BYTES, TIME" or "BYTES TIME"; TIME may itself hold a space ("495 us").
    std::size_t cut = line.find(',');
    std::size_t rest = cut + 1;
    if (cut == std::string_view::npos) {
      cut = line.find_first_of(" \t");
      if (cut == std::string_view::npos)
        throw InvalidInput(fmt::format("'{}': expected two columns, bytes and time", line), where);
      rest = cut;
    }
    const std::string_view bytes_text = trim(line.substr(0, cut));
    const std::string_view time_text = trim(line.substr(rest));
    if (time_text.empty() || time_text.find(',') != std::string_view::npos)
      throw InvalidInput(fmt::format("'{}': expected two columns, bytes and time", line), where);
    Measurement mm;
    mm.line = line_no;
    try {
      mm.bytes = parse_bytes(bytes_text, "bytes");
    } catch (const InvalidParameter& e) {
      throw InvalidInput("bytes column: " + e.problem(), where);
    }
    try {
      // A bare number is in microseconds, the unit of seed 003's table.
      const bool bare = time_text.find_first_not_of("0123456789.eE+-") == std::string_view::npos;
      mm.seconds =
          bare ? parse_time(std::string(time_text) + "us", "time") : parse_time(time_text, "time");
    } catch (const InvalidParameter& e) {
      throw InvalidInput("time column: " + e.problem(), where);
    }
    rows.push_back(mm);
  }
  if (rows.empty())
    throw InvalidInput("no measurements (two columns: bytes, time)", std::string(file));
  return rows;
}

std::vector<Measurement> read_measurements_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput("cannot open for reading", path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return read_measurements(buffer.str(), path);
}

ModelC fit_model_c(std::span<const Measurement> rows, std::string_view where) {
  // Seed 003, model C: t = ts + m*tb, the straight line through the measurements.
  const auto [a, b] = fit_line(rows, where);
  return ModelC{a, b};
}

ModelA fit_model_a(std::span<const Measurement> rows, double th, std::string_view where) {
  // Seed 003, model A: t = ts + m*tb + th; only ts + th shows in the data.
  const auto [a, b] = fit_line(rows, where);
  if (th > a)
    throw InvalidParameter(
        fmt::format("{} us exceeds the fitted ts + th = {} us", format_us(th), format_us(a)),
        "--th");
  return ModelA{a - th, b, th};
}

ModelBFit fit_model_b(std::span<const Measurement> rows, std::int64_t vmax, std::int64_t vh,
                      std::string_view where) {
  ModelBFit fit;
  fit.model.vmax = vmax;
  fit.model.vh = vh;
  check_model_b(fit.model);
  const auto payload = static_cast<double>(vmax - vh);
  // Seed 003, model B, written for every n >= 1 as
  //   t = ts0 + min(m, Vmax - Vh)*ts1 + (m + Vh*n)*tb.
  Column ones(rows.size(), 1.0), first, wire, t;
  for (const auto& r : rows) {
    const auto m = static_cast<double>(r.bytes);
    first.push_back(std::min(m, payload));
    wire.push_back(m + static_cast<double>(vh * model_b_packets(fit.model, r.bytes)));
    t.push_back(r.seconds);
  }
  if (const auto x = least_squares({ones, first, wire}, t)) {
    fit.model.ts0 = (*x)[0];
    fit.model.ts1 = (*x)[1];
    fit.model.tb = (*x)[2];
    return fit;
  }
  // ts0 and ts1 not separable: fit latency and tb on the multi-packet messages alone.
  Column ones_long, wire_long, t_long;
  std::set<std::int64_t> sizes;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].bytes < vmax - vh) continue;
    sizes.insert(rows[i].bytes);
    ones_long.push_back(1.0);
    wire_long.push_back(wire[i]);
    t_long.push_back(t[i]);
  }
  const auto x = sizes.size() >= 2 ? least_squares({ones_long, wire_long}, t_long) : std::nullopt;
  if (!x)
    throw InvalidInput(
        fmt::format("model B needs measurements of at least two sizes of Vmax - Vh = {} bytes "
                    "or more to fit tb (and, to separate ts0 from ts1, some shorter ones too)",
                    vmax - vh),
        std::string(where));
  fit.model.ts0 = (*x)[0];
  fit.model.ts1 = 0.0;
  fit.model.tb = (*x)[1];
  fit.separated = false;
  return fit;
}

FitReport fit_report(std::span<const Measurement> rows,
                     const std::function<double(std::int64_t)>& model) {
  FitReport report;
  double sum_sq = 0.0;
  for (const auto& r : rows) {
    FitRow row;
    row.bytes = r.bytes;
    row.measured = r.seconds;
    row.model = model(r.bytes);
    if (r.seconds > 0) {
      row.error_percent = (r.seconds - row.model) / r.seconds * 100.0;
      report.max_abs_error_percent =
          std::max(report.max_abs_error_percent, std::abs(*row.error_percent));
    }
    sum_sq += (r.seconds - row.model) * (r.seconds - row.model);
    report.rows.push_back(row);
  }
  if (!rows.empty()) report.rms_seconds = std::sqrt(sum_sq / static_cast<double>(rows.size()));
  return report;
}

}  // namespace ccsched
