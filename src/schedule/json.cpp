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
// Reductions (FORMATS.md "Reductions"): `collective.blocks` is written for them (and for an
// AAB of several blocks, FORMATS.md "Several blocks") only; their
// transfers carry `blocks`, `send` and `recv` instead of `messages`, and the top-level
// `messages` is written as [] (the reader takes it as absent or []). Which of the two
// transfer shapes the reader expects follows the collective kind, read first.
//
// Scale (docs/RELIABILITY.md "Limits"): an AAS on 1,000 processors has about a million
// messages and a million transfers, so neither side holds a JSON tree of the whole
// document. The writer emits the small members through nlohmann and streams `messages` and
// `transfers` element by element, in the same bytes. The reader runs nlohmann's SAX parser:
// everything but the elements of the top-level `messages` and `transfers` arrays becomes a
// (small) tree as before, and each of those elements becomes a tree of its own, converted
// and dropped as soon as it closes. Conversion errors are held back until the document has
// been read to the end and checked in the old order (JSON syntax, format, topology, ...,
// messages, steps, transfers), so every message and its place are what the whole-tree
// reader said.
#include "ccsched/schedule/json.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>
#include <cctype>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/topology/io.hpp"

namespace ccsched {
namespace {

// Appends the decimal form of v (the streamed writer; fmt's format_to into a string does
// not link under clang against Debian's libfmt 9, the fuzz build's compiler).
void append_int(std::string& out, long long v) {
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
  out.append(digits, end);
}

using nlohmann::json;
using nlohmann::ordered_json;

constexpr std::string_view kFormat = "ccsched-schedule/1";

// In CollectiveKind order (the reader converts an index back into the kind).
constexpr std::string_view kKindNames[] = {"OAB",       "AAB",           "OAS",  "AAS",    "AOG",
                                           "MNB",       "MNS",           "PERM", "CUSTOM", "REDUCE",
                                           "ALLREDUCE", "REDUCESCATTER", "SCAN"};
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

// The top-level `messages` and `transfers` arrays as the SAX pass converted them (see the
// file comment). A flag is set when that array was streamed; the tree then holds it empty.
struct StreamedArrays {
  bool messages = false;
  std::vector<Message> message_list;
  std::exception_ptr message_error;  // the first element that did not convert
  bool transfers = false;
  std::optional<bool> transfers_reduction;  // the shape the elements were read as, if known
  std::vector<Transfer> transfer_list;
  std::exception_ptr transfer_error;
  json pending_transfers = json::array();  // elements kept as trees while the shape was unknown
};

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

  // The document once parsed: `doc` is the tree of everything but what was streamed; the
  // elements of a streamed `messages` or `transfers` array are in `streamed`, already
  // converted, with the first conversion error held back (see the file comment).
  Schedule read(const json& doc, StreamedArrays& streamed) const {
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
    if (!reduction || doc.contains("messages")) {
      const json& messages = array(member(doc, "", "messages"), "messages");
      if (streamed.messages) {
        if (streamed.message_error) std::rethrow_exception(streamed.message_error);
        s.collective.messages = std::move(streamed.message_list);
      } else {
        read_messages(messages, s.collective);
      }
    }
    s.steps = count(member(doc, "", "steps"), "steps");
    const json& transfers = array(member(doc, "", "transfers"), "transfers");
    if (streamed.transfers) {
      // An array that arrived before the collective said which shape to expect was kept as
      // trees (a document written in another key order); it is converted now.
      if (!streamed.transfers_reduction) {
        read_transfers(streamed.pending_transfers, 0, reduction, s.transfers);
      } else if (*streamed.transfers_reduction != reduction) {
        fail("collective", "given twice, with kinds whose transfers differ in shape");
      } else {
        if (streamed.transfer_error) std::rethrow_exception(streamed.transfer_error);
        s.transfers = std::move(streamed.transfer_list);
      }
    } else {
      read_transfers(transfers, 0, reduction, s.transfers);
    }
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
    // Only reductions and AAB have blocks; for other kinds the key is ignored like any
    // unknown key, so that what is read is what would be written. 0 is well-typed and left
    // to the verifier (rules R1 and 10); a negative count is not a count.
    if (!reduction_kind(c.kind) && c.kind != CollectiveKind::AAB) return;
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
    for (std::size_t i = 0; i < v.size(); ++i) c.messages.push_back(read_message(v[i], i));
  }

