// MPI program generation: a schedule becomes a standalone C program that performs it with
// real data and checks the result — the seeds' point that a schedule is meant to be
// loaded into a communication library, made real.
//
//   std::string c = generate_mpi_program(schedule);          // write it to prog.c
//   compile_mpi_program("prog.c", "prog");                   // mpicc (toolchain.hpp)
//   ProcessResult r = run_mpi_program("prog", 12);           // mpirun -np 12
//
// The program:
//   - rank r is the r-th processor in id order (processor r for direct networks, whose
//     processors are 0..P-1; switches have no rank); it must run on exactly P ranks;
//   - every message is a block of `elements` ints with contents that depend on the
//     message id, held first by the message's origin (a broadcast's one buffer, a scatter's
//     distinct block per target);
//   - every step is one round: MPI_Irecv for the transfers this rank receives, MPI_Isend
//     for those it sends (a transfer carrying several messages under combining packs them
//     into one send), MPI_Waitall, and MPI_Barrier when built with -DCCSCHED_BARRIER=1;
//     a rank forwards only what it holds — it received it in an earlier step, as in the
//     broadcast trees of seed 000 Table 4 — and reports an error otherwise;
//   - the MPI library routes each transfer; the path a schedule gives it through the
//     network is not enforced (MPI has no such control);
//   - at the end every rank checks that it holds every message the collective must deliver
//     to it, with the right contents, prints one line ("rank 3 (10): ok, 11 of 11 messages
//     correct"), and rank 0 prints a summary line; the exit status is 0 when every rank is
//     correct, 1 otherwise.
//
// For a reduction (REDUCE, ALLREDUCE, REDUCESCATTER, SCAN; FORMATS.md "Reductions") the
// program keeps one accumulator per block on every rank instead of messages:
//   - a sender's accumulators start as its input, int64 values that depend on rank, block
//     and position (a hash of the rank, so that a lost and a doubled input cannot cancel
//     out); everyone else's start empty; the vector of `elements` 4-byte ints is split
//     into the schedule's blocks (elements / 2 / blocks int64 values each, at least one);
//   - every step sends `input` or `acc` as it stood at the start of the step (packed into a
//     send buffer before anything lands), receives into temporary buffers, and at the end
//     of the step a `copy` replaces the accumulator and a `reduce` adds to it (into an
//     empty one the value is stored);
//   - at the end every rank compares each accumulator rule R3 names for it (REDUCE: the
//     root; ALLREDUCE: every receiver; REDUCESCATTER: block j at receiver j; SCAN: the
//     prefix over senders 0..j at sender j) with the closed-form sum of the inputs it must
//     hold, prints "rank 1 (1): ok, 4 of 4 accumulators correct" (with the rank, block and
//     element of a mismatch on stderr), and the exit status is 1 on any mismatch and on a
//     send of an input the rank lacks or of an empty accumulator.
#pragma once

#include <cstdint>
#include <string>

#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// How the program holds the schedule: a table of every transfer, or a translation rule
// (docs/CODEGEN.md, "Large schedules"): on a torus, ring or hypercube, a schedule that is
// the same from every processor's point of view (the gossip design's all-to-all
// broadcasts, the XOR all-to-all scatters) is a few entries per step, and each rank derives
// its own transfers from them in O(its transfers); the 16.8 million transfers of the
// torus:64x64 AAB become 4,096 entries.
enum class MpiProgramForm {
  automatic,  // the rule past `rule_threshold` transfers when there is one, else tables
  tables,
  rule,  // throws Unsupported when the schedule has no rule
};

struct MpiProgramOptions {
  int elements = 256;    // ints per message (1 KiB); the program may be rebuilt with
                         // -DCCSCHED_ELEMENTS=n to change it
  bool barrier = false;  // default of CCSCHED_BARRIER: MPI_Barrier after every step
  std::string source;    // where the schedule came from, for the program's header comment
  MpiProgramForm form = MpiProgramForm::automatic;
  std::int64_t rule_threshold = 20000;
};

// Whether the schedule has a translation rule (MpiProgramForm::rule applies).
bool has_translation_rule(const Schedule& s);

// The C source. Throws InvalidParameter for elements < 1 and Unsupported when the schedule
// has more steps than the MPI tag range guarantees (32767). The schedule should be valid
// (verify it first); a transfer from a rank that does not hold its message is reported by
// the running program.
std::string generate_mpi_program(const Schedule& s, const MpiProgramOptions& options = {});

}  // namespace ccsched
