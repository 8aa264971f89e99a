// `ccsched codegen mpi|msccl FILE -o OUT`: a schedule as something that runs.
//   mpi    a standalone C program using MPI (rank r = processor r) that performs the
//          schedule with real data and checks it; --build compiles it with mpicc, --run
//          also runs it with mpirun on P ranks and exits with its status;
//   msccl  the MSCCL algorithm XML of a broadcast, allgather, scatter, gather or alltoall,
//          or of an allreduce, reduce_scatter or reduce (docs/CODEGEN.md).
// The schedule must pass `verify`; past --max-transfers (20,000) an MPI program is written
// as a translation rule when the schedule has one (mpi.hpp), and anything else is refused
// before anything is written (size_limits.hpp). docs/CODEGEN.md.
#include <fmt/core.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "ccsched/codegen/mpi.hpp"
#include "ccsched/codegen/msccl.hpp"
#include "ccsched/codegen/toolchain.hpp"
#include "ccsched/core/error.hpp"
#include "ccsched/cost/size_range.hpp"
#include "ccsched/cost/units.hpp"
#include "commands.hpp"
#include "output.hpp"
#include "verified_schedule.hpp"

namespace ccsched::cli {
namespace {

struct MpiCliOptions {
  std::string file;
  std::string output;
  std::string bytes = "1024";
  bool barrier = false;
  bool build = false;
  bool run = false;
  std::string form = "auto";
  SizeLimits limits;
};

struct MscclCliOptions {
  std::string file;
  std::string output;
  std::string name;
  std::string protocol = "Simple";
  std::string min_bytes = "0";
  std::string max_bytes = "0";
  std::string t0, t1, th = "0", tc;  // a time model: the size range the schedule is best for
  SizeLimits limits;
};

// The extension guards against writing a program into the wrong file; stdout, a pipe or a
// device has none to check.
void require_extension(const std::string& path, const std::string& ext, const char* what) {
  if (written_through(path)) return;
  if (std::filesystem::path(path).extension().string() != ext)
    throw InvalidParameter(
        fmt::format("unknown output extension '{}' ({} are written to a {} file)",
                    std::filesystem::path(path).extension().string(), what, ext),
        path);
}

void run_mpi(const MpiCliOptions& o) {
  require_extension(o.output, ".c", "MPI programs");
  const std::int64_t bytes = parse_bytes(o.bytes, "--bytes");
  // The program holds every message it sends and receives in memory, as ints; 2^28 of
  // them (1 GiB) per message keeps the counts of MPI calls and the buffers within reach.
  constexpr std::int64_t kMaxBytes = std::int64_t{4} << 28;
  if (bytes < 4 || bytes % 4 != 0)
    throw InvalidParameter(fmt::format("'{}': messages are arrays of 4-byte ints; give a "
                                       "positive multiple of 4",
                                       o.bytes),
                           "--bytes");
  if (bytes > kMaxBytes)
    throw InvalidParameter(fmt::format("'{}' ({} bytes) is more than the largest message the "
                                       "program sends, 1 GiB (268435456 ints)",
                                       o.bytes, bytes),
                           "--bytes");
  if ((o.build || o.run) && written_through(o.output))
    throw InvalidParameter("--build and --run need a file to compile", "-o");
  check_output(o.output);
  MpiProgramOptions options;
  if (o.form == "tables")
    options.form = MpiProgramForm::tables;
  else if (o.form == "rule")
    options.form = MpiProgramForm::rule;
  else if (o.form != "auto")
    throw InvalidParameter(fmt::format("'{}': expected auto, tables or rule", o.form), "--form");
  // Past the limit only a translation rule keeps the program small (mpi.hpp); the rule is
  // looked for once (16.8 million transfers: half a minute), again only to explain a refusal.
  const Schedule s = read_verified_schedule(o.file);
  const auto over = over_limit(s, o.limits);
  const auto refuse = [&](std::string_view why) {
    return Unsupported(fmt::format("{} {}, more than the limit of {} for an MPI program of "
                                   "tables, and {} ({} N raises it, 0 lifts it)",
                                   over->count, over->noun, over->limit, why, over->option),
                       o.file);
  };
  if (over && options.form == MpiProgramForm::tables) throw refuse("--form tables asks for them");
  if (over) options.form = MpiProgramForm::rule;
  options.elements = static_cast<int>(bytes / 4);
  options.barrier = o.barrier;
  options.source = std::filesystem::path(o.file).filename().string();
  std::string program;
  try {
    program = generate_mpi_program(s, options);
  } catch (const Unsupported&) {
    if (!over || has_translation_rule(s)) throw;
    throw refuse(
        "no translation rule: the schedule is not the same from every processor of a torus, "
        "ring or hypercube");
  }
  write_output(o.output, program);
  if (!o.build && !o.run) return;
  const std::string executable = std::filesystem::path(o.output).replace_extension().string();
  compile_mpi_program(o.output, executable);
  if (!o.run) return;
  const ProcessResult r = run_mpi_program(executable, s.topology.processor_count());
  fmt::print("{}", r.output);
  if (r.status != 0) throw ExitStatus{1};
}

void run_msccl(const MscclCliOptions& o) {
  require_extension(o.output, ".xml", "MSCCL algorithms");
  MscclOptions options;
  options.name = o.name;
  options.protocol = o.protocol;
  options.min_bytes = parse_bytes(o.min_bytes, "--min-bytes");
  options.max_bytes = parse_bytes(o.max_bytes, "--max-bytes");
  const bool timed = !o.t0.empty() || !o.t1.empty();
  if (timed && (o.t0.empty() || o.t1.empty()))
    throw InvalidParameter("a time model needs both --t0 and --t1", o.t0.empty() ? "--t0" : "--t1");
  if (timed && (options.min_bytes != 0 || options.max_bytes != 0))
    throw InvalidParameter("give either --min-bytes/--max-bytes or a time model (--t0, --t1)",
                           "--min-bytes");
  LinearModel model;
  if (timed) {
    model.t0 = parse_time(o.t0, "--t0");
    model.t1 = parse_time_per_byte(o.t1, "--t1");
    model.th = parse_time(o.th, "--th");
    if (!o.tc.empty()) model.tc = parse_time_per_byte(o.tc, "--tc");
  }
  check_output(o.output);
  const Schedule s = read_verified_schedule(o.file, o.limits, "an MSCCL algorithm");
  if (timed) {
    // cost/size_range.hpp: the sizes where the schedule beats the ring algorithms.
    const SizeRange range = best_size_range(s, model);
    if (range.empty)
      throw Unsupported(fmt::format("under this time model the schedule is slower than {} at "
                                    "every size; without --t0/--t1 it is written for every size",
                                    range.baseline),
                        "codegen msccl");
    const std::int64_t k = msccl_size_multiplier(s);
    options.min_bytes = range.min_bytes * k;
    options.max_bytes = range.max_bytes ? *range.max_bytes * k : 0;
    const auto span = [](std::int64_t lo, std::optional<std::int64_t> hi) {
      return hi ? fmt::format("{}..{} B", lo, *hi) : fmt::format("{} B and up", lo);
    };
    options.size_note = fmt::format(
        "Sizes: {} of the whole buffer ({} per {}), where the schedule is faster than {} "
        "under t0 = {} us, t1 = {:.6g} us/B.",
        span(options.min_bytes, range.max_bytes ? std::optional(options.max_bytes) : std::nullopt),
        span(range.min_bytes, range.max_bytes),
        is_reduction(s.collective) || s.collective.blocks > 1 ? "input vector" : "message",
        range.baseline,
        format_us(model.t0), model.t1 * 1e6);
  }
  write_output(o.output, generate_msccl_xml(s, options));
}

}  // namespace

void add_codegen_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("codegen",
                                 "turn a schedule into a program: mpi (C + MPI) or "
                                 "msccl (MSCCL algorithm XML)");
  cmd->require_subcommand(1);