  Message read_message(const json& v, std::size_t i) const {
    const std::string path = sub("messages", i);
    const json& m = object(v, path);
    Message msg;
    msg.id = id(member(m, path, "id"), sub(path, "id"));
    msg.origin = id(member(m, path, "origin"), sub(path, "origin"));
    msg.targets = ids(member(m, path, "targets"), sub(path, "targets"));
    return msg;
  }

  // Elements of `transfers` from index `first` on (a streamed array's held-back ones).
  void read_transfers(const json& v, std::size_t first, bool reduction,
                      std::vector<Transfer>& out) const {
    out.reserve(out.size() + v.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      out.push_back(read_transfer(v[i], first + i, reduction));
  }

  // A message transfer has `messages`; a reduction transfer has `blocks`, `send` and
  // `recv`, and `messages` only if the document says so (the verifier reports a
  // reduction transfer that carries messages, rule R1).
  Transfer read_transfer(const json& v, std::size_t i, bool reduction) const {
    const std::string path = sub("transfers", i);
    const json& t = object(v, path);
    Transfer tr;
    tr.step = count(member(t, path, "step"), sub(path, "step"));
    tr.path = ids(member(t, path, "path"), sub(path, "path"));
    if (!reduction || t.contains("messages"))
      tr.messages = ids(member(t, path, "messages"), sub(path, "messages"));
    if (reduction) {
      tr.blocks = ids(member(t, path, "blocks"), sub(path, "blocks"));
      tr.send =
          second_of(t, path, "send", "input", "acc") ? ReductionSend::acc : ReductionSend::input;
      tr.recv = second_of(t, path, "recv", "reduce", "copy") ? ReductionRecv::copy
                                                             : ReductionRecv::reduce;
    }
    return tr;
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
    if (const auto it = v.find("clock_cut"); it != v.end()) {
      if (!it->is_boolean()) fail("solver.clock_cut", "expected true or false, got " + describe(*it));
      info.clock_cut = it->get<bool>();
    }
    return info;
  }

 private:
  std::string where_;
};

// Whether a `collective` value names a reduction kind, when it names a known kind.
std::optional<bool> reduction_of(const json& collective) {
  if (!collective.is_object()) return std::nullopt;
  const auto kind = collective.find("kind");
  if (kind == collective.end() || !kind->is_string()) return std::nullopt;
  std::string upper = kind->get<std::string>();
  std::transform(upper.begin(), upper.end(), upper.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::toupper(ch)); });
  const auto* found = std::find(std::begin(kKindNames), std::end(kKindNames), upper);
  if (found == std::end(kKindNames)) return std::nullopt;
  return reduction_kind(static_cast<CollectiveKind>(found - std::begin(kKindNames)));
}

// Adds a value where a tree builder is: the root when nothing is open, else the end of the
// innermost open array or the member `key` of the innermost open object (a repeated key:
// the last value wins, as in nlohmann's own builder). Returns where it went, which stays
// valid while it is the innermost open container (nlohmann builds its trees the same way).
json* put_value(json& root, const std::vector<json*>& open, const std::string& key, json&& v) {
  if (open.empty()) {
    root = std::move(v);
    return &root;
  }
  json& top = *open.back();
  if (top.is_array()) {
    top.push_back(std::move(v));
    return &top.back();
  }
  json& slot = top[key];
  slot = std::move(v);
  return &slot;
}

// One JSON event of an element of a streamed array (SchedulePass), kept until the element
// closes. Strings (keys and string values) live in the pass's pool, by index.
struct Token {
  enum class Kind : std::uint8_t {
    begin_object,
    end_object,
    begin_array,
    end_array,
    key,
    null,
    boolean,
    integer,
    unsigned_integer,
    floating,
    string
  };
  Kind kind;
  bool flag = false;  // boolean
  std::int64_t integer = 0;
  std::uint64_t unsigned_integer = 0;
  double floating = 0;
  std::size_t text = 0;  // key, string: index into the string pool
};

// The SAX side of the reader: builds the tree of the document event by event, except for
// the elements of the top-level `messages` and `transfers` arrays. Each of those is kept as
// a list of events until it closes, then converted at once: directly when it has exactly
// the shape the writer gives it (the common case, no tree built), else through a tree and
// the Reader's own conversion, which gives every error and every tolerance (unknown keys,
// repeated keys) exactly as for a document read whole. nlohmann's parser calls these
// members by name (its json_sax concept); returning false stops it.
class SchedulePass {
 public:
  SchedulePass(const Reader& reader, json& root, StreamedArrays& streamed)
      : reader_(reader), root_(root), streamed_(streamed) {}

