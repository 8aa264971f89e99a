// ccsched-schedule/1 documents (FORMATS.md), read and written exactly. The embedded
// topology goes through the topology module's ccsched-topology/1 reader and writer, so
// both documents share one definition of a network.
//
// Division of labour with the verifier: this reader rejects only what cannot be a
// schedule document at all (not JSON, unknown format, a missing key, a value of the wrong
// JSON type, a negative step, a number outside the 32-bit id range, ports < 1). Anything
// that is well-typed but wrong — a path naming a node that does not exist, a message id
// no message has, a step beyond `steps` — is read as written and left to
// verify_schedule(), which names it as a violation of a numbered rule. Unknown keys are
// ignored, as for topologies. `model.extra_hops` is written only under nonminimal routing.
//
// Reductions (FORMATS.md "Reductions"): `collective.blocks` is written for them only; their
// transfers carry `blocks`, `send` and `recv` instead of `messages`, and the top-level
// `messages` is written as [] (the reader takes it as absent or []). Which of the two
// transfer shapes the reader expects follows the collective kind, read first.
#include "ccsched/schedule/json.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/io.hpp"

namespace ccsched {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr std::string_view kFormat = "ccsched-schedule/1";

// In CollectiveKind order (the reader converts an index back into the kind).
constexpr std::string_view kKindNames[] = {"OAB",    "AAB",    "OAS",       "AAS",
                                           "AOG",    "MNB",    "MNS",       "PERM",
                                           "CUSTOM", "REDUCE", "ALLREDUCE", "REDUCESCATTER",
                                           "SCAN"};
static_assert(std::size(kKindNames) == static_cast<std::size_t>(CollectiveKind::SCAN) + 1);

// The schedule module's own test for the four reduction kinds (problem.hpp has one too;
// the document layer does not depend on the problem module's functions).
bool reduction_kind(CollectiveKind k) {
  return k == CollectiveKind::REDUCE || k == CollectiveKind::ALLREDUCE ||
         k == CollectiveKind::REDUCESCATTER || k == CollectiveKind::SCAN;
}

std::string kind_text(CollectiveKind k) { return std::string(kKindNames[static_cast<int>(k)]); }

// --- writing ----------------------------------------------------------------------------

// Layout: the top-level object and its object members one key per line; arrays of arrays
// or objects one compact element per line (a transfer, a message, a channel per line);
// everything else compact. Readable and diff-friendly without the bulk of full indentation.
void emit(std::string& out, const ordered_json& v, int depth) {
  const std::string pad(static_cast<std::size_t>(2 * (depth + 1)), ' ');
  const std::string close_pad(static_cast<std::size_t>(2 * depth), ' ');
  if (v.is_object() && depth <= 1 && !v.empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& [key, value] : v.items()) {
      if (!first) out += ",\n";
      first = false;
      out += pad + json(key).dump() + ": ";
      emit(out, value, depth + 1);
    }
    out += "\n" + close_pad + "}";
    return;
  }
  if (v.is_array() &&
      std::any_of(v.begin(), v.end(), [](const ordered_json& e) { return e.is_structured(); })) {
    out += "[\n";
    for (std::size_t i = 0; i < v.size(); ++i) {
      out += pad + v[i].dump();
      out += i + 1 < v.size() ? ",\n" : "\n";
    }
    out += close_pad + "]";
    return;
  }
  out += v.dump();
}

// --- reading ----------------------------------------------------------------------------

