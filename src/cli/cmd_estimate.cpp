// `ccsched estimate`: communication times from the models of seed 003, without a schedule.
//
//   analytic:  ccsched estimate --topology ring|torus|hypercube --p P
//                --op p2p|oab|aab|scatter|total-exchange|shift --switching sf|ct
//                --ts T --tb T [--th T] --bytes M [--q Q] [--json]
//   reduction: ccsched estimate --topology ring|torus|hypercube --p P
//                --op reduce|allreduce|reducescatter|scan --switching sf|ct
//                --ts T --tb T [--th T] [--tc T] --bytes M [--json]
//              (every algorithm's time, the fastest, and the crossover sizes)
//   cluster:   ccsched estimate --model a --ts T --tb T --th T --bytes M
//              ccsched estimate --model b --ts0 T --ts1 T --tb T [--vmax B] [--vh B] --bytes M
//              ccsched estimate --model c --alpha T --beta BW --bytes M   (= --ts, --tb)
//              ccsched estimate --model a|b|c --fit FILE [--bytes M] [--th T] [--vmax --vh]
//   listing:   ccsched estimate --list [--json]
//
// Options that do not belong to the chosen form are errors rather than silently ignored,
// so a mistyped command never prints a plausible but unrelated number. docs/COST.md has
// the formulas, their sources and the JSON layouts.
#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/analytic.hpp"
#include "ccsched/cost/cluster.hpp"
#include "ccsched/cost/fit.hpp"
#include "ccsched/cost/reduction.hpp"
#include "ccsched/cost/units.hpp"
#include "commands.hpp"