  const std::string& syntax_error() const { return syntax_error_; }

  bool null() { return in_element() ? token({Token::Kind::null}) : value(nullptr); }
  bool boolean(bool v) {
    return in_element() ? token({.kind = Token::Kind::boolean, .flag = v}) : value(v);
  }
  bool number_integer(json::number_integer_t v) {
    return in_element() ? token({.kind = Token::Kind::integer, .integer = v}) : value(v);
  }
  bool number_unsigned(json::number_unsigned_t v) {
    return in_element() ? token({.kind = Token::Kind::unsigned_integer, .unsigned_integer = v})
                        : value(v);
  }
  bool number_float(json::number_float_t v, const std::string& /*text*/) {
    return in_element() ? token({.kind = Token::Kind::floating, .floating = v}) : value(v);
  }
  bool string(std::string& v) {
    if (!in_element()) return value(std::move(v));
    return token({.kind = Token::Kind::string, .text = pool(v)});
  }
  bool binary(json::binary_t& v) { return in_element() ? token({Token::Kind::null}) : value(v); }

  bool start_object(std::size_t /*size*/) {
    return in_element() ? token({Token::Kind::begin_object}) : open(json::object());
  }
  bool start_array(std::size_t /*size*/) {
    if (in_element()) return token({Token::Kind::begin_array});
    // The top-level `messages` or `transfers` array: its elements are streamed.
    if (stack_.size() == 1 && stack_.back()->is_object() &&
        (key_ == "messages" || key_ == "transfers")) {
      (*stack_.back())[key_] = json::array();  // present and an array, for the Reader's checks
      element_ = key_ == "messages" ? Element::message : Element::transfer;
      index_ = 0;
      begin_array();
      return true;
    }
    return open(json::array());
  }
  bool key(std::string& k) {
    if (in_element()) return token({.kind = Token::Kind::key, .text = pool(k)});
    key_ = std::move(k);
    return true;
  }
  bool end_object() { return in_element() ? token({Token::Kind::end_object}) : close(); }
  bool end_array() {
    if (in_element() && depth_ > 0) return token({Token::Kind::end_array});
    if (in_element()) {  // the streamed array ends
      element_ = Element::none;
      return true;
    }
    return close();
  }

  template <typename Exception>
  bool parse_error(std::size_t /*position*/, const std::string& /*last_token*/,
                   const Exception& e) {
    syntax_error_ = e.what();
    return false;
  }

 private:
  enum class Element { none, message, transfer };

  bool in_element() const { return element_ != Element::none; }

  // A new array replaces an earlier one under the same key (the last value of a repeated
  // key wins, as in nlohmann's own tree builder).
  void begin_array() {
    if (element_ == Element::message) {
      streamed_.messages = true;
      streamed_.message_list.clear();
      streamed_.message_error = nullptr;
      return;
    }
    streamed_.transfers = true;
    streamed_.transfer_list.clear();
    streamed_.transfer_error = nullptr;
    streamed_.pending_transfers = json::array();
    streamed_.transfers_reduction = reduction_known();
  }

  // Whether the collective read so far is a reduction, if its kind can be told yet.
  std::optional<bool> reduction_known() const {
    const auto it = root_.find("collective");
    return it == root_.end() ? std::nullopt : reduction_of(*it);
  }

  // --- the document's tree (everything but the streamed elements) ---

  json* put(json&& v) { return put_value(root_, stack_, key_, std::move(v)); }
  template <typename V>
  bool value(V&& v) {
    put(json(std::forward<V>(v)));
    return true;
  }
  bool open(json&& container) {
    stack_.push_back(put(std::move(container)));
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }

  // --- the elements of a streamed array ---

  std::size_t pool(std::string& s) {
    if (strings_used_ == strings_.size()) strings_.emplace_back();
    strings_[strings_used_].swap(s);
    return strings_used_++;
  }

  bool token(Token t) {
    tokens_.push_back(t);
    if (t.kind == Token::Kind::begin_object || t.kind == Token::Kind::begin_array) ++depth_;
    if (t.kind == Token::Kind::end_object || t.kind == Token::Kind::end_array) --depth_;
    if (depth_ == 0 && t.kind != Token::Kind::key) element_done();
    return true;
  }

