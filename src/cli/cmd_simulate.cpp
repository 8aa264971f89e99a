// `ccsched simulate FILE --bandwidth B --latency T --bytes M [--hop-latency T] [--json]`:
// replays a schedule on SimGrid and prints each step's simulated time next to the linear
// model's figure (seed 001, eq. (1) with t0 = latency, t1 = 1/bandwidth). Schedules that
// break the channel or port rule are replayed with a warning — what a conflict costs is
// what the replay shows; any other broken rule is an error. Without SimGrid in the build
// the command says so (exit 2). docs/SIMULATE.md.
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
  std::string bytes;
  bool json = false;
};

void run_simulate([[maybe_unused]] const SimulateOptions& o) {
#if CCSCHED_HAVE_SIMGRID
  SimulationParameters p;
  p.bandwidth = parse_bandwidth(o.bandwidth, "--bandwidth");
  p.latency = parse_time(o.latency, "--latency");
  p.hop_latency = parse_time(o.hop_latency, "--hop-latency");
  p.message_bytes = parse_bytes(o.bytes, "--bytes");
  // Rules 3 (channels) and 4 (ports) are resource conflicts the simulation can replay.
  const Schedule s = read_verified_schedule(o.file, {3, 4});
  const Simulation r = simulate_schedule(s, p);

  if (o.json) {
    nlohmann::ordered_json doc;
    doc["schedule"] = o.file;
    doc["bandwidth_bytes_per_second"] = p.bandwidth;
    doc["latency_seconds"] = p.latency;
    doc["hop_latency_seconds"] = p.hop_latency;
    doc["bytes"] = p.message_bytes;
    doc["steps"] = s.steps;
    doc["step_seconds"] = nlohmann::ordered_json::array();
    doc["model_step_seconds"] = nlohmann::ordered_json::array();
    for (const SimulatedStep& st : r.steps) {
      doc["step_seconds"].push_back(st.seconds);
      doc["model_step_seconds"].push_back(st.model_seconds);
    }
    doc["total_seconds"] = r.total_seconds;
    doc["model_seconds"] = r.model_seconds;
    doc["slowdown"] = r.model_seconds > 0 ? r.total_seconds / r.model_seconds : 1.0;
    fmt::print("{}\n", doc.dump(2));
    return;
  }
  fmt::print(
      "schedule: {} ({} on {}, {} transfer{} in {} step{})\n", o.file, to_string(s.collective.kind),
      s.topology.name().empty() ? std::string("unnamed network") : s.topology.name(),
      s.transfers.size(), s.transfers.size() == 1 ? "" : "s", s.steps, s.steps == 1 ? "" : "s");
  fmt::print(
      "SimGrid replay: {:g} B/s per channel, start-up {} us per transfer{}, {} B per "
      "message\n",
      p.bandwidth, format_us(p.latency),
      p.hop_latency > 0 ? fmt::format(", {} us per hop", format_us(p.hop_latency)) : "",
      p.message_bytes);
  fmt::print("{:>6}  {:>9}  {:>15}  {:>15}  {:>8}\n", "step", "transfers", "simulated (us)",
             "model (us)", "ratio");
  for (const SimulatedStep& st : r.steps)
    fmt::print("{:>6}  {:>9}  {:>15}  {:>15}  {:>8.3f}\n", st.step, st.transfers,
               format_us(st.seconds), format_us(st.model_seconds),
               st.model_seconds > 0 ? st.seconds / st.model_seconds : 1.0);
  fmt::print("{:>6}  {:>9}  {:>15}  {:>15}  {:>8.3f}\n", "total", "", format_us(r.total_seconds),
             format_us(r.model_seconds),
             r.model_seconds > 0 ? r.total_seconds / r.model_seconds : 1.0);
  fmt::print("model: linear, seed 001 eq. (1), t0 = latency, t1 = 1/bandwidth{}\n",
             p.hop_latency > 0 ? ", plus hop latency per hop" : "");
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
  cmd->add_option("--bytes", options->bytes, "bytes per message: 1024, 4KiB")->required();
  cmd->add_flag("--json", options->json,
                "print {\"step_seconds\": [...], \"total_seconds\": ..., \"model_seconds\": ...}");
  cmd->callback([options] { run_simulate(*options); });
}

}  // namespace ccsched::cli
