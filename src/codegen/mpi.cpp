// The MPI program generator (mpi.hpp). The schedule becomes constant tables (messages with
// their origin and targets, transfers grouped by step); one fixed C driver interprets them.
// Tables rather than unrolled code keep the program small for schedules with thousands of
// transfers and keep the driver readable.
#include "ccsched/codegen/mpi.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ranks.hpp"
#include "translation.hpp"

namespace ccsched {
namespace {

using codegen_detail::RankMap;
using codegen_detail::translation_rule;
using codegen_detail::TranslationRule;

constexpr const char* kNoRule =
    "no translation rule: the schedule is not the same from every processor of a torus, "
    "ring or hypercube (docs/CODEGEN.md, \"Large schedules\")";

// `name[] = {a, b, ...};` wrapped at 100 columns.
std::string int_table(const std::string& declaration, const std::vector<int>& values) {
  std::string out = declaration + " = {";
  std::string line;
  if (values.empty()) return out + "0};\n";  // C forbids empty initialisers
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string item = std::to_string(values[i]) + (i + 1 < values.size() ? ", " : "");
    if (line.size() + item.size() > 92) {
      out += "\n  " + line;
      line.clear();
    }
    line += item;
  }
  return out + "\n  " + line + "};\n";
}

std::string c_string(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 32) continue;
    out += c;
  }
  return out + "\"";
}

// What both drivers share: the rank count check and the summary.
constexpr const char* kDriverCommon = R"(
/* Aborts unless the program runs on exactly RANKS ranks. */
static void require_ranks(const char* program, int rank) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == RANKS) return;
  if (rank == 0)
    fprintf(stderr, "%s: this schedule needs exactly %d ranks (mpirun -np %d), not %d\n",
            program, RANKS, RANKS, size);
  MPI_Abort(MPI_COMM_WORLD, 2);
}

/* Collects every rank's verdict; rank 0 prints the summary line. Returns the exit status. */
static int summarize(int rank, int bad, double elapsed, const char* success) {
  int failed = 0;
  double slowest = 0.0;
  MPI_Allreduce(&bad, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    if (failed == 0)
      printf("ccsched: %s: all %d ranks %s (%d steps, %.6f s)\n", SCHEDULE_NAME, RANKS, success,
             STEPS, slowest);
    else
      printf("ccsched: %s: FAILED on %d of %d ranks\n", SCHEDULE_NAME, failed, RANKS);
    fflush(stdout);
  }
  return failed == 0 ? 0 : 1;
}
)";

// How both drivers end once the rank's verdict `bad` is known: the summary (summarize,
// in kDriverCommon, with `success` saying what every rank holds), the driver's own two
// buffers freed, then the slots both keep, and MPI closed.
std::string driver_epilogue(std::string_view success, std::string_view values,
                            std::string_view marks) {
  return fmt::format(R"(  fflush(stdout);

  const int status = summarize(rank, bad, elapsed, "{}");
  free({});
  free({});
  free(slots);
  free(requests);
  free(slot_transfer);
  MPI_Finalize();
  return status;
}}
)",
                     success, values, marks);
}

// What the driver asks of the messages and transfers, from the tables of every transfer.
constexpr const char* kTableAccess = R"(
/* The tables are complete: nothing to prepare. */
static void prepare_tables(int rank) { (void)rank; }
static int origin_of(int m) { return msg_origin[m]; }
static int is_target(int m, int rank) {
  int k;
  for (k = msg_target_start[m]; k < msg_target_start[m + 1]; ++k)
    if (msg_targets[k] == rank) return 1;
  return 0;
}
)";

// The same from a translation rule (translation.hpp): prepare_tables derives this rank's
// transfers (its receives and its sends, step by step) from the entries, into the arrays
// the driver indexes; message shape * RANKS + o has origin o.
constexpr const char* kRuleAccess = R"(
/* a + sign * b in the group of the node ids: digit by digit modulo the radix. */
static int group_op(int a, int b, int sign) {
  int result = 0, place = 1, i;
  for (i = DIGITS - 1; i >= 0; --i) {
    const int r = radix[i];
    const int d = ((a % r + sign * (b % r)) % r + r) % r;
    a /= r;
    b /= r;
    result += d * place;
    place *= r;
  }
  return result;
}

static int* step_start;
static int* tr_from;
static int* tr_to;
static int* tr_msg_start;
static int* tr_msgs;

/* Appends the transfer of entry en between `from` and `to` (the receiver names the
 * messages: origin to - offset). */