namespace ccsched::cli {
namespace {

using Json = nlohmann::ordered_json;

struct EstimateOptions {
  std::string topology, op, switching, model, fit, ts, tb, th, tc, ts0, ts1, bytes, vmax, vh;
  std::int64_t p = 0;
  std::int64_t q = 1;
  bool json = false;
  bool list = false;
  // Set in add_estimate_command, to tell "given" from "defaulted".
  CLI::Option *topology_opt, *p_opt, *op_opt, *switching_opt, *q_opt, *model_opt, *fit_opt, *ts_opt,
      *tb_opt, *th_opt, *tc_opt, *ts0_opt, *ts1_opt, *bytes_opt, *vmax_opt, *vh_opt;
};

bool given(const CLI::Option* o) { return o->count() > 0; }

void require(const CLI::Option* o, std::string_view why) {
  if (!given(o)) throw InvalidParameter(fmt::format("required {}", why), o->get_name());
}

void forbid(const CLI::Option* o, std::string_view why) {
  if (given(o)) throw InvalidParameter(fmt::format("only {}", why), o->get_name());
}

// --- reductions: algorithms, the fastest, crossovers ---------------------------------------

// A message size that need not be whole (a crossover): "1645.24", "3000".
std::string format_size(double bytes) {
  std::string text = fmt::format("{:.2f}", bytes);
  while (text.back() == '0') text.pop_back();
  if (text.back() == '.') text.pop_back();
  return text;
}

void print_reduction_json(NetworkShape shape, ReductionOp op, RoutingMethod method,
                          const ReductionParams& a, const ReductionEstimate& e) {
  Json doc;
  doc["mode"] = "reduction";
  doc["topology"] = to_string(shape);
  doc["p"] = a.p;
  doc["op"] = to_string(op);
  doc["switching"] = to_string(method);
  doc["ts_us"] = a.ts * 1e6;
  doc["tb_us_per_byte"] = a.tb * 1e6;
  doc["tc_us_per_byte"] = a.tc * 1e6;
  doc["th_us"] = a.th * 1e6;
  doc["th_used"] = e.uses_th;
  doc["bytes"] = a.bytes;
  doc["algorithms"] = Json::array();
  for (std::size_t i = 0; i < e.algorithms.size(); ++i) {
    const ReductionAlgorithmEstimate& alg = e.algorithms[i];
    Json j;
    j["name"] = alg.name;
    j["formula"] = alg.formula;
    j["source"] = alg.source;
    j["from_chapter"] = alg.from_chapter;
    j["blocks"] = alg.blocks;
    j["block_bytes"] = static_cast<double>(a.bytes) / static_cast<double>(alg.blocks);
    j["steps"] = std::llround(alg.terms.startups);  // whole: counts of stages and steps
    j["time_us"] = rounded_us(alg.seconds);
    j["fastest"] = i == e.best;
    doc["algorithms"].push_back(std::move(j));
  }
  doc["not_applicable"] = Json::array();
  for (const ReductionNotApplicable& n : e.not_applicable)
    doc["not_applicable"].push_back({{"name", n.name}, {"requirement", n.requirement}});
  doc["best"] = e.algorithms[e.best].name;
  doc["time_us"] = rounded_us(e.algorithms[e.best].seconds);
  doc["fastest_for_small_m"] = e.algorithms[e.fastest_at_zero].name;
  doc["crossovers"] = Json::array();
  for (const ReductionCrossover& c : e.crossovers)
    doc["crossovers"].push_back({{"bytes", c.bytes},
                                 {"time_us", rounded_us(c.seconds)},
                                 {"below", c.below},
                                 {"above", c.above}});
  fmt::print("{}\n", doc.dump(2));
}

void run_reduction(const EstimateOptions& o, ReductionOp op) {
  forbid(o.q_opt, "with --op shift");
  const NetworkShape shape = parse_network_shape(o.topology, "--topology");
  const RoutingMethod method = parse_routing_method(o.switching, "--switching");
  if (method == RoutingMethod::cut_through) require(o.th_opt, "with --switching ct (per-hop time)");
  ReductionParams a;
  a.p = o.p;
  a.ts = parse_time(o.ts, "--ts");
  a.tb = parse_time_per_byte(o.tb, "--tb");
  a.th = given(o.th_opt) ? parse_time(o.th, "--th") : 0.0;
  a.tc = given(o.tc_opt) ? parse_time_per_byte(o.tc, "--tc") : 0.0;
  a.bytes = parse_bytes(o.bytes, "--bytes");
  const ReductionEstimate e = reduction_time(shape, op, method, a);
  if (o.json) {
    print_reduction_json(shape, op, method, a, e);
    return;
  }

  fmt::print("{} on a {} of p = {}, {}\n", display_name(op),
             shape == NetworkShape::torus ? "2-D torus" : to_string(shape), a.p,
             method == RoutingMethod::store_and_forward ? "store-and-forward" : "cut-through");
  fmt::print("  m = {} B per processor{}; ts = {} us, tb = {:.6g} us/B, tc = {:.6g} us/B{}, ",
             a.bytes, op == ReductionOp::reducescatter ? " (each keeps m/p of the sum)" : "",
             format_us(a.ts), a.tb * 1e6, a.tc * 1e6,
             given(o.tc_opt) ? " added" : " (no --tc: adds neglected, as seed 003 does)");
  fmt::print("th = {} us{}\n", format_us(a.th), e.uses_th ? "" : " (not used: SF neglects th)");
  fmt::print("  {:<22} {:>6} {:>6} {:>14}  {}\n", "algorithm", "blocks", "steps", "time (us)",
             "formula");
  for (std::size_t i = 0; i < e.algorithms.size(); ++i) {
    const ReductionAlgorithmEstimate& alg = e.algorithms[i];
    fmt::print("  {:<22} {:>6} {:>6} {:>14}  {}\n",
               fmt::format("{}{}", alg.name, i == e.best ? " *" : ""), alg.blocks,
               fmt::format("{:g}", alg.terms.startups), format_us(alg.seconds), alg.formula);
  }
  for (const ReductionNotApplicable& n : e.not_applicable)
    fmt::print("  {:<22} not applicable: needs {}\n", n.name, n.requirement);
  const ReductionAlgorithmEstimate& best = e.algorithms[e.best];
  fmt::print("fastest at m = {} B: {}, {} us\n", a.bytes, best.name, format_us(best.seconds));
  if (e.crossovers.empty()) {
    if (e.algorithms.size() > 1)
      fmt::print("no crossover: {} is never slower, at any m\n",
                 e.algorithms[e.fastest_at_zero].name);
  } else {
    std::string ranges = fmt::format("{} for m < {} B", e.algorithms[e.fastest_at_zero].name,
                                     format_size(e.crossovers.front().bytes));
    for (std::size_t i = 0; i < e.crossovers.size(); ++i)
      ranges += i + 1 < e.crossovers.size()
                    ? fmt::format(", {} up to {} B", e.crossovers[i].above,
                                  format_size(e.crossovers[i + 1].bytes))
                    : fmt::format(", {} above", e.crossovers[i].above);
    fmt::print("fastest by message size: {}\n", ranges);
    for (const ReductionCrossover& c : e.crossovers)
      fmt::print("crossover: m = {} B, where {} and {} both take {} us\n", format_size(c.bytes),
                 c.below, c.above, format_us(c.seconds));
  }
  std::vector<std::string_view> never;
  for (std::size_t i = 0; i < e.algorithms.size(); ++i) {
    const auto name = e.algorithms[i].name;
    const bool on_envelope =
        i == e.fastest_at_zero || std::any_of(e.crossovers.begin(), e.crossovers.end(),
                                              [&](const auto& c) { return c.above == name; });
    if (!on_envelope) never.push_back(name);
  }
  if (!never.empty() && e.algorithms.size() > 1)
    fmt::print("never the fastest: {}\n", fmt::join(never, ", "));
  fmt::print("sources:\n");
  for (const ReductionAlgorithmEstimate& alg : e.algorithms)
    fmt::print("  {}: {}\n", alg.name, alg.source);
}

// --- analytic formulas (seed 003) ----------------------------------------------------------

void run_analytic(const EstimateOptions& o) {
  for (const CLI::Option* opt : {o.ts0_opt, o.ts1_opt, o.vmax_opt, o.vh_opt, o.fit_opt})
    forbid(opt, "with --model");
  for (const CLI::Option* opt :
       {o.p_opt, o.op_opt, o.switching_opt, o.ts_opt, o.tb_opt, o.bytes_opt})
    require(opt, "with --topology");
  if (const auto reduction = reduction_op_named(o.op)) {
    run_reduction(o, *reduction);
    return;
  }
  forbid(o.tc_opt, "with a reduction --op (reduce, allreduce, reducescatter, scan)");
  const NetworkShape shape = parse_network_shape(o.topology, "--topology");
  const Operation op = parse_operation(o.op, "--op");
  const RoutingMethod method = parse_routing_method(o.switching, "--switching");
  if (op != Operation::shift) forbid(o.q_opt, "with --op shift");
  if (method == RoutingMethod::cut_through) require(o.th_opt, "with --switching ct (per-hop time)");

  AnalyticParams a;
  a.p = o.p;
  a.q = o.q;
  a.ts = parse_time(o.ts, "--ts");
  a.tb = parse_time_per_byte(o.tb, "--tb");
  a.th = given(o.th_opt) ? parse_time(o.th, "--th") : 0.0;
  a.bytes = parse_bytes(o.bytes, "--bytes");
  const AnalyticEstimate e = analytic_time(shape, op, method, a);

  if (o.json) {
    Json doc;
    doc["mode"] = "analytic";
    doc["topology"] = to_string(shape);
    doc["p"] = a.p;
    doc["op"] = to_string(op);
    doc["switching"] = to_string(method);
    doc["q"] = op == Operation::shift ? Json(a.q) : Json(nullptr);
    doc["ts_us"] = a.ts * 1e6;
    doc["tb_us_per_byte"] = a.tb * 1e6;
    doc["th_us"] = a.th * 1e6;
    doc["th_used"] = e.uses_th;
    doc["bytes"] = a.bytes;
    doc["formula"] = e.formula;
    doc["source"] = e.source;
    doc["from_chapter"] = e.from_chapter;
    doc["upper_estimate"] = e.upper_estimate;
    doc["time_us"] = rounded_us(e.seconds);
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  fmt::print("{} on a {} of p = {}{}, {}\n", display_name(op),
             shape == NetworkShape::torus ? "2-D torus" : to_string(shape), a.p,
             op == Operation::shift ? fmt::format(", q = {}", a.q) : "",
             method == RoutingMethod::store_and_forward ? "store-and-forward" : "cut-through");
  fmt::print("  t = {}{}\n", e.formula, e.upper_estimate ? "  (upper estimate over all q)" : "");
  fmt::print("  source: {}\n", e.source);
  fmt::print("  ts = {} us, tb = {:.6g} us/B, th = {} us{}, m = {} B\n", format_us(a.ts),
             a.tb * 1e6, format_us(a.th), e.uses_th ? "" : " (not used: SF neglects th)", a.bytes);
  fmt::print("time: {} us\n", format_us(e.seconds));
}

// --- cluster models A, B, C (seed 003) -----------------------------------------------------

void print_fit_rows(const FitReport& r) {
  fmt::print("  {:>10}  {:>14}  {:>12}  {:>9}\n", "bytes", "measured (us)", "model (us)",
             "error (%)");
  for (const FitRow& row : r.rows)
    fmt::print("  {:>10}  {:>14}  {:>12}  {:>9}\n", row.bytes, format_us(row.measured),
               fmt::format("{:.3f}", row.model * 1e6),
               row.error_percent ? fmt::format("{:.2f}", *row.error_percent) : "-");
  fmt::print(
      "  rms {:.3f} us, largest |error| {:.2f} %  (error = (measured - model)/measured, "
      "as in seed 003's table)\n",
      r.rms_seconds * 1e6, r.max_abs_error_percent);
}

Json fit_rows_json(const FitReport& r) {
  Json rows = Json::array();
  for (const FitRow& row : r.rows) {
    Json j;
    j["bytes"] = row.bytes;
    j["measured_us"] = rounded_us(row.measured);
    j["model_us"] = rounded_us(row.model);
    j["error_percent"] = row.error_percent ? Json(*row.error_percent) : Json(nullptr);
    rows.push_back(std::move(j));
  }
  return rows;
}

void run_model(const EstimateOptions& o) {
  for (const CLI::Option* opt :
       {o.topology_opt, o.p_opt, o.op_opt, o.switching_opt, o.q_opt, o.tc_opt})
    forbid(opt, "with --topology");
  const std::string kind = o.model;
  if (kind != "a" && kind != "b" && kind != "c" && kind != "A" && kind != "B" && kind != "C")
    throw InvalidParameter(fmt::format("'{}': unknown model (use a, b, c)", kind), "--model");
  const char which = static_cast<char>(kind[0] | 0x20);  // lower case
  const bool fitting = given(o.fit_opt);
  if (!fitting) require(o.bytes_opt, "without --fit");
  if (which != 'b')
    for (const CLI::Option* opt : {o.ts0_opt, o.ts1_opt, o.vmax_opt, o.vh_opt})
      forbid(opt, "with --model b");
  if (which != 'a') forbid(o.th_opt, "with --model a or --topology");
  if (fitting) {
    for (const CLI::Option* opt : {o.ts_opt, o.tb_opt, o.ts0_opt, o.ts1_opt})
      forbid(opt, "without --fit (the fit determines it)");
  }

  std::vector<Measurement> rows;
  if (fitting) rows = read_measurements_file(o.fit);
  std::function<double(std::int64_t)> time_of;
  Json params;
  std::string title, formula;
  std::vector<std::string> lines;
  std::optional<bool> separated;

  if (which == 'a') {
    const double th = given(o.th_opt) ? parse_time(o.th, "--th") : 0.0;
    ModelA a;
    if (fitting) {
      a = fit_model_a(rows, th, o.fit);
    } else {
      require(o.ts_opt, "for model A");
      require(o.tb_opt, "for model A");
      require(o.th_opt, "for model A");
      a = ModelA{parse_time(o.ts, "--ts"), parse_time_per_byte(o.tb, "--tb"), th};
    }
    time_of = [a](std::int64_t m) { return model_time(a, m); };
    title = "model A (seed 003)";
    formula = "t = ts + m*tb + th";
    params["ts_us"] = a.ts * 1e6;
    params["tb_us_per_byte"] = a.tb * 1e6;
    params["th_us"] = a.th * 1e6;
    lines.push_back(fmt::format("ts = {} us, tb = {:.6g} us/B, th = {} us{}", format_us(a.ts),
                                a.tb * 1e6, format_us(a.th),
                                fitting ? " (the fit gives ts + th; th as given)" : ""));
  } else if (which == 'b') {
    ModelB b;
    if (given(o.vmax_opt)) b.vmax = parse_bytes(o.vmax, "--vmax");
    if (given(o.vh_opt)) b.vh = parse_bytes(o.vh, "--vh");
    check_model_b(b);
    if (fitting) {
      const ModelBFit f = fit_model_b(rows, b.vmax, b.vh, o.fit);
      b = f.model;
      separated = f.separated;
    } else {
      require(o.ts0_opt, "for model B");
      require(o.ts1_opt, "for model B");
      require(o.tb_opt, "for model B");
      b.ts0 = parse_time(o.ts0, "--ts0");
      b.ts1 = parse_time_per_byte(o.ts1, "--ts1");
      b.tb = parse_time_per_byte(o.tb, "--tb");
    }
    time_of = [b](std::int64_t m) { return model_time(b, m); };
    title = "model B (seed 003)";
    formula =
        "t = ts0 + m*ts1 + (m + Vh)*tb if n = 1, ts0 + (Vmax - Vh)*ts1 + (m + Vh*n)*tb "
        "if n > 1; n = ceil(m/(Vmax - Vh))";
    params["ts0_us"] = b.ts0 * 1e6;
    params["ts1_us_per_byte"] = b.ts1 * 1e6;
    params["tb_us_per_byte"] = b.tb * 1e6;
    params["vmax_bytes"] = b.vmax;
    params["vh_bytes"] = b.vh;
    params["latency_us"] = model_b_latency(b) * 1e6;
    lines.push_back(
        fmt::format("ts0 = {} us, ts1 = {:.6g} us/B, tb = {:.6g} us/B, Vmax = {} B, "
                    "Vh = {} B",
                    format_us(b.ts0), b.ts1 * 1e6, b.tb * 1e6, b.vmax, b.vh));
    lines.push_back(
        fmt::format("latency ts = ts0 + (Vmax - Vh)*ts1 = {} us", format_us(model_b_latency(b))));
    if (separated == false)
      lines.push_back(fmt::format(
          "note: no measurement below Vmax - Vh = {} B, so ts0 and ts1 cannot be told apart; "
          "ts1 set to 0 (exact for messages of two or more packets)",
          b.vmax - b.vh));
  } else {
    ModelC c;
    if (fitting) {
      c = fit_model_c(rows, o.fit);
    } else {
      require(o.ts_opt, "for model C (--alpha or --ts)");
      require(o.tb_opt, "for model C (--beta or --tb)");
      c = ModelC{parse_time(o.ts, "--alpha"), parse_time_per_byte(o.tb, "--beta")};
    }
    time_of = [c](std::int64_t m) { return model_time(c, m); };
    title = "model C, Hockney (seed 003)";
    formula = "t = alpha + m/beta = ts + m*tb";
    params["alpha_us"] = c.alpha() * 1e6;
    params["tb_us_per_byte"] = c.tb * 1e6;
    params["beta_bytes_per_s"] = c.beta();
    lines.push_back(fmt::format("alpha = ts = {} us, tb = {:.6g} us/B (beta = {:.6g} MB/s)",
                                format_us(c.ts), c.tb * 1e6, c.beta() / 1e6));
  }

  std::optional<std::int64_t> bytes;
  if (given(o.bytes_opt)) bytes = parse_bytes(o.bytes, "--bytes");
  std::optional<FitReport> report;
  if (fitting) report = fit_report(rows, time_of);

  if (o.json) {
    Json doc;
    doc["mode"] = "model";
    doc["model"] = std::string(1, which);
    doc["formula"] = formula;
    doc["parameters"] = params;
    if (report) {
      Json fit;
      fit["file"] = o.fit;
      fit["method"] = "least-squares";
      fit["points"] = rows.size();
      if (separated) fit["separated"] = *separated;
      fit["rows"] = fit_rows_json(*report);
      fit["rms_us"] = report->rms_seconds * 1e6;
      fit["max_abs_error_percent"] = report->max_abs_error_percent;
      doc["fit"] = fit;
    }
    doc["bytes"] = bytes ? Json(*bytes) : Json(nullptr);
    doc["time_us"] = bytes ? Json(rounded_us(time_of(*bytes))) : Json(nullptr);
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  fmt::print("{}: {}\n", title, formula);
  for (const auto& line : lines) fmt::print("  {}\n", line);
  if (report) {
    fmt::print("least-squares fit of {} measurement{} from {}:\n", rows.size(),
               rows.size() == 1 ? "" : "s", o.fit);
    print_fit_rows(*report);
  }
  if (bytes) fmt::print("time for m = {} B: {} us\n", *bytes, format_us(time_of(*bytes)));
}

// --- listing --------------------------------------------------------------------------------

// One listing row, for the chapter's operations (one formula each) and for the reduction
// algorithms (several per operation, named).
template <class Info>
Json list_row(const Info& f) {
  Json j;
  j["topology"] = to_string(f.shape);
  j["op"] = to_string(f.op);
  j["switching"] = to_string(f.method);
  if constexpr (requires { f.name; }) j["algorithm"] = f.name;
  j["formula"] = f.formula;
  j["requirement"] = f.requirement;
  j["from_chapter"] = f.from_chapter;
  j["source"] = f.source;
  return j;
}

template <class Info>
void print_list_row(const Info& f) {
  std::string formula(f.formula);
  if constexpr (requires { f.name; }) formula = fmt::format("{:<22} {}", f.name, f.formula);
  fmt::print("{:<10} {:<15} {:<3} {:<48} {}{}\n", to_string(f.shape), to_string(f.op),
             to_string(f.method), formula, f.from_chapter ? "seed 003" : "derived",
             f.requirement.empty() ? "" : fmt::format(" ({})", f.requirement));
}

void run_list(bool json) {
  if (json) {
    Json doc = Json::array();
    for (const auto& f : analytic_formulas()) doc.push_back(list_row(f));
    for (const auto& f : reduction_formulas()) doc.push_back(list_row(f));
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  for (const auto& f : analytic_formulas()) print_list_row(f);
  for (const auto& f : reduction_formulas()) print_list_row(f);
}

void run_estimate(const EstimateOptions& o) {
  if (o.list) {
    if (given(o.topology_opt) || given(o.model_opt))
      throw InvalidParameter("lists the formulas; give it alone (or with --json)", "--list");
    run_list(o.json);
    return;
  }
  if (given(o.topology_opt) == given(o.model_opt))
    throw InvalidParameter(
        "give either --topology (seed 003's analytic formulas) or --model "
        "a|b|c (its cluster models)",
        "estimate");
  if (given(o.topology_opt))
    run_analytic(o);
  else
    run_model(o);
}

}  // namespace

void add_estimate_command(CLI::App& app) {
  auto o = std::make_shared<EstimateOptions>();
  auto* cmd = app.add_subcommand(
      "estimate",
      "communication time from the models of seed 003: analytic SF/CT formulas on ring, torus "
      "and hypercube (--topology; reductions: every algorithm, the fastest and the crossover "
      "sizes), or the cluster models A, B, C (--model), given or fitted (--fit)");
  cmd->footer(
      "Examples:\n"
      "  ccsched estimate --topology hypercube --p 16 --op oab --switching ct --ts 10us "
      "--tb 10ns --th 1us --bytes 100\n"
      "  ccsched estimate --topology torus --p 64 --op shift --q 3 --switching sf --ts 1us "
      "--tb 1GBps --bytes 4KiB\n"
      "  ccsched estimate --topology hypercube --p 16 --op allreduce --switching sf --ts 10us "
      "--tb 10ns --tc 1ns --bytes 4KiB\n"
      "  ccsched estimate --model c --alpha 10us --beta 1GBps --bytes 1000\n"
      "  ccsched estimate --model b --ts0 100us --ts1 10ns --tb 80ns --bytes 5000\n"
      "  ccsched estimate --model c --fit table.txt --bytes 5000\n"
      "Times take a unit (s, ms, us, ns, ps); per-byte times also take /B or a bandwidth "
      "(GBps, Gbps, MiB/s). Fit files: 'BYTES TIME' per line, TIME in us unless it has a unit, "
      "'#' comments. See docs/COST.md.");
  o->topology_opt = cmd->add_option("--topology", o->topology,
                                    "ring | torus | hypercube "
                                    "(torus: 2-D, sqrt(p) x sqrt(p))");
  o->p_opt = cmd->add_option("--p", o->p, "number of processors");
  o->op_opt = cmd->add_option("--op", o->op,
                              "p2p | oab | aab | scatter | total-exchange | shift "
                              "(oas = scatter, aas = total-exchange) | reduce | allreduce | "
                              "reducescatter | scan");
  o->switching_opt =
      cmd->add_option("--switching", o->switching, "sf (store-and-forward) | ct (cut-through)");
  o->q_opt = cmd->add_option("--q", o->q, "shift distance, 1..p-1 (--op shift; default 1)");
  o->model_opt = cmd->add_option("--model", o->model, "a | b | c: the cluster models of seed 003");
  o->fit_opt = cmd->add_option("--fit", o->fit,
                               "fit the model to measured (bytes, time) pairs in this file "
                               "(least squares)");
  o->ts_opt = cmd->add_option("--ts,--alpha", o->ts, "start-up time ts (model C: alpha)");
  o->tb_opt = cmd->add_option("--tb,--beta", o->tb,
                              "time per byte tb, or a bandwidth beta = 1/tb (2GBps, 10Gbps)");
  o->th_opt = cmd->add_option("--th", o->th, "per-hop header time th (ct; model A: per message)");
  o->tc_opt = cmd->add_option("--tc,--gamma", o->tc,
                              "reductions: time to add one byte into a local vector (1ns, or a "
                              "rate such as 4GBps); default 0, as seed 003");
  o->ts0_opt = cmd->add_option("--ts0", o->ts0, "model B: hardware latency");
  o->ts1_opt = cmd->add_option("--ts1", o->ts1, "model B: preparation time per byte");
  o->vmax_opt = cmd->add_option("--vmax", o->vmax, "model B: largest packet (default 1500 B)");
  o->vh_opt = cmd->add_option("--vh", o->vh, "model B: control data per packet (default 40 B)");
  o->bytes_opt = cmd->add_option("--bytes", o->bytes, "message size m: 1000, 4KiB, 1MB");
  cmd->add_flag("--json", o->json, "print one JSON object (see docs/COST.md)");
  cmd->add_flag("--list", o->list, "list every analytic formula with its source");
  cmd->callback([o] { run_estimate(*o); });
}

}  // namespace ccsched::cli
