// The MPI program generator (mpi.hpp). The schedule becomes constant tables (messages with
// their origin and targets, transfers grouped by step); one fixed C driver interprets them.
// Tables rather than unrolled code keep the program small for schedules with thousands of
// transfers and keep the driver readable.
#include "ccsched/codegen/mpi.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ranks.hpp"

namespace ccsched {
namespace {

using codegen_detail::RankMap;

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

// The driver: reads the tables, runs the steps, checks the data. Written once, here.
constexpr const char* kDriver = R"(
/* Contents of element i of message m: any value a wrong copy would not reproduce. */
static int payload(int m, int i) {
  unsigned x = (unsigned)m * 2654435761u + (unsigned)i * 40503u + 12345u;
  x ^= x >> 15;
  return (int)(x & 0x7fffffff);
}

int main(int argc, char** argv) {
  int rank, size, m, s, t, k, i;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != RANKS) {
    if (rank == 0)
      fprintf(stderr, "%s: this schedule needs exactly %d ranks (mpirun -np %d), not %d\n",
              argv[0], RANKS, RANKS, size);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

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
    if (msg_origin[m] == rank) {
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
    int target = 0;
    for (k = msg_target_start[m]; k < msg_target_start[m + 1]; ++k)
      if (msg_targets[k] == rank) target = 1;
    if (!target) {
      if (held[m] && msg_origin[m] != rank) ++relayed;
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
  fflush(stdout);

  int failed = 0;
  double slowest = 0.0;
  MPI_Allreduce(&bad, &failed, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  MPI_Reduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    if (failed == 0)
      printf("ccsched: %s: all %d ranks hold exactly what the collective delivers "
             "(%d steps, %.6f s)\n", SCHEDULE_NAME, RANKS, STEPS, slowest);
    else
      printf("ccsched: %s: FAILED on %d of %d ranks\n", SCHEDULE_NAME, failed, RANKS);
    fflush(stdout);
  }
  free(data);
  free(held);
  free(slots);
  free(requests);
  free(slot_transfer);
  MPI_Finalize();
  return failed == 0 ? 0 : 1;
}
)";

}  // namespace

std::string generate_mpi_program(const Schedule& s, const MpiProgramOptions& options) {
  refuse_reductions(s.collective, "the MPI code generator", "codegen mpi");
  if (options.elements < 1)
    throw InvalidParameter(fmt::format("{} ints per message; needs at least 1", options.elements),
                           "--elements");
  if (s.steps > 32767)
    throw Unsupported(fmt::format("{} steps; MPI guarantees tags up to 32767 only", s.steps),
                      "codegen mpi");
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

  // Transfers by step (stable: the document's order within a step).
  std::vector<const Transfer*> order;
  for (const Transfer& tr : s.transfers) {
    if (tr.step < 1 || tr.step > s.steps || tr.path.size() < 2)
      throw InvalidInput("transfer outside the schedule's steps or with a short path", "transfers");
    order.push_back(&tr);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const Transfer* a, const Transfer* b) { return a->step < b->step; });
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

  std::vector<std::string> labels;
  for (int r = 0; r < ranks.size(); ++r)
    labels.push_back(c_string(s.topology.display_name(ranks.node(r))));

  const std::string name = fmt::format("{} on {}", to_string(s.collective.kind),
                                       s.topology.name().empty() ? "a network" : s.topology.name());
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
  out += "/* Rank labels (the network's node labels). */\n";
  out += "static const char* const rank_label[RANKS] = {";
  for (std::size_t i = 0; i < labels.size(); ++i)
    out += (i % 12 == 0 ? "\n  " : " ") + labels[i] + (i + 1 < labels.size() ? "," : "");
  out += "};\n\n/* Messages: origin rank; targets msg_targets[msg_target_start[m] ..]. */\n";
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
  out += kDriver;
  return out;
}

}  // namespace ccsched
