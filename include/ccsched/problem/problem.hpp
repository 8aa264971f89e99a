// A scheduling problem: a network (faults applied), a collective communication expanded
// into its messages (FORMATS.md `messages`), and the communication model (ports,
// switching, routing, combining).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ccsched/core/ids.hpp"
#include "ccsched/topology/topology.hpp"

namespace ccsched {

enum class CollectiveKind { OAB, AAB, OAS, AAS, AOG, MNB, MNS, PERM, CUSTOM };

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
  std::vector<NodeId> senders;    // processors that originate messages (OAB/OAS: the root)
  std::vector<NodeId> receivers;  // processors that receive (AOG: the root)
  std::vector<Message> messages;  // ids are indices
};

// True for kinds whose messages have many targets and spread along trees (OAB, AAB, MNB;
// CUSTOM when some message has more than one target).
bool is_broadcast(const Collective& c);

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
  std::optional<std::string> root;        // OAB, OAS, AOG: node id or label (default: first processor)
  std::vector<std::string> senders;       // MNB, MNS (ids or labels)
  std::vector<std::string> receivers;     // MNB, MNS
  int shift = 1;                          // PERM without a file: circular q-shift i -> i+q
  std::optional<std::string> custom_file; // CUSTOM (and PERM from a file): message list
};

// Expands a request on a topology (processors only). Throws InvalidParameter naming the
// offending option (root out of range, sender that is not a processor, ...).
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
