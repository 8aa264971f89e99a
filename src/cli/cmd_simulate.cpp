// `ccsched simulate FILE --bandwidth B --latency T --bytes M [--hop-latency T] [--tc T]
// [--json]`: replays a schedule on SimGrid and prints each step's simulated time next to
// the linear model's figure (seed 001, eq. (1) with t0 = latency, t1 = 1/bandwidth; for a
// reduction schedule plus each step's adds, --tc per byte, which the replay runs as
// executions on the adding processors). Schedules that
// break the channel or port rule are replayed with a warning — what a conflict costs is
// what the replay shows; any other broken rule is an error. Without SimGrid in the build
// the command says so (exit 2). Past --max-transfers (20,000) the replay goes by class
// (simulate.hpp): a million transfers would take SimGrid far beyond minutes one by one.
// Several schedules side by side: `simulate A.json B.json --bytes M` prints one row each,
// `--crossover [--from F] [--to T]` each one's replay at every size from F to T, doubling,
// as `cost --crossover` prints the model's (docs/SIMULATE.md, "Several schedules").
// docs/SIMULATE.md.
#include <fmt/core.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/crossover.hpp"
#include "ccsched/cost/units.hpp"
#include "commands.hpp"
#include "compared.hpp"
#include "verified_schedule.hpp"
#if CCSCHED_HAVE_SIMGRID
#include "ccsched/simulate/simulate.hpp"
#endif

namespace ccsched::cli {
namespace {

struct SimulateOptions : ComparedOptions {
  std::string bandwidth;
  std::string latency;
  std::string hop_latency = "0";
  long long max_transfers = kDefaultMaxTransfers;
};

#if CCSCHED_HAVE_SIMGRID
std::string replay_line(const SimulationParameters& p) {
  return fmt::format("SimGrid replay: {:g} B/s per channel, start-up {} us per transfer{}",
                     p.bandwidth, format_us(p.latency),
                     p.hop_latency > 0 ? fmt::format(", {} us per hop", format_us(p.hop_latency))
                                       : "");
}

// Several schedules of one collective on one network (checked as `cost --crossover`
// checks them), each replayed at every size from `from` to `to`, doubling: a vector of M
// bytes padded to whole blocks as there, a size below a reduction's block count left out
// (null, "-").
void run_side_by_side(const SimulateOptions& o, SimulationParameters p, std::int64_t from,
                      std::int64_t to) {
  const std::vector<Schedule> schedules = read_compared_schedules(o, {3, 4});
  LinearModel model{.t0 = p.latency, .t1 = 1.0 / p.bandwidth, .th = p.hop_latency, .tc = p.add_time};
  std::vector<std::int64_t> sizes;  // crossover_table checks the schedules and the range
  for (const CrossoverRow& r : crossover_table(schedules, model, from, to).sizes)
    sizes.push_back(r.bytes);
  struct Cell {
    std::optional<Simulation> replay;
  };
  std::vector<std::vector<Cell>> cells(sizes.size(), std::vector<Cell>(schedules.size()));
  double worst = 1.0;
  for (std::size_t i = 0; i < sizes.size(); ++i)
    for (std::size_t k = 0; k < schedules.size(); ++k) {
      const Schedule& s = schedules[k];
      const std::int64_t b = is_reduction(s.collective) ? s.collective.blocks : 1;
      if (sizes[i] < b) continue;
      p.message_bytes = (sizes[i] + b - 1) / b * b;
      cells[i][k].replay = simulate_schedule(s, p);
      const Simulation& r = *cells[i][k].replay;
      if (r.model_seconds > 0) worst = std::max(worst, r.total_seconds / r.model_seconds);
    }
  const auto best_of = [&](std::size_t i) {
    int best = -1;
    for (std::size_t k = 0; k < schedules.size(); ++k)
      if (cells[i][k].replay && (best < 0 || cells[i][k].replay->total_seconds <
                                                 cells[i][best].replay->total_seconds))
        best = static_cast<int>(k);
    return best;
  };
  if (o.json) {
    nlohmann::ordered_json doc;
    doc["bandwidth_bytes_per_second"] = p.bandwidth;
    doc["latency_seconds"] = p.latency;
    doc["hop_latency_seconds"] = p.hop_latency;
    doc["add_seconds_per_byte"] = p.add_time;
    doc["schedules"] = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < schedules.size(); ++k)
      doc["schedules"].push_back({{"file", o.files[k]},
                                  {"blocks", schedules[k].collective.blocks},
                                  {"steps", schedules[k].steps},
                                  {"engine", schedule_engine(schedules[k])}});
    doc["sizes"] = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      nlohmann::ordered_json sim = nlohmann::ordered_json::array(), mod = sim;
      for (const Cell& c : cells[i]) {
        sim.push_back(c.replay ? nlohmann::ordered_json(c.replay->total_seconds) : nullptr);
        mod.push_back(c.replay ? nlohmann::ordered_json(c.replay->model_seconds) : nullptr);
      }
      doc["sizes"].push_back(
          {{"bytes", sizes[i]}, {"seconds", sim}, {"model_seconds", mod}, {"best", best_of(i)}});
    }
    doc["slowdown"] = worst;
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  const Schedule& first = schedules.front();
  fmt::print("{} on {}, {}{}\n", to_string(first.collective.kind), first.topology.name(),
             replay_line(p),
             o.tc.empty() ? "" : fmt::format(", adds at {:.6g} us/B", p.add_time * 1e6));
  fmt::print("{:>4}  {:>6}  {:>6}  {:<28}  {}\n", "", "blocks", "steps", "engine", "file");
  for (std::size_t k = 0; k < schedules.size(); ++k)
    fmt::print("{:>4}  {:>6}  {:>6}  {:<28}  {}\n", schedule_letter(k),
               schedules[k].collective.blocks, schedules[k].steps, schedule_engine(schedules[k]),
               o.files[k]);
  fmt::print("\n{:>10}", "size");
  for (std::size_t k = 0; k < schedules.size(); ++k)
    fmt::print("  {:>14}", schedule_letter(k) + " (us)");
  fmt::print("  {:>7}\n", "fastest");
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    fmt::print("{:>10}", format_bytes(sizes[i]));
    for (const Cell& c : cells[i])
      fmt::print("  {:>14}", c.replay ? format_us(c.replay->total_seconds) : std::string("-"));
    const int best = best_of(i);
    fmt::print("  {:>7}\n", best < 0 ? std::string("-") : schedule_letter(static_cast<std::size_t>(best)));
  }
  fmt::print("simulated / model: at most {:.3f} (1.000: every replay took the linear model's time)\n",
             worst);
}
#endif

