// `ccsched simulate FILE --bandwidth B --latency T --bytes M [--hop-latency T] [--tc T]
// [--json]`: replays a schedule on SimGrid and prints each step's simulated time next to
// the linear model's figure (seed 001, eq. (1) with t0 = latency, t1 = 1/bandwidth; for a
// reduction schedule plus each step's adds, --tc per byte, which the replay runs as
// executions on the adding processors). Schedules that
// break the channel or port rule are replayed with a warning — what a conflict costs is
// what the replay shows; any other broken rule is an error. Without SimGrid in the build
// the command says so (exit 2). Past --max-transfers (20,000) the replay goes by class
// (simulate.hpp): a million transfers would take SimGrid far beyond minutes one by one.
// docs/SIMULATE.md.
#include <fmt/core.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/cost/units.hpp"
#include "commands.hpp"
#include "verified_schedule.hpp"
#if CCSCHED_HAVE_SIMGRID
#include "ccsched/simulate/simulate.hpp"
#endif

namespace ccsched::cli {
namespace {

struct SimulateOptions {
  std::string file;
  std::string bandwidth;
  std::string latency;
  std::string hop_latency = "0";
  std::string tc;
  std::string bytes;
  bool json = false;
  long long max_transfers = kDefaultMaxTransfers;
};

void run_simulate([[maybe_unused]] const SimulateOptions& o) {
#if CCSCHED_HAVE_SIMGRID
  SimulationParameters p;
  p.bandwidth = parse_bandwidth(o.bandwidth, "--bandwidth");
  p.latency = parse_time(o.latency, "--latency");
  p.hop_latency = parse_time(o.hop_latency, "--hop-latency");
  p.message_bytes = parse_bytes(o.bytes, "--bytes");
  if (!o.tc.empty()) p.add_time = parse_time_per_byte(o.tc, "--tc");
  if (o.max_transfers < 0) throw InvalidParameter("must be 0 (always) or more", "--max-transfers");
  p.full_replay_limit = o.max_transfers;
  // Rules 3 (channels) and 4 (ports) are resource conflicts the simulation can replay.
  const Schedule s = read_verified_schedule(o.file, {3, 4});
  const bool reduction = is_reduction(s.collective);
  if (!o.tc.empty()) refuse_add_time_without_reduction(s, o.file);
  const Simulation r = simulate_schedule(s, p);

  if (o.json) {
    nlohmann::ordered_json doc;
    doc["schedule"] = o.file;
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
      "schedule: {} ({} on {}, {} transfer{} in {} step{})\n", o.file, to_string(s.collective.kind),
      s.topology.name().empty() ? std::string("unnamed network") : s.topology.name(),
      s.transfers.size(), s.transfers.size() == 1 ? "" : "s", s.steps, s.steps == 1 ? "" : "s");
  fmt::print(
      "SimGrid replay: {:g} B/s per channel, start-up {} us per transfer{}, {} B per "
      "{}\n",
      p.bandwidth, format_us(p.latency),
      p.hop_latency > 0 ? fmt::format(", {} us per hop", format_us(p.hop_latency)) : "",
      p.message_bytes,
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
  cmd->add_option("file", options->file, "schedule document (ccsched-schedule/1 JSON)")->required();
  cmd->add_option("--bandwidth", options->bandwidth, "per channel: 2GBps, 10Gbps, 100MiB/s")
      ->required();
  cmd->add_option("--latency", options->latency, "start-up per transfer (t0): 1us, 500ns")
      ->required();
  cmd->add_option("--hop-latency", options->hop_latency, "per channel (default 0, as the seeds)");
  cmd->add_option("--bytes", options->bytes,
                  "bytes per message (a reduction: per input vector): 1024, 4KiB")
      ->required();
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