static void add_transfer(int en, int from, int to, int* t, int* x) {
  int k;
  tr_from[*t] = from;
  tr_to[*t] = to;
  for (k = en_msg_start[en]; k < en_msg_start[en + 1]; ++k)
    tr_msgs[(*x)++] = en_shape[k] * RANKS + group_op(to, en_offset[k], -1);
  tr_msg_start[++*t] = *x;
}

static void prepare_tables(int rank) {
  int s, en, t = 0, x = 0;
  step_start = (int*)malloc((STEPS + 1) * sizeof(int));
  tr_from = (int*)malloc((2 * (size_t)ENTRIES + 1) * sizeof(int));
  tr_to = (int*)malloc((2 * (size_t)ENTRIES + 1) * sizeof(int));
  tr_msg_start = (int*)malloc((2 * (size_t)ENTRIES + 1) * sizeof(int));
  tr_msgs = (int*)malloc((2 * (size_t)en_msg_start[ENTRIES] + 1) * sizeof(int));
  if (!step_start || !tr_from || !tr_to || !tr_msg_start || !tr_msgs) {
    fprintf(stderr, "rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  tr_msg_start[0] = 0;
  for (s = 0; s < STEPS; ++s) {
    step_start[s] = t;
    for (en = entry_start[s]; en < entry_start[s + 1]; ++en) {
      add_transfer(en, group_op(rank, en_delta[en], -1), rank, &t, &x); /* receive */
      add_transfer(en, rank, group_op(rank, en_delta[en], +1), &t, &x); /* send */
    }
  }
  step_start[STEPS] = t;
}

static int origin_of(int m) { return m % RANKS; }
static int is_target(int m, int rank) {
  const int shape = m / RANKS, offset = group_op(rank, m % RANKS, -1);
  int lo = shape_start[shape], hi = shape_start[shape + 1]; /* sorted offsets */
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (shape_offsets[mid] < offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < shape_start[shape + 1] && shape_offsets[lo] == offset;
}
)";

// The driver: reads the tables, runs the steps, checks the data (driver_epilogue ends it).
// Written once, here.
constexpr const char* kDriver = R"(
/* Contents of element i of message m: any value a wrong copy would not reproduce. */
static int payload(int m, int i) {
  unsigned x = (unsigned)m * 2654435761u + (unsigned)i * 40503u + 12345u;
  x ^= x >> 15;
  return (int)(x & 0x7fffffff);
}

int main(int argc, char** argv) {
  int rank, m, s, t, k, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  require_ranks(argv[0], rank);
  prepare_tables(rank);

  const int e = CCSCHED_ELEMENTS;
  int* data = (int*)calloc((size_t)MESSAGES * (size_t)e, sizeof(int));
  unsigned char* held = (unsigned char*)calloc(MESSAGES, 1);
  int* slots = (int*)malloc((size_t)MAX_SLOTS * MAX_PER_TRANSFER * (size_t)e * sizeof(int));
  MPI_Request* requests = (MPI_Request*)malloc(MAX_SLOTS * sizeof(MPI_Request));
  int* slot_transfer = (int*)malloc(MAX_SLOTS * sizeof(int));
  if (!data || !held || !slots || !requests || !slot_transfer) {
    fprintf(stderr, "rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (m = 0; m < MESSAGES; ++m)
    if (origin_of(m) == rank) {
      for (i = 0; i < e; ++i) data[(size_t)m * e + i] = payload(m, i);
      held[m] = 1;
    }

  int not_held = 0; /* sends of messages this rank did not hold: a broken schedule */
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (s = 0; s < STEPS; ++s) {
    int used = 0;
    /* Receives first, so that every send finds its receive posted. */
    for (t = step_start[s]; t < step_start[s + 1]; ++t) {
      if (tr_to[t] != rank) continue;
      const int count = (tr_msg_start[t + 1] - tr_msg_start[t]) * e;
      slot_transfer[used] = t;
      MPI_Irecv(slots + (size_t)used * MAX_PER_TRANSFER * e, count, MPI_INT, tr_from[t], s + 1,
                MPI_COMM_WORLD, &requests[used]);
      ++used;
    }
    for (t = step_start[s]; t < step_start[s + 1]; ++t) {
      if (tr_from[t] != rank) continue;
      int* buffer = slots + (size_t)used * MAX_PER_TRANSFER * e;
      for (k = tr_msg_start[t]; k < tr_msg_start[t + 1]; ++k) {
        m = tr_msgs[k];
        if (!held[m]) {
          ++not_held;
          fprintf(stderr, "rank %d: step %d sends message %d, which it does not hold\n", rank,
                  s + 1, m);
        }
        memcpy(buffer + (size_t)(k - tr_msg_start[t]) * e, data + (size_t)m * e,
               (size_t)e * sizeof(int));
      }
      slot_transfer[used] = -1;
      MPI_Isend(buffer, (tr_msg_start[t + 1] - tr_msg_start[t]) * e, MPI_INT, tr_to[t], s + 1,
                MPI_COMM_WORLD, &requests[used]);
      ++used;
    }
    MPI_Waitall(used, requests, MPI_STATUSES_IGNORE);
    /* What arrived becomes held only now: a rank forwards in later steps only. */
    for (i = 0; i < used; ++i) {
      t = slot_transfer[i];
      if (t < 0) continue;
      for (k = tr_msg_start[t]; k < tr_msg_start[t + 1]; ++k) {
        m = tr_msgs[k];
        const size_t at = ((size_t)i * MAX_PER_TRANSFER + (size_t)(k - tr_msg_start[t])) * e;
        memcpy(data + (size_t)m * e, slots + at, (size_t)e * sizeof(int));
        held[m] = 1;
      }
    }
    if (CCSCHED_BARRIER) MPI_Barrier(MPI_COMM_WORLD);
  }
  const double elapsed = MPI_Wtime() - start;

  /* Check: every message the collective delivers to this rank, with its contents. */
  int expected = 0, correct = 0, relayed = 0;
  for (m = 0; m < MESSAGES; ++m) {
    if (!is_target(m, rank)) {
      if (held[m] && origin_of(m) != rank) ++relayed;
      continue;
    }
    ++expected;
    if (!held[m]) continue;
    int good = 1;
    for (i = 0; i < e && good; ++i) good = data[(size_t)m * e + i] == payload(m, i);
    correct += good;
  }
  const int bad = (correct != expected || not_held > 0) ? 1 : 0;
  if (relayed > 0)
    printf("rank %d (%s): %s, %d of %d messages correct, %d relayed%s\n", rank, rank_label[rank],
           bad ? "FAILED" : "ok", correct, expected, relayed,
           not_held ? ", sent messages it did not hold" : "");
  else
    printf("rank %d (%s): %s, %d of %d messages correct%s\n", rank, rank_label[rank],
           bad ? "FAILED" : "ok", correct, expected,
           not_held ? ", sent messages it did not hold" : "");
)";

// The reduction driver (FORMATS.md "Reductions"): accumulators per block, sends of `input`
// or of `acc` as it stood at the start of the step, receives landing at the end of the
// step (copies first, then the adds, as the verifier replays rule R2), and a check of every
// accumulator rule R3 names against the closed-form sum of the inputs it must hold.
constexpr const char* kReductionDriver = R"(
/* Input of rank r, block b, element i: a 32-bit hash of the rank (so that a lost input
 * and a doubled one cannot cancel out, as they could with (r+1)*1000) plus the position.
 * Sums stay far below 2^63: 2^32 * 1024 * RANKS. */
static long long weight(int r) {
  unsigned x = (unsigned)(r + 1) * 2654435761u;
  x ^= x >> 13;
  return (long long)x + 1;
}
static long long input_value(int r, int b, int i) {
  return weight(r) * 1024 + (long long)b * 64 + i;
}

int main(int argc, char** argv) {
  int rank, s, t, k, i, j;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  require_ranks(argv[0], rank);

  const int e = CCSCHED_ELEMENTS; /* int64 values per block */
  const size_t per_slot = (size_t)MAX_PER_TRANSFER * e;
  long long* acc = (long long*)malloc((size_t)BLOCKS * e * sizeof(long long));
  unsigned char* filled = (unsigned char*)calloc(BLOCKS, 1); /* acc[b] not empty */
  long long* slots = (long long*)malloc((size_t)MAX_SLOTS * per_slot * sizeof(long long));
  MPI_Request* requests = (MPI_Request*)malloc(MAX_SLOTS * sizeof(MPI_Request));
  int* slot_transfer = (int*)malloc(MAX_SLOTS * sizeof(int));
  if (!acc || !filled || !slots || !requests || !slot_transfer) {
    fprintf(stderr, "rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* A sender's accumulators start as its input; everyone else's start empty. */
  const int me = sender_position[rank];
  for (j = 0; j < BLOCKS; ++j) {
    filled[j] = me >= 0;
    for (i = 0; i < e; ++i) acc[(size_t)j * e + i] = me >= 0 ? input_value(rank, j, i) : 0;
  }

  int broken = 0; /* sends of an input it lacks or of an empty accumulator */
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (s = 0; s < STEPS; ++s) {
    int used = 0;
    for (t = step_start[s]; t < step_start[s + 1]; ++t) {
      if (tr_to[t] != rank) continue;
      slot_transfer[used] = t;
      MPI_Irecv(slots + (size_t)used * per_slot, (tr_blk_start[t + 1] - tr_blk_start[t]) * e,
                MPI_LONG_LONG, tr_from[t], s + 1, MPI_COMM_WORLD, &requests[used]);
      ++used;
    }
    /* Sends are packed before anything of this step lands: `acc` as it stood at the start
     * of the step. */
    for (t = step_start[s]; t < step_start[s + 1]; ++t) {
      if (tr_from[t] != rank) continue;
      long long* buffer = slots + (size_t)used * per_slot;
      for (k = tr_blk_start[t]; k < tr_blk_start[t + 1]; ++k) {
        const int b = tr_blks[k];
        long long* out = buffer + (size_t)(k - tr_blk_start[t]) * e;
        if (tr_send[t] == SEND_INPUT && me < 0) {
          ++broken;
          fprintf(stderr, "rank %d: step %d sends its input of block %d, but it has none\n",
                  rank, s + 1, b);
        } else if (tr_send[t] == SEND_ACC && !filled[b]) {
          ++broken;
          fprintf(stderr, "rank %d: step %d sends acc[%d], which is empty\n", rank, s + 1, b);
        }
        for (i = 0; i < e; ++i)
          out[i] = tr_send[t] == SEND_INPUT ? (me >= 0 ? input_value(rank, b, i) : 0)
                                            : acc[(size_t)b * e + i];
      }
      slot_transfer[used] = -1;
      MPI_Isend(buffer, (tr_blk_start[t + 1] - tr_blk_start[t]) * e, MPI_LONG_LONG, tr_to[t],
                s + 1, MPI_COMM_WORLD, &requests[used]);
      ++used;
    }
    MPI_Waitall(used, requests, MPI_STATUSES_IGNORE);
    /* The end of the step: copies replace, then reduces add (into an empty accumulator
     * the first value is stored). */
    int pass;
    for (pass = RECV_COPY; pass >= RECV_REDUCE; --pass)
      for (j = 0; j < used; ++j) {
        t = slot_transfer[j];
        if (t < 0 || tr_recv[t] != pass) continue;
        for (k = tr_blk_start[t]; k < tr_blk_start[t + 1]; ++k) {
          const int b = tr_blks[k];
          const long long* in = slots + (size_t)j * per_slot + (size_t)(k - tr_blk_start[t]) * e;
          long long* a = acc + (size_t)b * e;
          if (pass == RECV_COPY || !filled[b])
            for (i = 0; i < e; ++i) a[i] = in[i];
          else
            for (i = 0; i < e; ++i) a[i] += in[i];
          filled[b] = 1;
        }
      }
    if (CCSCHED_BARRIER) MPI_Barrier(MPI_COMM_WORLD);
  }
  const double elapsed = MPI_Wtime() - start;

  /* Check every accumulator the kind requires of this rank against the closed form: the
   * sum over the first n senders (in sender order) of input_value, i.e.
   * 1024 * (weights of those senders) + n * (64 b + i). */
  int expected = 0, correct = 0, reported = 0;
  for (k = 0; k < TARGETS; ++k) {
    if (target_rank[k] != rank) continue;
    const int b = target_block[k], n = target_count[k];
    long long weights = 0;
    for (j = 0; j < n; ++j) weights += weight(sender_rank[j]);
    ++expected;
    int good = filled[b];
    for (i = 0; i < e && good; ++i) {
      const long long want = weights * 1024 + (long long)n * ((long long)b * 64 + i);
      if (acc[(size_t)b * e + i] != want) {
        good = 0;
        if (reported++ < 8)
          fprintf(stderr, "rank %d: block %d element %d is %lld, not %lld (%d inputs)\n", rank,
                  b, i, acc[(size_t)b * e + i], want, n);
      }
    }
    if (!filled[b] && reported++ < 8)
      fprintf(stderr, "rank %d: block %d is empty, must sum %d inputs\n", rank, b, n);
    if (!good) printf("rank %d (%s): block %d wrong\n", rank, rank_label[rank], b);
    correct += good;
  }
  const int bad = (correct != expected || broken > 0) ? 1 : 0;
  printf("rank %d (%s): %s, %d of %d accumulators correct%s\n", rank, rank_label[rank],
         bad ? "FAILED" : "ok", correct, expected,
         broken ? ", sent what it did not have" : "");
)";

// Transfers by step (stable: the document's order within a step), checked for the shape
// the drivers index by.
std::vector<const Transfer*> transfers_by_step(const Schedule& s) {
  std::vector<const Transfer*> order;
  for (const Transfer& tr : s.transfers) {
    if (tr.step < 1 || tr.step > s.steps || tr.path.size() < 2)
      throw InvalidInput("transfer outside the schedule's steps or with a short path", "transfers");
    order.push_back(&tr);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const Transfer* a, const Transfer* b) { return a->step < b->step; });
  return order;
}

std::string rank_labels(const Schedule& s, const RankMap& ranks) {
  std::string out = "/* Rank labels (the network's node labels). */\n";
  out += "static const char* const rank_label[RANKS] = {";
  for (int r = 0; r < ranks.size(); ++r)
    out += (r % 12 == 0 ? "\n  " : " ") + c_string(s.topology.display_name(ranks.node(r))) +
           (r + 1 < ranks.size() ? "," : "");
  return out + "};\n\n";
}

std::string program_name(const Schedule& s) {
  return fmt::format("{} on {}", to_string(s.collective.kind),
                     s.topology.name().empty() ? "a network" : s.topology.name());
}

// The program of a translation rule (translation.hpp): the group, the shapes and the
// entries, with kRuleAccess deriving each rank's transfers.
std::string rule_program(const Schedule& s, const TranslationRule& rule,
                         const MpiProgramOptions& options) {
  const RankMap ranks(s.topology);
  std::vector<int> shape_start{0}, shape_offsets,
      entry_start(static_cast<std::size_t>(s.steps) + 1, 0), delta, msg_start{0}, offset, shape;
  for (const auto& sh : rule.shapes) {
    shape_offsets.insert(shape_offsets.end(), sh.begin(), sh.end());
    shape_start.push_back(static_cast<int>(shape_offsets.size()));
  }
  int max_per_transfer = 1;
  std::vector<int> per_step(static_cast<std::size_t>(s.steps) + 1, 0);
  for (const auto& e : rule.entries) {
    if (e.step < 1 || e.step > s.steps)
      throw InvalidInput("transfer outside the schedule's steps", "transfers");
    ++entry_start[static_cast<std::size_t>(e.step)];
    ++per_step[static_cast<std::size_t>(e.step)];
    delta.push_back(e.delta);
    for (const auto& [o, sh] : e.messages) {
      offset.push_back(o);
      shape.push_back(sh);
    }
    msg_start.push_back(static_cast<int>(offset.size()));
    max_per_transfer = std::max(max_per_transfer, static_cast<int>(e.messages.size()));
  }
  for (std::size_t i = 1; i < entry_start.size(); ++i) entry_start[i] += entry_start[i - 1];
  // A rank receives once and sends once per entry of a step.
  const int max_slots = std::max(1, 2 * *std::max_element(per_step.begin(), per_step.end()));
  const std::string name = program_name(s);
  std::string out = fmt::format(
      "/* Generated by ccsched 0.1.0 (ccsched codegen mpi){}: {}, {} ranks, {} steps, {} "
      "transfers,\n"
      " * written as a translation rule of {} entries (docs/CODEGEN.md, \"Large schedules\").\n"
      " *\n"
      " * Build and run:  mpicc -O2 -o prog prog.c && mpirun -np {} ./prog\n"
      " * Options:        -DCCSCHED_ELEMENTS=n (ints per message, default {}),\n"
      " *                 -DCCSCHED_BARRIER=1 (MPI_Barrier after every step).\n"
      " *\n"
      " * Rank r is processor r; the node ids, read in mixed radix (radix[]), form a group,\n"
      " * and the schedule is the same from every processor's point of view: in step s every\n"
      " * rank v receives, for each entry e of that step, from v - en_delta[e] the messages of\n"
      " * origin v - en_offset[k] and shape en_shape[k], and sends the same entry to\n"
      " * v + en_delta[e]. Message shape * RANKS + o comes from o to o + shape_offsets[...].\n"
      " * Each rank derives its own transfers from the entries (prepare_tables), then runs\n"
      " * and checks them as every ccsched program does.\n"
      " */\n"
      "#include <mpi.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
      "#ifndef CCSCHED_ELEMENTS\n#define CCSCHED_ELEMENTS {}\n#endif\n"
      "#ifndef CCSCHED_BARRIER\n#define CCSCHED_BARRIER {}\n#endif\n\n"
      "#define SCHEDULE_NAME {}\n"
      "enum {{ RANKS = {}, SHAPES = {}, MESSAGES = {}, STEPS = {}, ENTRIES = {}, DIGITS = {}, "
      "MAX_PER_TRANSFER = {}, MAX_SLOTS = {} }};\n\n",
      options.source.empty() ? "" : " from " + options.source, name, ranks.size(), s.steps,
      s.transfers.size(), rule.entries.size(), ranks.size(), options.elements, options.elements,
      options.barrier ? 1 : 0, c_string(name), ranks.size(), rule.shapes.size(),
      rule.shapes.size() * static_cast<std::size_t>(ranks.size()), s.steps, rule.entries.size(),
      rule.radix.size(), max_per_transfer, max_slots);
  out += rank_labels(s, ranks);
  out += int_table("static const int radix[]", rule.radix);
  out += "/* Shapes: the targets' offsets from the origin, sorted. */\n";
  out += int_table("static const int shape_start[]", shape_start);
  out += int_table("static const int shape_offsets[]", shape_offsets);
  out += "\n/* Entries of step s (0-based): entry_start[s] .. entry_start[s + 1] - 1. */\n";
  out += int_table("static const int entry_start[]", entry_start);
  out += int_table("static const int en_delta[]", delta);
  out += int_table("static const int en_msg_start[]", msg_start);
  out += int_table("static const int en_offset[]", offset);
  out += int_table("static const int en_shape[]", shape);
  out += kRuleAccess;
  out += kDriverCommon;
  out += kDriver;
  out += driver_epilogue("hold exactly what the collective delivers", "data", "held");
  return out;
}

// A reduction schedule's program: the tables of the transfers (blocks, send, recv) and of
// the accumulators rule R3 names, around kReductionDriver. `elements` ints of 4 bytes are
// the whole vector; each block gets its share as int64 values (at least one).
std::string reduction_program(const Schedule& s, const MpiProgramOptions& options) {
  const Collective& c = s.collective;
  if (c.blocks < 1) throw InvalidInput("a reduction needs at least one block", "collective.blocks");
  const RankMap ranks(s.topology);
  const int per_block = std::max(1, options.elements / 2 / c.blocks);
  std::vector<int> sender_position(static_cast<std::size_t>(ranks.size()), -1), sender_rank;
  for (std::size_t j = 0; j < c.senders.size(); ++j) {
    const int r = ranks.rank(c.senders[j], "collective.senders");
    sender_position[r] = static_cast<int>(j);
    sender_rank.push_back(r);
  }
  std::vector<int> target_rank, target_block, target_count;
  // Every kind's required set is a prefix of the senders (all of them, or 0..j for SCAN),
  // so its length says it all (reduction_prefixes: no list per target, p^2 for ALLREDUCE).
  for (const ReductionPrefix& t : reduction_prefixes(c)) {
    target_rank.push_back(ranks.rank(t.node, "collective.receivers"));
    target_block.push_back(t.block);
    target_count.push_back(t.inputs);
  }

  const std::vector<const Transfer*> order = transfers_by_step(s);
  std::vector<int> step_start(static_cast<std::size_t>(s.steps) + 1, 0), from, to, send, recv,
      blk_start{0}, blks;
  std::map<std::pair<Step, int>, int> touching;
  int max_per_transfer = 1, max_slots = 1;
  for (const Transfer* tr : order) {
    const int a = ranks.rank(tr->path.front(), "transfers");
    const int b = ranks.rank(tr->path.back(), "transfers");
    if (tr->blocks.empty()) throw InvalidInput("a reduction transfer carries no block", "transfers");
    for (const int blk : tr->blocks) {
      if (blk < 0 || blk >= c.blocks)
        throw InvalidInput(fmt::format("block {} outside 0..{}", blk, c.blocks - 1), "transfers");
      blks.push_back(blk);
    }
    from.push_back(a);
    to.push_back(b);
    send.push_back(tr->send == ReductionSend::input ? 0 : 1);
    recv.push_back(tr->recv == ReductionRecv::reduce ? 0 : 1);
    blk_start.push_back(static_cast<int>(blks.size()));
    max_per_transfer = std::max(max_per_transfer, static_cast<int>(tr->blocks.size()));
    max_slots = std::max({max_slots, ++touching[{tr->step, a}], ++touching[{tr->step, b}]});
    ++step_start[static_cast<std::size_t>(tr->step)];
  }
  for (std::size_t i = 1; i < step_start.size(); ++i) step_start[i] += step_start[i - 1];

  const std::string name = program_name(s);
  std::string out = fmt::format(
      "/* Generated by ccsched 0.1.0 (ccsched codegen mpi){}: {}, {} ranks, {} blocks, {} "
      "steps, {} transfers.\n"
      " *\n"
      " * Build and run:  mpicc -O2 -o prog prog.c && mpirun -np {} ./prog\n"
      " * Options:        -DCCSCHED_ELEMENTS=n (int64 values per block, default {}),\n"
      " *                 -DCCSCHED_BARRIER=1 (MPI_Barrier after every step).\n"
      " *\n"
      " * Rank r is processor r of the schedule (the r-th processor in id order). Every\n"
      " * sender's accumulators start as its input (rank-dependent integers), everyone\n"
      " * else's empty. Every step is one round of MPI_Irecv/MPI_Isend: a transfer sends the\n"
      " * sender's input or its accumulator as it stood at the start of the step; at the end\n"
      " * of the step a `copy` replaces the receiver's accumulator and a `reduce` adds to it.\n"
      " * At the end every rank compares each accumulator the collective requires of it with\n"
      " * the closed-form sum of the inputs it must hold, prints one line, and the exit\n"
      " * status is 0 when all ranks are correct.\n"
      " */\n"
      "#include <mpi.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
      "#ifndef CCSCHED_ELEMENTS\n#define CCSCHED_ELEMENTS {}\n#endif\n"
      "#ifndef CCSCHED_BARRIER\n#define CCSCHED_BARRIER {}\n#endif\n\n"
      "#define SCHEDULE_NAME {}\n"
      "enum {{ RANKS = {}, SENDERS = {}, BLOCKS = {}, STEPS = {}, TRANSFERS = {}, TARGETS = {}, "
      "MAX_PER_TRANSFER = {}, MAX_SLOTS = {} }};\n"
      "enum {{ SEND_INPUT = 0, SEND_ACC = 1, RECV_REDUCE = 0, RECV_COPY = 1 }};\n\n",
      options.source.empty() ? "" : " from " + options.source, name, ranks.size(), c.blocks,
      s.steps, order.size(), ranks.size(), per_block, per_block, options.barrier ? 1 : 0,
      c_string(name), ranks.size(), c.senders.size(), c.blocks, s.steps, order.size(),
      target_rank.size(), max_per_transfer, max_slots);
  out += rank_labels(s, ranks);
  out +=
      "/* Senders: the rank of the j-th sender (prefix order for SCAN), and each rank's\n"
      " * position among them (-1: no input). */\n";
  out += int_table("static const int sender_rank[]", sender_rank);
  out += int_table("static const int sender_position[]", sender_position);
  out +=
      "\n/* Required accumulators (FORMATS.md rule R3): rank, block, and how many senders (the\n"
      " * first ones in sender order) it must sum. */\n";
  out += int_table("static const int target_rank[]", target_rank);
  out += int_table("static const int target_block[]", target_block);
  out += int_table("static const int target_count[]", target_count);
  out +=
      "\n/* Transfers of step s (0-based): step_start[s] .. step_start[s + 1] - 1; sender,\n"
      " * receiver, SEND_INPUT/SEND_ACC, RECV_REDUCE/RECV_COPY, and the blocks\n"
      " * tr_blks[tr_blk_start[t] ..] they carry. */\n";
  out += int_table("static const int step_start[]", step_start);
  out += int_table("static const int tr_from[]", from);
  out += int_table("static const int tr_to[]", to);
  out += int_table("static const int tr_send[]", send);
  out += int_table("static const int tr_recv[]", recv);
  out += int_table("static const int tr_blk_start[]", blk_start);
  out += int_table("static const int tr_blks[]", blks);
  out += kDriverCommon;
  out += kReductionDriver;
  out += driver_epilogue("hold exactly the sums the collective requires", "acc", "filled");
  return out;
}

}  // namespace

bool has_translation_rule(const Schedule& s) { return translation_rule(s).has_value(); }

std::string generate_mpi_program(const Schedule& s, const MpiProgramOptions& options) {
  if (options.elements < 1)
    throw InvalidParameter(fmt::format("{} ints per message; needs at least 1", options.elements),
                           "--elements");
  if (s.steps > 32767)
    throw Unsupported(fmt::format("{} steps; MPI guarantees tags up to 32767 only", s.steps),
                      "codegen mpi");
  if (is_reduction(s.collective)) return reduction_program(s, options);
  const RankMap ranks(s.topology);
  const auto& msgs = s.collective.messages;
  std::map<MessageId, int> index;  // message id -> table index
  for (std::size_t i = 0; i < msgs.size(); ++i) index[msgs[i].id] = static_cast<int>(i);

  std::vector<int> origin, target_start{0}, targets;
  for (const Message& m : msgs) {
    origin.push_back(ranks.rank(m.origin, "messages"));
    for (const NodeId t : m.targets) targets.push_back(ranks.rank(t, "messages"));
    target_start.push_back(static_cast<int>(targets.size()));
  }

  const std::vector<const Transfer*> order = transfers_by_step(s);
  std::vector<int> step_start(static_cast<std::size_t>(s.steps) + 1, 0), from, to, msg_start{0},
      carried;
  std::map<std::pair<Step, int>, int> touching;  // (step, rank) -> transfers in or out
  int max_per_transfer = 1, max_slots = 1;
  for (const Transfer* tr : order) {
    const int a = ranks.rank(tr->path.front(), "transfers");
    const int b = ranks.rank(tr->path.back(), "transfers");
    from.push_back(a);
    to.push_back(b);
    for (const MessageId m : tr->messages) {
      const auto it = index.find(m);
      if (it == index.end())
        throw InvalidInput(fmt::format("transfer carries unknown message {}", m), "transfers");
      carried.push_back(it->second);
    }
    msg_start.push_back(static_cast<int>(carried.size()));
    max_per_transfer = std::max(max_per_transfer, static_cast<int>(tr->messages.size()));
    max_slots = std::max({max_slots, ++touching[{tr->step, a}], ++touching[{tr->step, b}]});
    ++step_start[static_cast<std::size_t>(tr->step)];
  }
  for (std::size_t i = 1; i < step_start.size(); ++i) step_start[i] += step_start[i - 1];

  if (options.form != MpiProgramForm::tables) {
    if (auto rule = translation_rule(s)) {
      if (options.form == MpiProgramForm::rule ||
          static_cast<std::int64_t>(s.transfers.size()) > options.rule_threshold)
        return rule_program(s, *rule, options);
    } else if (options.form == MpiProgramForm::rule) {
      throw Unsupported(kNoRule, "codegen mpi");
    }
  }
  const std::string name = program_name(s);
  std::string out = fmt::format(
      "/* Generated by ccsched 0.1.0 (ccsched codegen mpi){}: {}, {} ranks, {} steps, {} "
      "transfers.\n"
      " *\n"
      " * Build and run:  mpicc -O2 -o prog prog.c && mpirun -np {} ./prog\n"
      " * Options:        -DCCSCHED_ELEMENTS=n (ints per message, default {}),\n"
      " *                 -DCCSCHED_BARRIER=1 (MPI_Barrier after every step).\n"
      " *\n"
      " * Rank r is processor r of the schedule (the r-th processor in id order). Every step\n"
      " * is one round of MPI_Irecv/MPI_Isend for that step's transfers and a wait; a rank\n"
      " * forwards only messages it received in earlier steps. At the end every rank checks\n"
      " * that it holds every message the collective delivers to it, with its contents, and\n"
      " * prints one line; the exit status is 0 when all ranks are correct.\n"
      " */\n"
      "#include <mpi.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
      "#ifndef CCSCHED_ELEMENTS\n#define CCSCHED_ELEMENTS {}\n#endif\n"
      "#ifndef CCSCHED_BARRIER\n#define CCSCHED_BARRIER {}\n#endif\n\n"
      "#define SCHEDULE_NAME {}\n"
      "enum {{ RANKS = {}, MESSAGES = {}, STEPS = {}, TRANSFERS = {}, MAX_PER_TRANSFER = {}, "
      "MAX_SLOTS = {} }};\n\n",
      options.source.empty() ? "" : " from " + options.source, name, ranks.size(), s.steps,
      order.size(), ranks.size(), options.elements, options.elements, options.barrier ? 1 : 0,
      c_string(name), ranks.size(), msgs.size(), s.steps, order.size(), max_per_transfer,
      max_slots);
  out += rank_labels(s, ranks);
  out += "/* Messages: origin rank; targets msg_targets[msg_target_start[m] ..]. */\n";
  out += int_table("static const int msg_origin[]", origin);
  out += int_table("static const int msg_target_start[]", target_start);
  out += int_table("static const int msg_targets[]", targets);
  out +=
      "\n/* Transfers of step s (0-based): step_start[s] .. step_start[s + 1] - 1; sender,\n"
      " * receiver, and the messages tr_msgs[tr_msg_start[t] ..] they carry. */\n";
  out += int_table("static const int step_start[]", step_start);
  out += int_table("static const int tr_from[]", from);
  out += int_table("static const int tr_to[]", to);
  out += int_table("static const int tr_msg_start[]", msg_start);
  out += int_table("static const int tr_msgs[]", carried);
  out += kTableAccess;
  out += kDriverCommon;
  out += kDriver;
  out += driver_epilogue("hold exactly what the collective delivers", "data", "held");
  return out;
}

}  // namespace ccsched