  auto mpi = std::make_shared<MpiCliOptions>();
  auto* m = cmd->add_subcommand("mpi",
                                "standalone C/MPI program performing the schedule with "
                                "real data and checking every rank's result");
  m->add_option("file", mpi->file, "schedule document (ccsched-schedule/1 JSON)")->required();
  add_output_option(m, mpi->output, "prog.c (or - for stdout)")->required();
  m->add_option("--bytes", mpi->bytes, "bytes per message (a multiple of 4)")
      ->capture_default_str();
  m->add_flag("--barrier", mpi->barrier, "MPI_Barrier after every step (default of the program)");
  m->add_flag("--build", mpi->build, "compile it with mpicc (executable: OUTPUT without .c)");
  m->add_flag("--run", mpi->run,
              "compile it and run it with mpirun on P ranks; exit 1 if a rank "
              "reports wrong data");
  m->add_option("--form", mpi->form,
                "auto (a translation rule past 20,000 transfers when the schedule has one, "
                "else tables) | tables (every transfer) | rule (each rank derives its "
                "transfers; docs/CODEGEN.md)")
      ->capture_default_str();
  add_size_options(m, mpi->limits);
  m->callback([mpi] { run_mpi(*mpi); });

  auto msccl = std::make_shared<MscclCliOptions>();
  auto* x = cmd->add_subcommand("msccl",
                                "MSCCL algorithm XML (broadcast OAB, allgather AAB, "
                                "scatter OAS, gather AOG, alltoall AAS; the reductions "
                                "allreduce ALLREDUCE, reduce_scatter REDUCESCATTER and reduce "
                                "REDUCE over every processor; not SCAN)");
  x->add_option("file", msccl->file, "schedule document (ccsched-schedule/1 JSON)")->required();
  add_output_option(x, msccl->output, "algo.xml (or - for stdout)")->required();
  x->add_option("--name", msccl->name, "algorithm name (default ccsched_<kind>_<network>)");
  x->add_option("--protocol", msccl->protocol, "Simple | LL | LL128")->capture_default_str();
  x->add_option("--min-bytes", msccl->min_bytes, "smallest size the runtime should use it for")
      ->capture_default_str();
  x->add_option("--max-bytes", msccl->max_bytes, "largest size (0: no limit)")
      ->capture_default_str();
  x->add_option("--t0", msccl->t0,
                "with --t1, a time model: minBytes/maxBytes become the sizes where the schedule "
                "beats the ring algorithms (docs/CODEGEN.md)");
  x->add_option("--t1", msccl->t1, "time per byte or bandwidth of the time model");
  x->add_option("--th", msccl->th, "per-hop delay of the time model (default 0)");
  x->add_option("--tc", msccl->tc, "reductions: time to add a byte (default 0)");
  add_size_options(x, msccl->limits);
  x->callback([msccl] { run_msccl(*msccl); });
}

}  // namespace ccsched::cli