void run_simulate([[maybe_unused]] const SimulateOptions& o) {
#if CCSCHED_HAVE_SIMGRID
  SimulationParameters p;
  p.bandwidth = parse_bandwidth(o.bandwidth, "--bandwidth");
  p.latency = parse_time(o.latency, "--latency");
  p.hop_latency = parse_time(o.hop_latency, "--hop-latency");
  if (!o.tc.empty()) p.add_time = parse_time_per_byte(o.tc, "--tc");
  if (o.max_transfers < 0) throw InvalidParameter("must be 0 (always) or more", "--max-transfers");
  p.full_replay_limit = o.max_transfers;
  if (o.crossover) {
    if (!o.bytes.empty())
      throw InvalidParameter("--crossover covers the sizes --from .. --to; leave out --bytes",
                             "--bytes");
    run_side_by_side(o, p, parse_bytes(o.from, "--from"), parse_bytes(o.to, "--to"));
    return;
  }
  if (o.bytes.empty()) throw InvalidParameter("--bytes M is required (or --crossover)", "--bytes");
  p.message_bytes = parse_bytes(o.bytes, "--bytes");
  if (o.files.size() > 1) {
    run_side_by_side(o, p, p.message_bytes, p.message_bytes);
    return;
  }
  const std::string& file = o.files.front();
  // Rules 3 (channels) and 4 (ports) are resource conflicts the simulation can replay.
  const Schedule s = read_verified_schedule(file, {3, 4});
  const bool reduction = is_reduction(s.collective);
  if (!o.tc.empty()) refuse_add_time_without_reduction(s, file);
  const Simulation r = simulate_schedule(s, p);

  if (o.json) {
    nlohmann::ordered_json doc;
    doc["schedule"] = file;
    doc["bandwidth_bytes_per_second"] = p.bandwidth;
    doc["latency_seconds"] = p.latency;
    doc["hop_latency_seconds"] = p.hop_latency;
    doc["bytes"] = p.message_bytes;
    if (reduction) {
      doc["blocks"] = s.collective.blocks;
      doc["add_seconds_per_byte"] = p.add_time;
    }
    doc["steps"] = s.steps;
    doc["step_seconds"] = nlohmann::ordered_json::array();
    doc["model_step_seconds"] = nlohmann::ordered_json::array();
    if (reduction) doc["step_compute_seconds"] = nlohmann::ordered_json::array();
    for (const SimulatedStep& st : r.steps) {
      doc["step_seconds"].push_back(st.seconds);
      doc["model_step_seconds"].push_back(st.model_seconds);
      if (reduction) doc["step_compute_seconds"].push_back(st.compute_seconds);
    }
    doc["total_seconds"] = r.total_seconds;
    doc["model_seconds"] = r.model_seconds;
    doc["slowdown"] = r.model_seconds > 0 ? r.total_seconds / r.model_seconds : 1.0;
    if (r.by_class) doc["replayed_by_class"] = r.replayed_runs;
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  fmt::print(
      "schedule: {} ({} on {}, {} transfer{} in {} step{})\n", file, to_string(s.collective.kind),
      s.topology.name().empty() ? std::string("unnamed network") : s.topology.name(),
      s.transfers.size(), s.transfers.size() == 1 ? "" : "s", s.steps, s.steps == 1 ? "" : "s");
  fmt::print(
      "{}, {} B per {}\n", replay_line(p), p.message_bytes,
      reduction ? fmt::format("input vector ({} block{}), adds at {:.6g} us/B", s.collective.blocks,
                              s.collective.blocks == 1 ? "" : "s", p.add_time * 1e6)
                : "message");
  if (r.by_class)
    fmt::print(
        "replayed by class: {} transfers, more than --max-transfers {}: {} SimGrid "
        "run{} (each distinct flow and add of the steps without a shared channel once, "
        "every step with one whole; docs/SIMULATE.md)\n",
        s.transfers.size(), o.max_transfers, r.replayed_runs, r.replayed_runs == 1 ? "" : "s");
  // A reduction's rows also show how much of each simulated step its adds took.
  const auto row = [&](const auto& step, const std::string& transfers, double seconds, double adds,
                       double model) {
    fmt::print("{:>6}  {:>9}  {:>15}  {}{:>15}  {:>8.3f}\n", step, transfers, format_us(seconds),
               reduction ? fmt::format("{:>12}  ", format_us(adds)) : "", format_us(model),
               model > 0 ? seconds / model : 1.0);
  };
  fmt::print("{:>6}  {:>9}  {:>15}  {}{:>15}  {:>8}\n", "step", "transfers", "simulated (us)",
             reduction ? fmt::format("{:>12}  ", "adds (us)") : "", "model (us)", "ratio");
  double adds = 0.0;
  for (const SimulatedStep& st : r.steps) {
    row(st.step, std::to_string(st.transfers), st.seconds, st.compute_seconds, st.model_seconds);
    adds += st.compute_seconds;
  }
  row("total", "", r.total_seconds, adds, r.model_seconds);
  fmt::print("model: linear, seed 001 eq. (1), t0 = latency, t1 = 1/bandwidth{}{}\n",
             p.hop_latency > 0 ? ", plus hop latency per hop" : "",
             reduction ? ", plus each step's adds (most bytes one processor adds, times tc)" : "");
#else
  throw Unsupported(
      "this ccsched was built without SimGrid (install libsimgrid-dev and "
      "rebuild)",
      "simulate");
#endif
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  auto* cmd =
      app.add_subcommand("simulate",
                         "replay a schedule on SimGrid: simulated time per step next to the linear "
                         "model's (conflicting schedules are replayed with a warning)");
  cmd->add_option("files", options->files,
                  "schedule document (ccsched-schedule/1 JSON); several: side by side, one row "
                  "each (one collective on one network)")
      ->required();
  cmd->add_option("--bandwidth", options->bandwidth, "per channel: 2GBps, 10Gbps, 100MiB/s")
      ->required();
  cmd->add_option("--latency", options->latency, "start-up per transfer (t0): 1us, 500ns")
      ->required();
  cmd->add_option("--hop-latency", options->hop_latency, "per channel (default 0, as the seeds)");
  cmd->add_option("--bytes", options->bytes,
                  "bytes per message (a reduction: per input vector): 1024, 4KiB (required "
                  "without --crossover)");
  add_crossover_options(*cmd, *options,
                        "replay the schedules at every size from --from to --to, doubling, side "
                        "by side (as cost --crossover does with the model)");
  cmd->add_option("--tc,--gamma", options->tc,
                  "reduction schedules: time to add one byte (1ns, or a rate such as 4GBps); "
                  "default 0");
  cmd->add_flag("--json", options->json,
                "print {\"step_seconds\": [...], \"total_seconds\": ..., \"model_seconds\": ...}");
  cmd->add_option("--max-transfers", options->max_transfers,
                  "past this many transfers replay by class: the flows of steps without a "
                  "shared channel once per distinct size and hop count (0: replay every "
                  "transfer)")
      ->capture_default_str();
  cmd->callback([options] { run_simulate(*options); });
}

}  // namespace ccsched::cli