  // One element is complete: convert it (once an element has failed, the rest of the array
  // is only parsed, for a syntax error that would come first).
  void element_done() {
    const std::size_t i = index_++;
    if (element_ == Element::message) {
      if (!streamed_.message_error) {
        try {
          Message m;
          if (!quick_message(m)) m = reader_.read_message(tree(), i);
          streamed_.message_list.push_back(std::move(m));
        } catch (const InvalidInput&) {
          streamed_.message_error = std::current_exception();
        }
      }
    } else if (!streamed_.transfers_reduction) {
      streamed_.pending_transfers.push_back(tree());
    } else if (!streamed_.transfer_error) {
      try {
        Transfer t;
        if (!quick_transfer(t, *streamed_.transfers_reduction))
          t = reader_.read_transfer(tree(), i, *streamed_.transfers_reduction);
        streamed_.transfer_list.push_back(std::move(t));
      } catch (const InvalidInput&) {
        streamed_.transfer_error = std::current_exception();
      }
    }
    tokens_.clear();
    strings_used_ = 0;
  }

  // The element as a tree, for the Reader's conversion. Built with an explicit stack, as
  // nlohmann builds its own: an element nested a million deep must not exhaust the stack.
  json tree() const {
    json out;
    std::vector<json*> open;
    std::string key;
    const auto put = [&](json&& v) { return put_value(out, open, key, std::move(v)); };
    for (const Token& t : tokens_) {
      switch (t.kind) {
        case Token::Kind::begin_object:
          open.push_back(put(json::object()));
          break;
        case Token::Kind::begin_array:
          open.push_back(put(json::array()));
          break;
        case Token::Kind::end_object:
        case Token::Kind::end_array:
          open.pop_back();
          break;
        case Token::Kind::key:
          key = strings_[t.text];
          break;
        case Token::Kind::boolean:
          put(t.flag);
          break;
        case Token::Kind::integer:
          put(t.integer);
          break;
        case Token::Kind::unsigned_integer:
          put(t.unsigned_integer);
          break;
        case Token::Kind::floating:
          put(t.floating);
          break;
        case Token::Kind::string:
          put(json(strings_[t.text]));
          break;
        case Token::Kind::null:
          put(nullptr);
          break;
      }
    }
    return out;
  }

