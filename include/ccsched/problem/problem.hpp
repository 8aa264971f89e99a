// A scheduling problem: a network (faults applied), a collective communication expanded
// into its messages (FORMATS.md `messages`), and the communication model (ports,
// switching, routing, combining).
//
// Reductions (REDUCE, ALLREDUCE, REDUCESCATTER, SCAN; FORMATS.md "Reductions") have no
// messages: every sender holds an input of `blocks` blocks, and what each receiver must
// hold at the end is fixed by the kind, the order of `senders` and `receivers`, and
// `blocks` alone (reduction_target below says exactly what).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

enum class CollectiveKind {
  OAB, AAB, OAS, AAS, AOG, MNB, MNS, PERM, CUSTOM,
  // Reductions (FORMATS.md "Reductions"): combine the senders' inputs, each exactly once.
  REDUCE, ALLREDUCE, REDUCESCATTER, SCAN
};

std::string_view to_string(CollectiveKind kind);
// "OAB", "aab", ... (case-insensitive); throws InvalidParameter naming the text.
CollectiveKind parse_collective_kind(std::string_view text);

struct Message {
  MessageId id = 0;
  NodeId origin = kNoNode;
  std::vector<NodeId> targets;  // never contains origin; one target for scatter messages
};

struct Collective {
  CollectiveKind kind = CollectiveKind::AAS;
  // Processors that originate messages (OAB/OAS: the root) or, for a reduction, that hold
  // an input. SCAN: in prefix order (the j-th sender ends with the sum over senders 0..j);
  // every other kind: ascending ids.
  std::vector<NodeId> senders;
  // Processors that receive (AOG, REDUCE: the root). REDUCESCATTER: the j-th receiver ends
  // with block j. SCAN: the senders, in the same order.
  std::vector<NodeId> receivers;
  std::vector<Message> messages;  // ids are indices; empty for reductions
  // Reductions, AAB: the equal blocks each input is split into (FORMATS.md `collective.
  // blocks`; AAB: one message each); REDUCESCATTER: the receivers. 1 for other kinds.
  int blocks = 1;
};

// True for kinds whose messages have many targets and spread along trees (OAB, AAB, MNB;
// CUSTOM when some message has more than one target).
bool is_broadcast(const Collective& c);

// True for REDUCE, ALLREDUCE, REDUCESCATTER and SCAN: collectives described by
// accumulators (FORMATS.md "Reductions") rather than messages.
bool is_reduction(CollectiveKind kind);
bool is_reduction(const Collective& c);

// What a reduction must leave behind (FORMATS.md "Reductions", rule R3): accumulator
// acc[node][block] must hold exactly the inputs of `senders` (indices into
// Collective::senders, ascending). One entry per (receiver, block) that the kind names:
//   REDUCE, ALLREDUCE  every receiver x every block: all senders
//   REDUCESCATTER      receiver j, block j: all senders
//   SCAN               sender j x every block: senders 0..j
// Empty for a collective that is not a reduction. Engines, bounds and cost read the goal
// from here; the verifier keeps its own reading (it shares no code with this module).
struct ReductionTarget {
  NodeId node = kNoNode;
  int block = 0;
  std::vector<int> senders;
};
std::vector<ReductionTarget> reduction_targets(const Collective& c);
// The same goals without the sender lists, which are always a prefix of
// Collective::senders: goal i needs senders 0..inputs-1. O(receivers x blocks), where
// reduction_targets holds a list per goal (p² entries for an ALLREDUCE).
struct ReductionPrefix {
  NodeId node = kNoNode;
  int block = 0;
  int inputs = 0;
};
std::vector<ReductionPrefix> reduction_prefixes(const Collective& c);

// For a stage that handles message collectives only: throws Unsupported("reductions are
// not supported by <what> yet", <module>) when `c` is a reduction, so that a reduction
// (which has no messages) is refused at the entry rather than "solved" in zero steps.
void refuse_reductions(const Collective& c, std::string_view what, std::string_view module);

enum class Switching { wormhole, store_and_forward };
enum class Routing { minimal, nonminimal };

struct Model {
  std::optional<int> ports;  // k of the k-port model; nullopt = all-port
  Switching switching = Switching::wormhole;
  Routing routing = Routing::minimal;
  int extra_hops = 2;        // nonminimal: paths up to this many hops longer than shortest
  bool combining = false;
};

std::string_view to_string(Switching s);
std::string_view to_string(Routing r);

// What the user asked for; make_collective turns it into messages.
struct CollectiveRequest {
  CollectiveKind kind = CollectiveKind::AAS;
  std::optional<std::string> root;        // OAB, OAS, AOG, REDUCE: node id or label (default: first processor)
  std::vector<std::string> senders;       // MNB, MNS, reductions (ids or labels)
  std::vector<std::string> receivers;     // MNB, MNS, ALLREDUCE, REDUCESCATTER
  int shift = 1;                          // PERM without a file: circular q-shift i -> i+q
  std::optional<std::string> custom_file; // CUSTOM (and PERM from a file): message list
  std::optional<int> blocks;              // reductions, AAB: blocks per input (--blocks)
};

// Expands a request on a topology (processors only). Throws InvalidParameter naming the
// offending option (root out of range, sender that is not a processor, ...).
//
// AAB: `blocks` messages per processor. Reductions (no messages; `blocks`, default 1):
//   REDUCE         receivers = {root}; senders = --senders or every processor.
//   ALLREDUCE      senders and receivers = the sets given; a set not given is the other
//                  one, or every processor when neither is given.
//   REDUCESCATTER  as ALLREDUCE; blocks = the number of receivers (an explicit --blocks
//                  that differs is an InvalidParameter).
//   SCAN           senders = --senders in the order given (the prefix order), or every
//                  processor by id; receivers = senders (--receivers is refused).
// Sets other than SCAN's are sorted by id. A reduction over one processor is refused.
Collective make_collective(const Topology& t, const CollectiveRequest& request);

// Reads a CUSTOM / PERM message list (one message per line, "origin target [target ...]",
// ids or labels, '#' starts a comment) in file order, targets of a message sorted. Throws
// InvalidInput naming `where`:line. make_collective reads its file through this.
std::vector<Message> read_message_list(const Topology& t, std::string_view text,
                                       std::string_view where);

// The model's default port count for a topology: all-port for direct networks, 1 for
// networks with switches whose processors have one channel each (multistage).
Model default_model(const Topology& t);

// A link fault as the user wrote it: "U-V" (a link: both channels of an undirected link;
// on a digraph, where every channel is a link of its own, the channel U->V, or V->U when
// only that one exists) or "U->V" (exactly that channel); U and V are ids or labels.
// Throws InvalidParameter when the text is malformed or names no link.
std::vector<Channel> parse_fault(const Topology& t, std::string_view text);
Topology apply_faults(const Topology& t, const std::vector<std::string>& faults);

struct Problem {
  Topology topology;  // faults already removed
  Collective collective;
  Model model;
};

// Port limit as an integer: k, or (all-port) a number no processor can exceed.
int effective_ports(const Problem& p);

}  // namespace ccsched
