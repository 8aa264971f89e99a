// `ccsched cost FILE --t0 TIME --t1 TIME_PER_BYTE --bytes M [--th TIME] [--tc TIME] [--json]`:
// the time of a schedule under the seeds' linear model, t_CC = sum_i (t0 + m_i*t1) (seed
// 001, eq. (1); seed 000, eq. (4)), step by step and in total, in microseconds. Every
// message is M bytes; a combined transfer of c messages carries c*M bytes. For a reduction
// schedule M is the input vector, split into the collective's blocks, and each step adds
// the time of its adds (--tc per byte; linear.hpp). The schedule is verified first: an
// invalid one has no meaningful time (exit 2, naming the first broken rule).
// docs/COST.md describes the units and the JSON. With --crossover, several schedules side by
// side at every message size; --plot FILE.svg draws them (render/size_plot.hpp).
#include <fmt/core.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"
#include "ccsched/cost/crossover.hpp"
#include "ccsched/cost/linear.hpp"
#include "ccsched/cost/units.hpp"
#include "ccsched/render/size_plot.hpp"
#include "commands.hpp"
#include "compared.hpp"
#include "output.hpp"
#include "verified_schedule.hpp"

namespace ccsched::cli {
namespace {

struct CostOptions : ComparedOptions {
  std::string t0;
  std::string t1;
  std::string th = "0";
  std::string plot;
};

// The legend's name of schedule k: its letter in the table, its engine (the algorithm),
// its block count and its file.
std::string plot_name(const std::string& letter, const Schedule& s, const std::string& engine,
                      const std::string& file) {
  const std::string blocks =
      is_reduction(s.collective) ? ", " + plural(s.collective.blocks, "block") : "";
  return fmt::format("{}  {}{}, {} ({})", letter, engine, blocks, plural(s.steps, "step"), file);
}

// --crossover: several schedules of one collective on one network side by side, message
// size by message size (docs/COST.md, "Crossover table").
void run_crossover(const CostOptions& o, const LinearModel& model) {
  const std::int64_t from = parse_bytes(o.from, "--from");
  const std::int64_t to = parse_bytes(o.to, "--to");
  if (!o.plot.empty()) {
    if (!o.plot.ends_with(".svg"))
      throw InvalidParameter(fmt::format("'{}': the plot is an SVG file (FILE.svg)", o.plot),
                             "--plot");
    check_output(o.plot);
  }
  const std::vector<Schedule> schedules = read_compared_schedules(o);
  const Crossover x = crossover_table(schedules, model, from, to);
  const auto engine = schedule_engine;
  const auto label = schedule_letter;
  const Schedule& first = schedules.front();
  const std::string parameters = fmt::format(
      "linear model t0 = {} us, t1 = {:.6g} us/B{}{}", format_us(model.t0), model.t1 * 1e6,
      model.th > 0 ? fmt::format(", th = {} us", format_us(model.th)) : "",
      model.tc > 0 ? fmt::format(", tc = {:.6g} us/B", model.tc * 1e6) : "");
  if (!o.plot.empty()) {
    SizePlot plot{.title = fmt::format("{} on {}: time by message size",
                                       to_string(first.collective.kind), first.topology.name()),
                  .subtitle = parameters,
                  .series = {}};
    for (std::size_t k = 0; k < schedules.size(); ++k) {
      SizeSeries line{.name = plot_name(label(k), schedules[k], engine(schedules[k]), o.files[k]),
                      .points = {}};
      for (const CrossoverRow& r : x.sizes)
        if (r.seconds[k]) line.points.push_back({r.bytes, *r.seconds[k]});
      plot.series.push_back(std::move(line));
    }
    write_output(o.plot, render_size_plot_svg(plot));
  }
  if (o.json) {
    nlohmann::ordered_json doc;
    doc["model"] = "linear";
    doc["t0_us"] = model.t0 * 1e6;
    doc["t1_us_per_byte"] = model.t1 * 1e6;
    doc["th_us"] = model.th * 1e6;
    doc["tc_us_per_byte"] = model.tc * 1e6;
    doc["schedules"] = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < schedules.size(); ++k)
      doc["schedules"].push_back({{"file", o.files[k]},
                                  {"blocks", schedules[k].collective.blocks},
                                  {"steps", schedules[k].steps},
                                  {"engine", engine(schedules[k])}});
    doc["sizes"] = nlohmann::ordered_json::array();
    for (const CrossoverRow& r : x.sizes) {
      nlohmann::ordered_json us = nlohmann::ordered_json::array();
      for (const auto& t : r.seconds) us.push_back(t ? nlohmann::ordered_json(rounded_us(*t)) : nullptr);
      doc["sizes"].push_back({{"bytes", r.bytes}, {"us", us}, {"best", r.best}});
    }
    doc["ranges"] = nlohmann::ordered_json::array();
    for (const CrossoverRange& r : x.ranges)
      doc["ranges"].push_back({{"from", r.from}, {"to", r.to}, {"best", r.best}});
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  fmt::print("crossover: {} on {}, {}\n", to_string(first.collective.kind), first.topology.name(),
             parameters);
  fmt::print("{:>4}  {:>6}  {:>6}  {:<28}  {}\n", "", "blocks", "steps", "engine", "file");
  for (std::size_t k = 0; k < schedules.size(); ++k)
    fmt::print("{:>4}  {:>6}  {:>6}  {:<28}  {}\n", label(k), schedules[k].collective.blocks,
               schedules[k].steps, engine(schedules[k]), o.files[k]);
  fmt::print("\n{:<24}  {}\n", "message size", "fastest");
  for (const CrossoverRange& r : x.ranges)
    fmt::print("{:<24}  {}\n",
               r.from == r.to ? format_bytes(r.from)
                              : format_bytes(r.from) + " .. " + format_bytes(r.to),
               r.best < 0 ? std::string("-") : label(static_cast<std::size_t>(r.best)));
  fmt::print("\n{:>10}", "size");
  for (std::size_t k = 0; k < schedules.size(); ++k) fmt::print("  {:>14}", label(k) + " (us)");
  fmt::print("\n");
  for (const CrossoverRow& r : x.sizes) {
    fmt::print("{:>10}", format_bytes(r.bytes));
    for (const auto& t : r.seconds) fmt::print("  {:>14}", t ? format_us(*t) : std::string("-"));
    fmt::print("\n");
  }
}

void run_cost(const CostOptions& o) {
  // Parse every option before reading the file, so a typo is reported as such.
  LinearModel model;
  model.t0 = parse_time(o.t0, "--t0");
  model.t1 = parse_time_per_byte(o.t1, "--t1");
  model.th = parse_time(o.th, "--th");
  if (!o.tc.empty()) model.tc = parse_time_per_byte(o.tc, "--tc");
  if (o.crossover) {
    if (!o.bytes.empty())
      throw InvalidParameter("--crossover covers the sizes --from .. --to; leave out --bytes",
                             "--bytes");
    run_crossover(o, model);
    return;
  }
  if (!o.plot.empty())
    throw InvalidParameter("the plot draws the --crossover comparison; add --crossover", "--plot");
  if (o.files.size() != 1)
    throw InvalidParameter("several schedules are compared with --crossover", "schedule files");
  if (o.bytes.empty()) throw InvalidParameter("--bytes M is required (or --crossover)", "--bytes");
  const std::int64_t bytes = parse_bytes(o.bytes, "--bytes");
  const std::string& file = o.files.front();

  const Schedule s = read_verified_schedule(file);
  const bool reduction = is_reduction(s.collective);
  if (!o.tc.empty()) refuse_add_time_without_reduction(s, file);
  const ScheduleCost cost = linear_cost(s, model, bytes);

  if (o.json) {
    nlohmann::ordered_json doc;
    doc["schedule"] = file;
    doc["model"] = "linear";
    doc["t0_us"] = model.t0 * 1e6;
    doc["t1_us_per_byte"] = model.t1 * 1e6;
    doc["th_us"] = model.th * 1e6;
    doc["bytes"] = bytes;
    doc["combining"] = s.model.combining;
    if (reduction) {
      doc["tc_us_per_byte"] = model.tc * 1e6;
      doc["blocks"] = s.collective.blocks;
      doc["block_bytes"] = bytes / s.collective.blocks;
    }
    doc["steps"] = s.steps;
    doc["step_us"] = nlohmann::ordered_json::array();
    doc["step_bytes"] = nlohmann::ordered_json::array();
    if (reduction) {
      doc["step_added_bytes"] = nlohmann::ordered_json::array();
      doc["step_compute_us"] = nlohmann::ordered_json::array();
    }
    for (const StepCost& c : cost.steps) {
      doc["step_us"].push_back(rounded_us(c.seconds));
      doc["step_bytes"].push_back(c.bytes);
      if (reduction) {
        doc["step_added_bytes"].push_back(c.added_bytes);
        doc["step_compute_us"].push_back(rounded_us(c.compute_seconds));
      }
    }
    doc["total_us"] = rounded_us(cost.total_seconds);
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  fmt::print(
      "schedule: {} ({} on {}, {} transfer{} in {} step{})\n", file, to_string(s.collective.kind),
      s.topology.name().empty() ? std::string("unnamed network") : s.topology.name(),
      s.transfers.size(), s.transfers.size() == 1 ? "" : "s", s.steps, s.steps == 1 ? "" : "s");
  fmt::print("linear model, seed 001 eq. (1): t = sum over steps of (t0 + m_i*t1{}{})\n",
             model.th > 0 ? " + hops_i*th" : "", reduction ? " + a_i*tc" : "");
  const std::string th_text = model.th > 0 ? fmt::format("th = {} us, ", format_us(model.th)) : "";
  if (reduction) {
    fmt::print("  t0 = {} us, t1 = {:.6g} us/B, {}tc = {:.6g} us/B added{}\n",
               format_us(model.t0), model.t1 * 1e6, th_text, model.tc * 1e6,
               o.tc.empty() ? " (no --tc: adds neglected)" : "");
    fmt::print("  m = {} B per input vector, {} block{} of {} B; a_i = most bytes one processor "
               "adds in step i\n",
               bytes, s.collective.blocks, s.collective.blocks == 1 ? "" : "s",
               bytes / s.collective.blocks);
    fmt::print("{:>6}  {:>9}  {:>12}  {:>12}  {:>14}\n", "step", "transfers", "longest (B)",
               "added (B)", "time (us)");
    for (const StepCost& c : cost.steps)
      fmt::print("{:>6}  {:>9}  {:>12}  {:>12}  {:>14}\n", c.step, c.transfers, c.bytes,
                 c.added_bytes, format_us(c.seconds));
    fmt::print("{:>6}  {:>9}  {:>12}  {:>12}  {:>14}\n", "total", "", "", "",
               format_us(cost.total_seconds));
    return;
  }
  // An all-gather of B blocks: --bytes is each processor's vector, M/B per message.
  const int blocks = s.collective.kind == CollectiveKind::AAB ? s.collective.blocks : 1;
  const std::string per_message =
      blocks > 1 ? fmt::format("{} B per processor's vector in {} blocks, {} B per message",
                               bytes, blocks, bytes / blocks)
                 : fmt::format("{} B per message", bytes);
  fmt::print("  t0 = {} us, t1 = {:.6g} us/B, {}m = {}{}\n", format_us(model.t0),
             model.t1 * 1e6, th_text, per_message,
             s.model.combining ? " (combined transfers carry the sum)" : "");
  fmt::print("{:>6}  {:>9}  {:>12}  {:>14}\n", "step", "transfers", "longest (B)", "time (us)");
  for (const StepCost& c : cost.steps)
    fmt::print("{:>6}  {:>9}  {:>12}  {:>14}\n", c.step, c.transfers, c.bytes,
               format_us(c.seconds));
  fmt::print("{:>6}  {:>9}  {:>12}  {:>14}\n", "total", "", "", format_us(cost.total_seconds));
}

}  // namespace

void add_cost_command(CLI::App& app) {
  auto options = std::make_shared<CostOptions>();
  auto* cmd =
      app.add_subcommand("cost",
                         "time of a schedule under the seeds' linear model: sum over steps of "
                         "t0 + m_i*t1 (seed 001 eq. (1), seed 000 eq. (4)), in microseconds");
  cmd->add_option("files", options->files,
                  "schedule document (ccsched-schedule/1 JSON); several with --crossover")
      ->required();
  cmd->add_option("--t0", options->t0, "start-up time per step: 1us, 0.5 us, 2ms, 3e-6s")
      ->required();
  cmd->add_option("--t1", options->t1,
                  "time per byte (0.5ns, 0.5ns/B) or a bandwidth (2GBps, 10Gbps, 100MiB/s)")
      ->required();
  cmd->add_option("--bytes", options->bytes,
                  "bytes per message (a reduction: per input vector, split into its blocks): "
                  "1024, 4KiB, 1MB (required without --crossover)");
  cmd->add_option("--th", options->th,
                  "per-hop router delay, added per hop of a step's slowest path (default 0: "
                  "neglected, as in the seeds)");
  cmd->add_option("--tc,--gamma", options->tc,
                  "reduction schedules: time to add one byte into an accumulator (1ns, or a "
                  "rate such as 4GBps); default 0");
  add_crossover_options(*cmd, *options,
                        "compare the schedules (one collective on one network) at every size "
                        "from --from to --to, doubling: the fastest by size range, and each "
                        "one's time");
  cmd->add_option("--plot", options->plot,
                  "--crossover: also draw the times against the message size, log-log, as an "
                  "SVG file (one line per schedule)");
  cmd->add_flag("--json", options->json,
                "print {\"step_us\": [...], \"total_us\": ..., and the inputs}");
  cmd->callback([options] { run_cost(*options); });
}

}  // namespace ccsched::cli