  // The quick conversions accept only what the Reader would read the same way: an object
  // whose keys are the expected ones, each once, with values of the expected type in range.
  // Anything else (an unknown or repeated key, a wrong type) returns false, and the Reader
  // decides. `at` walks the tokens.
  static bool quick_int(const Token& t, std::int64_t lo, std::int32_t& out) {
    std::int64_t x = 0;
    if (t.kind == Token::Kind::integer)
      x = t.integer;
    else if (t.kind == Token::Kind::unsigned_integer &&
             t.unsigned_integer <=
                 static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
      x = static_cast<std::int64_t>(t.unsigned_integer);
    else
      return false;
    if (x < lo || x > std::numeric_limits<std::int32_t>::max()) return false;
    out = static_cast<std::int32_t>(x);
    return true;
  }
  bool quick_ids(std::size_t& at, std::vector<std::int32_t>& out) const {
    if (tokens_[at++].kind != Token::Kind::begin_array) return false;
    while (tokens_[at].kind != Token::Kind::end_array) {
      std::int32_t x = 0;
      if (!quick_int(tokens_[at++], std::numeric_limits<std::int32_t>::min(), x)) return false;
      out.push_back(x);
    }
    ++at;
    return true;
  }
  // One of two words: 0 for `first`, 1 for `second`, -1 for anything else.
  int quick_word(const Token& t, std::string_view first, std::string_view second) const {
    if (t.kind != Token::Kind::string) return -1;
    const std::string& word = strings_[t.text];
    return word == first ? 0 : word == second ? 1 : -1;
  }

  bool quick_message(Message& m) const {
    if (tokens_.front().kind != Token::Kind::begin_object) return false;
    unsigned seen = 0;  // bit per key: id, origin, targets
    std::size_t at = 1;
    while (tokens_[at].kind != Token::Kind::end_object) {
      const std::string& k = strings_[tokens_[at++].text];
      const unsigned bit = k == "id" ? 1U : k == "origin" ? 2U : k == "targets" ? 4U : 0U;
      if (bit == 0 || (seen & bit) != 0) return false;
      seen |= bit;
      const std::int64_t lo = std::numeric_limits<std::int32_t>::min();
      if (bit == 1U   ? !quick_int(tokens_[at++], lo, m.id)
          : bit == 2U ? !quick_int(tokens_[at++], lo, m.origin)
                      : !quick_ids(at, m.targets))
        return false;
    }
    return seen == 7U;
  }

  bool quick_transfer(Transfer& t, bool reduction) const {
    if (tokens_.front().kind != Token::Kind::begin_object) return false;
    enum : unsigned { step = 1, path = 2, messages = 4, blocks = 8, send = 16, recv = 32 };
    unsigned seen = 0;
    std::size_t at = 1;
    while (tokens_[at].kind != Token::Kind::end_object) {
      const std::string& k = strings_[tokens_[at++].text];
      const unsigned bit = k == "step"       ? step
                           : k == "path"     ? path
                           : k == "messages" ? messages
                           : !reduction      ? 0U
                           : k == "blocks"   ? blocks
                           : k == "send"     ? send
                           : k == "recv"     ? recv
                                             : 0U;
      if (bit == 0 || (seen & bit) != 0) return false;
      seen |= bit;
      bool ok = true;
      if (bit == step) {
        ok = quick_int(tokens_[at++], 0, t.step);
      } else if (bit == path) {
        ok = quick_ids(at, t.path);
      } else if (bit == messages) {
        ok = quick_ids(at, t.messages);
      } else if (bit == blocks) {
        ok = quick_ids(at, t.blocks);
      } else if (bit == send) {
        const int w = quick_word(tokens_[at++], "input", "acc");
        ok = w >= 0;
        t.send = w == 1 ? ReductionSend::acc : ReductionSend::input;
      } else {
        const int w = quick_word(tokens_[at++], "reduce", "copy");
        ok = w >= 0;
        t.recv = w == 1 ? ReductionRecv::copy : ReductionRecv::reduce;
      }
      if (!ok) return false;
    }
    const unsigned needed =
        reduction ? (step | path | blocks | send | recv) : (step | path | messages);
    return (seen & needed) == needed;
  }

  const Reader& reader_;
  json& root_;
  StreamedArrays& streamed_;
  std::vector<json*> stack_;  // open containers of the document's tree
  std::string key_;
  Element element_ = Element::none;
  std::size_t index_ = 0;             // of the current element in its array
  std::vector<Token> tokens_;         // the current element's events
  int depth_ = 0;                     // containers open in the current element
  std::vector<std::string> strings_;  // its keys and strings (reused, hence the count)
  std::size_t strings_used_ = 0;
  std::string syntax_error_;
};

// The fast path (docs/RELIABILITY.md "Limits"): a document whose `messages` and
// `transfers` elements are all in the exact shape the writer gives them, and whose
// `collective` comes before `transfers`, is read by a scanner of its own: nlohmann's lexer
// costs about 4 s per million transfers, which at 16.8 million would take minutes. The
// scanner copies everything but those two arrays into a small text (with `[]` in their
// place) for nlohmann and the Reader, and converts the elements straight from the bytes.
// At the first thing it does not expect (another key order, whitespace inside an element
// or not, a float, an escape in a top-level key, a syntax error) it gives up and the
// document is read again by the SAX pass above, so every error, tolerance and place stays
// that pass's.
class FastScan {
 public:
  // `more` refills: it returns the next chunk of the text (empty at the end).
  explicit FastScan(std::function<std::string_view()> more) : more_(std::move(more)) {}

  // True when the whole document was scanned; `head` and `streamed` are then filled.
  bool run(std::string& head, StreamedArrays& streamed) {
    head_ = &head;
    streamed_ = &streamed;
    ws(true);
    if (get_copy() != '{') return false;
    ws(true);
    if (peek() == '}') {
      get_copy();
    } else {
      for (;;) {
        std::string key;
        if (!top_key(key)) return false;
        ws(true);
        if (get_copy() != ':') return false;
        ws(true);
        if (key == "messages" || key == "transfers") {
          if (!big_array(key == "messages")) return false;
        } else {
          const std::size_t from = head_->size();
          if (!copy_value()) return false;
          if (key == "collective") {
            if (collective_) return false;  // given twice: the SAX pass decides
            collective_ = head_->substr(from);
          }
        }
        ws(true);
        const int c = get_copy();
        if (c == '}') break;
        if (c != ',') return false;
        ws(true);
      }
    }
    ws(false);
    return peek() == kEnd;
  }

 private:
  static constexpr int kEnd = -1;

