// MSCCL algorithm XML: the format NCCL-compatible runtimes with the MSCCL executor
// (msccl-executor-nccl, RCCL) load from MSCCL_ALGO_DIR. A schedule of one of five
// collectives becomes an algorithm of the matching MSCCL collective:
//
//   OAB -> broadcast   one chunk; the root sends from its input, everyone receives into
//                      its output and forwards from it
//   AAB -> allgather   chunk r of the output is rank r's input; with B blocks per rank
//                      (FORMATS.md "Several blocks") output chunk r·B + b is input
//                      chunk b of rank r
//   OAS -> scatter     chunk j of the root's input goes to rank j's output
//   AOG -> gather      rank r's input becomes chunk r of the root's output
//   AAS -> alltoall    chunk j of rank i's input becomes chunk i of rank j's output
//
// Reductions (FORMATS.md "Reductions"; every processor must be a sender, as MSCCL sums
// every rank's input; one chunk is one block):
//   ALLREDUCE     -> allreduce       output chunk b of every rank: the sum of block b
//   REDUCESCATTER -> reduce_scatter  the one output chunk of rank j: the sum of block j
//   REDUCE        -> reduce          output chunk b of the root: the sum of block b
// acc[v][b] lives in the output chunk the collective leaves it in, else in scratch; while
// it is still v's input it is read from input chunk b. A `reduce` is an `rrc` step
// (receive, add the local chunk, write the accumulator), a `copy` an `r` step; a required
// accumulator no receive wrote is a local `cpy` of the input. Dependencies follow the data:
// a send waits for the last earlier-step write of its chunk; a write waits for the previous
// write of its chunk and for the sends that read it since (so a send in step s carries the
// accumulator as it stood at the start of step s). SCAN has no MSCCL collective.
//
// One MSCCL chunk is one message of the schedule. Each GPU (rank = processor index, as in
// mpi.hpp) gets one thread block per peer it sends to and one per peer it receives from
// (MSCCL allows one send peer and one receive peer per thread block), plus one for the
// local copy of its own chunk (the algorithms are out-of-place). Within a thread block the
// steps follow the schedule's steps; every send in schedule step s+1 depends on the
// rank's receives of steps <= s (`depid`/`deps`, extra dependencies through `nop` steps,
// `hasdep="1"` on the receives waited for), so a rank starts a step only when its earlier
// steps have delivered, and a forwarded chunk is always there before it leaves. A chunk a
// rank only relays (it is not a target) sits in the scratch buffer.
//
//   std::string xml = generate_msccl_xml(schedule);
//
// Limits (docs/CODEGEN.md): the XML carries no routes — the runtime moves each chunk
// between the two GPUs by its own transport, so the channel-disjointness the schedule
// guarantees holds only if the transport follows the schedule's paths; steps are not
// globally synchronized (no barrier in MSCCL); the root of a rooted collective is fixed
// (MSCCL does not check the root when it picks an algorithm); combined transfers become
// one send per message; the executor's limits (64 steps per thread block, 32 send and 32
// receive peers per channel, 32 channels, 128 thread blocks per GPU; msccl.cpp cites each)
// are checked and reported as Unsupported.
//
// minBytes/maxBytes: the runtime's scheduler picks the algorithm for a call of nBytes
// bytes when minBytes <= nBytes and (maxBytes == 0 or nBytes <= maxBytes), nBytes being
// the whole buffer (msccl_size_multiplier times the schedule's message size); outside the
// range it runs its own algorithms. `ccsched codegen msccl --t0 --t1` writes the range the
// schedule is faster in (cost/size_range.hpp); without a time model, every size (0, 0).
#pragma once

#include <cstdint>
#include <string>

#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

struct MscclOptions {
  std::string name;                 // algorithm name; default "ccsched_<kind>_<network>"
  std::string protocol = "Simple";  // Simple | LL | LL128
  std::int64_t min_bytes = 0;       // the executor picks the algorithm for sizes in
  std::int64_t max_bytes = 0;       // [min_bytes, max_bytes]; 0 = no upper limit
  std::string size_note;            // why that range (the leading comment); "" = default
};

// The runtime's nBytes per byte of the schedule's message (reductions: of the input
// vector): the number of ranks for allgather (AAB) and alltoall (AAS), whose nBytes is the
// whole output or input buffer; 1 otherwise.
std::int64_t msccl_size_multiplier(const Schedule& s);

// Throws Unsupported for collectives other than OAB, AAB, OAS, AOG, AAS (or ones whose
// senders and receivers are not all processors, where MSCCL needs them), and when an
// executor limit is exceeded; InvalidParameter for an unknown protocol.
std::string generate_msccl_xml(const Schedule& s, const MscclOptions& options = {});

}  // namespace ccsched