// Reads one document; every error names the source and the key path ("transfers[3].path[1]").
class Reader {
 public:
  explicit Reader(std::string_view where) : where_(where) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    std::string place = where_;
    if (!path.empty()) place += place.empty() ? path : ": " + path;
    throw InvalidInput(what, place);
  }

  static std::string type_of(const json& v) { return v.type_name(); }

  const json& member(const json& obj, const std::string& path, const char* key) const {
    const auto it = obj.find(key);
    if (it == obj.end()) fail(path, std::string("missing key \"") + key + "\"");
    return *it;
  }

  static std::string sub(const std::string& path, const char* key) {
    return path.empty() ? std::string(key) : path + "." + key;
  }
  static std::string sub(const std::string& path, std::size_t index) {
    return path + "[" + std::to_string(index) + "]";
  }

  const json& object(const json& v, const std::string& path) const {
    if (!v.is_object()) fail(path, "expected an object, got " + type_of(v));
    return v;
  }
  const json& array(const json& v, const std::string& path) const {
    if (!v.is_array()) fail(path, "expected an array, got " + type_of(v));
    return v;
  }
  std::string string(const json& v, const std::string& path) const {
    if (!v.is_string()) fail(path, "expected a string, got " + type_of(v));
    return v.get<std::string>();
  }
  bool boolean(const json& v, const std::string& path) const {
    if (!v.is_boolean()) fail(path, "expected true or false, got " + type_of(v));
    return v.get<bool>();
  }
  // An integer in [lo, hi]; 1.0 is not an integer here (ids and steps are counts).
  std::int64_t integer(const json& v, const std::string& path, std::int64_t lo,
                       std::int64_t hi) const {
    if (!v.is_number_integer()) fail(path, "expected an integer, got " + describe(v));
    if (v.is_number_unsigned() &&
        v.get<std::uint64_t>() >
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      fail(path, "integer " + v.dump() + " is out of range");
    const auto x = v.get<std::int64_t>();
    if (x < lo || x > hi)
      fail(path, "integer " + std::to_string(x) + " is out of range " + std::to_string(lo) + ".." +
                     std::to_string(hi));
    return x;
  }
  std::int32_t id(const json& v, const std::string& path) const {
    return static_cast<std::int32_t>(integer(v, path, std::numeric_limits<std::int32_t>::min(),
                                             std::numeric_limits<std::int32_t>::max()));
  }
  std::int32_t count(const json& v, const std::string& path) const {
    return static_cast<std::int32_t>(integer(v, path, 0, std::numeric_limits<std::int32_t>::max()));
  }
  std::vector<std::int32_t> ids(const json& v, const std::string& path) const {
    array(v, path);
    std::vector<std::int32_t> out;
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(id(v[i], sub(path, i)));
    return out;
  }

  static std::string describe(const json& v) {
    if (v.is_number()) return "number " + v.dump();
    if (v.is_string()) return "string " + v.dump();
    return std::string(v.type_name());
  }

  Schedule read(std::string_view text) const {
    json doc;
    try {
      doc = json::parse(text);
    } catch (const json::exception& e) {
      std::string what = e.what();
      // "[json.exception.parse_error.101] parse error at line 1, ...": keep the human part.
      if (const auto close = what.find("] ");
          what.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
        what = what.substr(close + 2);
      fail("", "not valid JSON: " + what);
    }
    object(doc, "");
    const std::string format = string(member(doc, "", "format"), "format");
    if (format != kFormat)
      fail("format",
           "unknown format \"" + format + "\" (expected \"" + std::string(kFormat) + "\")");

    Schedule s;
    s.topology = read_embedded_topology(object(member(doc, "", "topology"), "topology"));
    read_collective(object(member(doc, "", "collective"), "collective"), s.collective);
    const json& model = object(member(doc, "", "model"), "model");
    read_model(model, s.model);
    if (s.model.routing == Routing::nonminimal && !model.contains("extra_hops"))
      s.model.extra_hops = uncapped_extra_hops(s.topology);
    const bool reduction = reduction_kind(s.collective.kind);
    // A reduction has no messages (FORMATS.md "Reductions"): the key may be left out.
    if (!reduction || doc.contains("messages"))
      read_messages(array(member(doc, "", "messages"), "messages"), s.collective);
    s.steps = count(member(doc, "", "steps"), "steps");
    read_transfers(array(member(doc, "", "transfers"), "transfers"), reduction, s.transfers);
    if (const auto it = doc.find("lower_bound"); it != doc.end() && !it->is_null())
      s.lower_bound = count(*it, "lower_bound");
    if (const auto it = doc.find("optimal"); it != doc.end()) s.optimal = boolean(*it, "optimal");
    if (const auto it = doc.find("optimal_within"); it != doc.end() && !it->is_null())
      s.optimal_within = string(*it, "optimal_within");
    if (const auto it = doc.find("direct_delivery_bound"); it != doc.end() && !it->is_null())
      s.direct_delivery_bound = count(*it, "direct_delivery_bound");
    if (const auto it = doc.find("solver"); it != doc.end() && !it->is_null())
      s.solver = read_solver(object(*it, "solver"));
    return s;
  }

  Topology read_embedded_topology(const json& v) const {
    // The topology module owns ccsched-topology/1; hand it the sub-document as text.
    std::string place = where_.empty() ? std::string("topology") : where_ + ": topology";
    return read_topology(v.dump(), TopologyFormat::json, place);
  }

  void read_collective(const json& v, Collective& c) const {
    const std::string kind = string(member(v, "collective", "kind"), "collective.kind");
    std::string upper = kind;
    std::transform(upper.begin(), upper.end(), upper.begin(),
                   [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
    const auto* found = std::find(std::begin(kKindNames), std::end(kKindNames), upper);
    if (found == std::end(kKindNames))
      fail("collective.kind", "unknown collective kind \"" + kind +
                                  "\" (expected OAB, AAB, OAS, AAS, AOG, MNB, MNS, PERM, "
                                  "CUSTOM, REDUCE, ALLREDUCE, REDUCESCATTER or SCAN)");
    c.kind = static_cast<CollectiveKind>(found - std::begin(kKindNames));
    c.senders = ids(member(v, "collective", "senders"), "collective.senders");
    c.receivers = ids(member(v, "collective", "receivers"), "collective.receivers");
    // Only reductions have blocks; for other kinds the key is ignored like any unknown key,
    // so that what is read is what would be written. 0 is well-typed and left to the
    // verifier (rule R1); a negative count is not a count.
    if (!reduction_kind(c.kind)) return;
    if (const auto it = v.find("blocks"); it != v.end())
      c.blocks = count(*it, "collective.blocks");
    else if (c.kind == CollectiveKind::REDUCESCATTER)
      c.blocks = static_cast<int>(c.receivers.size());  // FORMATS.md: one block per receiver
  }

  // FORMATS.md: under nonminimal routing without `extra_hops` nothing caps a path. A path
  // that repeats no channel (rule 1) has at most as many hops as there are channels, so
  // the channel count is a cap that never binds, and it keeps d + extra_hops in range for
  // anything that later builds paths from this model.
  static int uncapped_extra_hops(const Topology& t) { return std::max(1, t.channel_count()); }

  void read_model(const json& v, Model& m) const {
    const json& ports = member(v, "model", "ports");
    if (ports.is_string()) {
      if (ports.get<std::string>() != "all")
        fail("model.ports", "expected a positive integer or \"all\", got " + ports.dump());
      m.ports.reset();
    } else {
      if (!ports.is_number_integer())
        fail("model.ports", "expected a positive integer or \"all\", got " + describe(ports));
      m.ports = static_cast<int>(
          integer(ports, "model.ports", 1, std::numeric_limits<std::int32_t>::max()));
    }
    const std::string switching = string(member(v, "model", "switching"), "model.switching");
    if (switching == "wormhole")
      m.switching = Switching::wormhole;
    else if (switching == "store-and-forward")
      m.switching = Switching::store_and_forward;
    else
      fail("model.switching",
           "expected \"wormhole\" or \"store-and-forward\", got \"" + switching + "\"");
    const std::string routing = string(member(v, "model", "routing"), "model.routing");
    if (routing == "minimal")
      m.routing = Routing::minimal;
    else if (routing == "nonminimal")
      m.routing = Routing::nonminimal;
    else
      fail("model.routing", "expected \"minimal\" or \"nonminimal\", got \"" + routing + "\"");
    m.combining = boolean(member(v, "model", "combining"), "model.combining");
    if (const auto it = v.find("extra_hops"); it != v.end())
      m.extra_hops = static_cast<int>(
          integer(*it, "model.extra_hops", 0, std::numeric_limits<std::int32_t>::max()));
  }

  void read_messages(const json& v, Collective& c) const {
    c.messages.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string path = sub("messages", i);
      const json& m = object(v[i], path);
      Message msg;
      msg.id = id(member(m, path, "id"), sub(path, "id"));
      msg.origin = id(member(m, path, "origin"), sub(path, "origin"));
      msg.targets = ids(member(m, path, "targets"), sub(path, "targets"));
      c.messages.push_back(std::move(msg));
    }
  }

  // A message transfer has `messages`; a reduction transfer has `blocks`, `send` and
  // `recv`, and `messages` only if the document says so (the verifier reports a
  // reduction transfer that carries messages, rule R1).
  void read_transfers(const json& v, bool reduction, std::vector<Transfer>& out) const {
    out.reserve(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
      const std::string path = sub("transfers", i);
      const json& t = object(v[i], path);
      Transfer tr;
      tr.step = count(member(t, path, "step"), sub(path, "step"));
      tr.path = ids(member(t, path, "path"), sub(path, "path"));
      if (!reduction || t.contains("messages"))
        tr.messages = ids(member(t, path, "messages"), sub(path, "messages"));
      if (reduction) {
        tr.blocks = ids(member(t, path, "blocks"), sub(path, "blocks"));
        tr.send = second_of(t, path, "send", "input", "acc") ? ReductionSend::acc
                                                             : ReductionSend::input;
        tr.recv = second_of(t, path, "recv", "reduce", "copy") ? ReductionRecv::copy
                                                               : ReductionRecv::reduce;
      }
      out.push_back(std::move(tr));
    }
  }

  // A key whose value is one of two words: false for `first`, true for `second`.
  bool second_of(const json& obj, const std::string& path, const char* key, const char* first,
                 const char* second) const {
    const std::string where = sub(path, key);
    const std::string word = string(member(obj, path, key), where);
    if (word != first && word != second)
      fail(where, fmt::format("expected \"{}\" or \"{}\", got \"{}\"", first, second, word));
    return word == second;
  }

  SolverInfo read_solver(const json& v) const {
    SolverInfo info;
    if (const auto it = v.find("engine"); it != v.end()) info.engine = string(*it, "solver.engine");
    if (const auto it = v.find("seed"); it != v.end()) {
      if (!it->is_number_unsigned())
        fail("solver.seed", "expected a non-negative integer, got " + describe(*it));
      info.seed = it->get<std::uint64_t>();
    }
    if (const auto it = v.find("seconds"); it != v.end()) {
      if (!it->is_number()) fail("solver.seconds", "expected a number, got " + describe(*it));
      info.seconds = it->get<double>();
    }
    return info;
  }

 private:
  std::string where_;
};

}  // namespace

std::string write_schedule_json(const Schedule& s) {
  ordered_json doc;
  doc["format"] = kFormat;
  doc["topology"] = ordered_json::parse(write_topology(s.topology, TopologyFormat::json));

  ordered_json collective;
  collective["kind"] = kind_text(s.collective.kind);
  collective["senders"] = s.collective.senders;
  collective["receivers"] = s.collective.receivers;
  const bool reduction = reduction_kind(s.collective.kind);
  if (reduction) collective["blocks"] = s.collective.blocks;
  doc["collective"] = std::move(collective);

  ordered_json model;
  if (s.model.ports)
    model["ports"] = *s.model.ports;
  else
    model["ports"] = "all";
  model["switching"] = s.model.switching == Switching::wormhole ? "wormhole" : "store-and-forward";
  model["routing"] = s.model.routing == Routing::minimal ? "minimal" : "nonminimal";
  model["combining"] = s.model.combining;
  if (s.model.routing == Routing::nonminimal) model["extra_hops"] = s.model.extra_hops;
  doc["model"] = std::move(model);

  ordered_json messages = ordered_json::array();
  for (const auto& m : s.collective.messages) {
    ordered_json j;
    j["id"] = m.id;
    j["origin"] = m.origin;
    j["targets"] = m.targets;
    messages.push_back(std::move(j));
  }
  doc["messages"] = std::move(messages);
  doc["steps"] = s.steps;

  ordered_json transfers = ordered_json::array();
  for (const auto& t : s.transfers) {
    ordered_json j;
    j["step"] = t.step;
    j["path"] = t.path;
    // A reduction transfer is written as FORMATS.md shows it; messages only if it has some
    // (an invalid transfer is written as it is, for the verifier to report).
    if (!reduction || !t.messages.empty()) j["messages"] = t.messages;
    if (reduction) {
      j["blocks"] = t.blocks;
      j["send"] = to_string(t.send);
      j["recv"] = to_string(t.recv);
    }
    transfers.push_back(std::move(j));
  }
  doc["transfers"] = std::move(transfers);
  if (s.lower_bound) doc["lower_bound"] = *s.lower_bound;
  doc["optimal"] = s.optimal;
  if (s.optimal_within) doc["optimal_within"] = *s.optimal_within;
  if (s.direct_delivery_bound) doc["direct_delivery_bound"] = *s.direct_delivery_bound;
  if (s.solver) {
    ordered_json solver;
    solver["engine"] = s.solver->engine;
    solver["seed"] = s.solver->seed;
    solver["seconds"] = s.solver->seconds;
    doc["solver"] = std::move(solver);
  }

  std::string out;
  emit(out, doc, 0);
  out += "\n";
  return out;
}

Schedule read_schedule_json(std::string_view text, std::string_view where) {
  return Reader(where).read(text);
}

Schedule read_schedule_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InvalidInput("is a directory", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput("cannot open file", path);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw InvalidInput("cannot read file", path);
  return read_schedule_json(buffer.str(), path);
}

}  // namespace ccsched