  int peek() {
    if (at_ == chunk_.size()) {
      if (done_) return kEnd;
      chunk_ = more_();
      at_ = 0;
      if (chunk_.empty()) {
        done_ = true;
        return kEnd;
      }
    }
    return static_cast<unsigned char>(chunk_[at_]);
  }
  int get() {
    const int c = peek();
    if (c != kEnd) ++at_;
    return c;
  }
  int get_copy() {
    const int c = get();
    if (c != kEnd) head_->push_back(static_cast<char>(c));
    return c;
  }
  static bool space(int c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
  void ws(bool copy) {
    while (space(peek())) copy ? get_copy() : get();
  }
  // Expects exactly `text` (no whitespace) and consumes it.
  bool literal(std::string_view text) {
    for (const char c : text)
      if (get() != static_cast<unsigned char>(c)) return false;
    return true;
  }

  // A top-level key without escapes, copied to the head.
  bool top_key(std::string& key) {
    if (get_copy() != '"') return false;
    for (;;) {
      const int c = get_copy();
      if (c == kEnd || c == '\\' || c < 0x20) return false;
      if (c == '"') return true;
      key.push_back(static_cast<char>(c));
    }
  }

  // Any value, copied as it is; nlohmann checks it when it parses the head.
  bool copy_value() {
    int depth = 0;
    for (;;) {
      const int c = peek();
      if (c == kEnd) return false;
      if (depth == 0 && (c == ',' || c == '}' || c == ']')) return true;  // a scalar's end
      get_copy();
      if (c == '"') {
        for (int d = get_copy(); d != '"'; d = get_copy()) {
          if (d == kEnd || (d == '\\' && get_copy() == kEnd)) return false;
        }
        if (depth == 0) return true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return true;
      }
    }
  }

  // An integer as the writer writes it ('-'? digits, no leading zero) in [lo, INT32_MAX].
  bool integer(std::int64_t lo, std::int32_t& out) {
    bool negative = false;
    if (peek() == '-') {
      get();
      negative = true;
    }
    int c = get();
    if (c < '0' || c > '9') return false;
    std::int64_t x = c - '0';
    int digits = 1;
    while ((c = peek()) >= '0' && c <= '9') {
      if (x == 0 || ++digits > 10) return false;  // a leading zero, or out of range anyway
      x = x * 10 + (get() - '0');
    }
    if (c == '.' || c == 'e' || c == 'E') return false;
    if (negative) x = -x;
    if (x < lo || x > std::numeric_limits<std::int32_t>::max()) return false;
    out = static_cast<std::int32_t>(x);
    return true;
  }
  // `[1,2,3]` (no whitespace).
  bool int_list(std::vector<std::int32_t>& out) {
    if (get() != '[') return false;
    if (peek() == ']') {
      get();
      return true;
    }
    for (;;) {
      std::int32_t x = 0;
      if (!integer(std::numeric_limits<std::int32_t>::min(), x)) return false;
      out.push_back(x);
      const int c = get();
      if (c == ']') return true;
      if (c != ',') return false;
    }
  }
  // One of two quoted words: 0 for `first`, 1 for `second`, -1 otherwise.
  int word(std::string_view first, std::string_view second) {
    if (get() != '"') return -1;
    std::string w;
    for (int c = get(); c != '"'; c = get()) {
      if (c == kEnd || c == '\\' || w.size() > 8) return -1;
      w.push_back(static_cast<char>(c));
    }
    return w == first ? 0 : w == second ? 1 : -1;
  }

  bool message(Message& m) {
    return literal("{\"id\":") && integer(std::numeric_limits<std::int32_t>::min(), m.id) &&
           literal(",\"origin\":") && integer(std::numeric_limits<std::int32_t>::min(), m.origin) &&
           literal(",\"targets\":") && int_list(m.targets) && literal("}");
  }

  bool transfer(Transfer& t, bool reduction) {
    if (!literal("{\"step\":") || !integer(0, t.step) || !literal(",\"path\":") ||
        !int_list(t.path) || get() != ',' || get() != '"')
      return false;
    int c = get();
    if (c == 'm') {  // "messages"
      if (!literal("essages\":") || !int_list(t.messages)) return false;
      if (!reduction) return get() == '}';
      if (!literal(",\"")) return false;
      c = get();
    }
    if (!reduction || c != 'b' || !literal("locks\":") || !int_list(t.blocks) ||
        !literal(",\"send\":"))
      return false;
    const int send = word("input", "acc");
    if (send < 0 || !literal(",\"recv\":")) return false;
    const int recv = word("reduce", "copy");
    if (recv < 0 || get() != '}') return false;
    t.send = send == 1 ? ReductionSend::acc : ReductionSend::input;
    t.recv = recv == 1 ? ReductionRecv::copy : ReductionRecv::reduce;
    return true;
  }

  // The elements of a top-level `messages` or `transfers` array; `[]` goes to the head.
  bool big_array(bool messages) {
    if (get() != '[') return false;
    head_->append("[]");
    std::optional<bool> reduction;
    if (messages) {
      if (streamed_->messages) return false;  // given twice: the SAX pass decides
      streamed_->messages = true;
    } else {
      if (streamed_->transfers || !collective_) return false;
      const json collective = json::parse(*collective_, nullptr, false);
      reduction = reduction_of(collective);
      if (!reduction) return false;
      streamed_->transfers = true;
      streamed_->transfers_reduction = reduction;
    }
    ws(false);
    if (peek() == ']') {
      get();
      return true;
    }
    for (;;) {
      if (messages) {
        Message m;
        if (!message(m)) return false;
        streamed_->message_list.push_back(std::move(m));
      } else {
        Transfer t;
        if (!transfer(t, *reduction)) return false;
        streamed_->transfer_list.push_back(std::move(t));
      }
      ws(false);
      const int c = get();
      if (c == ']') return true;
      if (c != ',') return false;
      ws(false);
    }
  }

  std::function<std::string_view()> more_;
  std::string_view chunk_;
  std::size_t at_ = 0;
  bool done_ = false;
  std::string* head_ = nullptr;
  StreamedArrays* streamed_ = nullptr;
  std::optional<std::string> collective_;  // the text of the top-level `collective`
};

// The fast path: the schedule when FastScan reads the whole text `more` yields, else
// nothing (the caller reads it again with read_document).
std::optional<Schedule> read_fast(const std::function<std::string_view()>& more,
                                  std::string_view where) {
  std::string head;
  StreamedArrays streamed;
  if (!FastScan(more).run(head, streamed)) return std::nullopt;
  const json doc = json::parse(head, nullptr, false);
  if (doc.is_discarded()) return std::nullopt;
  return Reader(where).read(doc, streamed);
}

// Parses `input` (anything nlohmann's sax_parse takes) and reads the schedule in it.
template <typename Input>
Schedule read_document(Input&& input, std::string_view where) {
  const Reader reader(where);
  json doc;
  StreamedArrays streamed;
  SchedulePass pass(reader, doc, streamed);
  if (!json::sax_parse(std::forward<Input>(input), &pass)) {
    std::string what = pass.syntax_error();
    // "[json.exception.parse_error.101] parse error at line 1, ...": keep the human part.
    if (const auto close = what.find("] ");
        what.rfind("[json.exception.", 0) == 0 && close != std::string::npos)
      what = what.substr(close + 2);
    reader.fail("", "not valid JSON: " + what);
  }
  return reader.read(doc, streamed);
}

}  // namespace

void write_schedule_json(const Schedule& s, std::ostream& os) {
  // The small members as a tree, written by emit() as they always were.
  ordered_json head;
  head["format"] = kFormat;
  head["topology"] = ordered_json::parse(write_topology(s.topology, TopologyFormat::json));

  ordered_json collective;
  collective["kind"] = kind_text(s.collective.kind);
  collective["senders"] = s.collective.senders;
  collective["receivers"] = s.collective.receivers;
  const bool reduction = reduction_kind(s.collective.kind);
  // AAB writes its blocks only when there are several: a one-block AAB reads and writes as
  // it always did (FORMATS.md "Several blocks").
  if (reduction || (s.collective.kind == CollectiveKind::AAB && s.collective.blocks != 1))
    collective["blocks"] = s.collective.blocks;
  head["collective"] = std::move(collective);

  ordered_json model;
  if (s.model.ports)
    model["ports"] = *s.model.ports;
  else
    model["ports"] = "all";
  model["switching"] = s.model.switching == Switching::wormhole ? "wormhole" : "store-and-forward";
  model["routing"] = s.model.routing == Routing::minimal ? "minimal" : "nonminimal";
  model["combining"] = s.model.combining;
  if (s.model.routing == Routing::nonminimal) model["extra_hops"] = s.model.extra_hops;
  head["model"] = std::move(model);

  ordered_json tail;
  if (s.lower_bound) tail["lower_bound"] = *s.lower_bound;
  tail["optimal"] = s.optimal;
  if (s.optimal_within) tail["optimal_within"] = *s.optimal_within;
  if (s.direct_delivery_bound) tail["direct_delivery_bound"] = *s.direct_delivery_bound;
  if (s.solver) {
    ordered_json solver;
    solver["engine"] = s.solver->engine;
    solver["seed"] = s.solver->seed;
    solver["seconds"] = s.solver->seconds;
    if (s.solver->clock_cut) solver["clock_cut"] = true;
    tail["solver"] = std::move(solver);
  }

  // The output goes to the stream in pieces of about a megabyte.
  std::string out;
  const auto drain = [&](bool always) {
    if (!always && out.size() < (std::size_t{1} << 20)) return;
    os.write(out.data(), static_cast<std::streamsize>(out.size()));
    out.clear();
  };
  bool first_member = true;
  const auto member = [&](std::string_view key) {
    out += first_member ? "{\n  \"" : ",\n  \"";
    first_member = false;
    out += key;
    out += "\": ";
  };
  const auto members = [&](const ordered_json& obj) {
    for (const auto& [key, value] : obj.items()) {
      member(key);
      emit(out, value, 1);
    }
  };
  // An array of objects as emit() lays it out at this depth: one compact element a line.
  const auto streamed_array = [&](std::size_t n, const auto& element) {
    if (n == 0) {
      out += "[]";
      return;
    }
    out += "[\n";
    for (std::size_t i = 0; i < n; ++i) {
      out += "    ";
      element(i);
      out += i + 1 < n ? ",\n" : "\n";
      drain(false);
    }
    out += "  ]";
  };
  // `[1,2,3]`, as nlohmann dumps an array of integers.
  const auto int_list = [&](const std::vector<std::int32_t>& v) {
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i > 0) out += ',';
      append_int(out, v[i]);
    }
    out += ']';
  };

  members(head);
  member("messages");
  streamed_array(s.collective.messages.size(), [&](std::size_t i) {
    const Message& m = s.collective.messages[i];
    out += fmt::format("{{\"id\":{},\"origin\":{},\"targets\":", m.id, m.origin);
    int_list(m.targets);
    out += '}';
  });
  member("steps");
  append_int(out, s.steps);
  member("transfers");
  streamed_array(s.transfers.size(), [&](std::size_t i) {
    const Transfer& t = s.transfers[i];
    out += fmt::format("{{\"step\":{},\"path\":", t.step);
    int_list(t.path);
    // A reduction transfer is written as FORMATS.md shows it; messages only if it has some
    // (an invalid transfer is written as it is, for the verifier to report).
    if (!reduction || !t.messages.empty()) {
      out += ",\"messages\":";
      int_list(t.messages);
    }
    if (reduction) {
      out += ",\"blocks\":";
      int_list(t.blocks);
      out += fmt::format(",\"send\":\"{}\",\"recv\":\"{}\"", to_string(t.send),
                         to_string(t.recv));
    }
    out += '}';
  });
  members(tail);
  out += "\n}\n";
  drain(true);
}

std::string write_schedule_json(const Schedule& s) {
  std::ostringstream out;
  write_schedule_json(s, out);
  return std::move(out).str();
}

Schedule read_schedule_json(std::string_view text, std::string_view where) {
  bool given = false;
  const auto once = [&]() -> std::string_view {
    if (given) return {};
    given = true;
    return text;
  };
  if (auto s = read_fast(once, where)) return std::move(*s);
  return read_document(text, where);
}

Schedule read_schedule_json(std::istream& in, std::string_view where) {
  return read_document(in, where);
}

Schedule read_schedule_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InvalidInput("is a directory", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput("cannot open file", path);
  // Read as a stream: a million-transfer document is never in memory as text (file
  // comment), first by the fast path, then, if it gives up, again by the SAX pass.
  {
    std::vector<char> buffer(std::size_t{1} << 20);
    const auto chunk = [&]() -> std::string_view {
      in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
      return {buffer.data(), static_cast<std::size_t>(in.gcount())};
    };
    std::optional<Schedule> fast = read_fast(chunk, path);
    if (in.bad()) throw InvalidInput("cannot read file", path);
    if (fast) return std::move(*fast);
  }
  in.clear();
  in.seekg(0);
  Schedule s = read_document(in, path);
  if (in.bad()) throw InvalidInput("cannot read file", path);
  return s;
}

}  // namespace ccsched
