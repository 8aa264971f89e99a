// Schedules at scale (docs/RELIABILITY.md "Limits"): the streamed writer lays a document out
// exactly as the whole-tree layout of FORMATS.md does, the SAX reader gives back what was
// written whatever the key order and gives the same errors as a reader of the whole tree
// (same text, same precedence), the flat verifier reports what the rules say in the order
// they say it, and the overview replaces the table past the limit. The 65,280-transfer
// hypercube:8 AAS (support.hpp) goes through write, read and verify: correctness at size,
// not time.
#include <fmt/core.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "ccsched/core/error.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/tables.hpp"
#include "ccsched/schedule/verify.hpp"
#include "support.hpp"

namespace ccsched {
namespace {

using nlohmann::ordered_json;

// FORMATS.md's layout, written here from the document tree: the top-level object and its
// object members one key per line, arrays of objects or arrays one compact element per
// line, everything else compact.
void layout(std::string& out, const ordered_json& v, int depth) {
  const std::string pad(static_cast<std::size_t>(2 * (depth + 1)), ' ');
  const std::string close(static_cast<std::size_t>(2 * depth), ' ');
  if (v.is_object() && depth <= 1 && !v.empty()) {
    out += "{\n";
    std::size_t k = 0;
    for (const auto& [key, value] : v.items()) {
      out += pad + ordered_json(key).dump() + ": ";
      layout(out, value, depth + 1);
      out += ++k < v.size() ? ",\n" : "\n";
    }
    out += close + "}";
  } else if (v.is_array() && std::any_of(v.begin(), v.end(),
                                         [](const ordered_json& e) { return e.is_structured(); })) {
    out += "[\n";
    for (std::size_t i = 0; i < v.size(); ++i)
      out += pad + v[i].dump() + (i + 1 < v.size() ? ",\n" : "\n");
    out += close + "]";
  } else {
    out += v.dump();
  }
}

std::string relaid(const std::string& text) {
  std::string out;
  layout(out, ordered_json::parse(text), 0);
  return out + "\n";
}

std::string error_of(const std::string& text) { return test::read_error(text); }

std::vector<std::string> texts(const std::vector<Violation>& vs) {
  std::vector<std::string> out;
  for (const auto& v : vs) out.push_back(v.text);
  return out;
}

TEST(ScheduleScale, StreamedWriterKeepsTheLayout) {
  for (const Schedule& s : {test::ring4_aas(), test::ring4_oab(), test::ring4_reduce_scatter()}) {
    const std::string text = write_schedule_json(s);
    EXPECT_EQ(text, relaid(text));
    std::ostringstream streamed;
    write_schedule_json(s, streamed);
    EXPECT_EQ(streamed.str(), text);
  }
  Schedule empty = test::ring4_aas();
  empty.transfers.clear();
  empty.collective.messages.clear();
  const std::string text = write_schedule_json(empty);
  EXPECT_NE(text.find("\"messages\": [],"), std::string::npos) << text;
  EXPECT_EQ(text, relaid(text));
}

TEST(ScheduleScale, StreamReaderMatchesTextReader) {
  const Schedule s = test::ring4_reduce_scatter();
  const std::string text = write_schedule_json(s);
  std::istringstream in(text);
  EXPECT_EQ(write_schedule_json(read_schedule_json(in, "s.json")), text);
  std::istringstream broken(text.substr(0, text.size() / 2));
  try {
    read_schedule_json(broken, "s.json");
    FAIL() << "a truncated stream was read";
  } catch (const InvalidInput& e) {
    EXPECT_EQ(std::string(e.what()).rfind("s.json: not valid JSON: ", 0), 0U) << e.what();
  }
}

// What a text reads as (the writer's text of the schedule) or the error it gives, read from
// memory (the fast path first) or from a stream (the SAX pass only).
std::pair<std::string, std::string> read_both(const std::string& text) {
  std::string results[2];
  for (int how = 0; how < 2; ++how) {
    try {
      std::istringstream in(text);
      results[how] = write_schedule_json(how == 0 ? read_schedule_json(text, "f.json")
                                                  : read_schedule_json(in, "f.json"));
    } catch (const InvalidInput& e) {
      results[how] = std::string("error: ") + e.what();
    }
  }
  return {results[0], results[1]};
}

// The fast path (json.cpp) reads the writer's documents as the SAX pass does, and gives up
// on anything else, so every variation reads, or fails, as before.
TEST(ScheduleScale, FastPathAgreesWithTheSaxPass) {
  Schedule combined = test::ring4_aas();
  combined.model.combining = true;
  combined.transfers[0].messages.push_back(combined.transfers[1].messages.front());
  for (const Schedule& s : {test::ring4_aas(), test::ring4_oab(), test::ring4_reduce_scatter(),
                            test::hypercube_xor_aas(4), combined}) {
    const std::string text = write_schedule_json(s);
    const auto [fast, sax] = read_both(text);
    EXPECT_EQ(fast, text);
    EXPECT_EQ(sax, text);
  }
  const std::string text = write_schedule_json(test::ring4_aas());
  const auto replaced = [&](const std::string& from, const std::string& to) {
    std::string out = text;
    const auto at = out.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return out.replace(at, from.size(), to);
  };
  const std::string variants[] = {
      replaced("{\"step\":1,", "{ \"step\" : 1 ,"),             // spaces in an element
      replaced("{\"step\":1,", "{\"step\":1.0,"),                // a float step
      replaced("{\"step\":1,", "{\"step\":01,"),                 // a leading zero
      replaced("{\"step\":1,", "{\"step\":-1,"),                 // a negative step
      replaced("{\"step\":1,", "{\"step\":4294967296,"),         // past 32 bits
      replaced("{\"step\":1,", "{\"step\":1,\"note\":\"x\","),  // an unknown key
      replaced("\"steps\":", "\"transfers\": [],\n  \"steps\":"),  // transfers twice
      replaced("\"messages\": [", "\"messages\": [\n    {\"id\":0,\"origin\":0,\"targets\":[1]},"),
      replaced("\"transfers\"", "\"trans\\u0066ers\""),  // an escaped key
      replaced("\"optimal\"", "\"optimal\" :: "),          // a syntax error in the head
      text.substr(0, text.size() - 40),                     // cut short
      text + "x",                                           // trailing garbage
  };
  for (const std::string& v : variants) {
    const auto [fast, sax] = read_both(v);
    EXPECT_EQ(fast, sax) << v.substr(0, 200);
  }
}

// The elements of `transfers` may come before `collective` says their shape (messages or
// blocks): they are read the same, and damaged ones are named the same.
TEST(ScheduleScale, KeyOrderDoesNotMatter) {
  for (const Schedule& s : {test::ring4_aas(), test::ring4_reduce_scatter()}) {
    const auto doc = ordered_json::parse(write_schedule_json(s));
    ordered_json reordered;
    reordered["transfers"] = doc["transfers"];
    reordered["messages"] = doc["messages"];
    for (const auto& [key, value] : doc.items())
      if (key != "transfers" && key != "messages") reordered[key] = value;
    EXPECT_EQ(write_schedule_json(read_schedule_json(reordered.dump(), "r.json")),
              write_schedule_json(s));
    reordered["transfers"][1]["step"] = "two";
    EXPECT_EQ(error_of(reordered.dump()),
              "bad.json: transfers[1].step: expected an integer, got string \"two\"");
  }
}

// Conversion errors wait for the document's end and for the checks a whole-tree reader
// made first: syntax, then the keys before `transfers` (here `steps`).
TEST(ScheduleScale, ErrorPrecedenceIsTheWholeTreeReaders) {
  auto doc = ordered_json::parse(write_schedule_json(test::ring4_aas()));
  doc["transfers"][0]["path"][1] = -1.5;
  const std::string damaged = doc.dump();
  EXPECT_EQ(error_of(damaged),
            "bad.json: transfers[0].path[1]: expected an integer, got number -1.5");
  EXPECT_EQ(error_of(damaged.substr(0, damaged.size() - 1)).rfind("bad.json: not valid JSON", 0),
            0U);
  auto no_steps = doc;
  no_steps.erase("steps");
  EXPECT_EQ(error_of(no_steps.dump()), "bad.json: missing key \"steps\"");
  auto bad_message = doc;
  bad_message["messages"][2].erase("origin");
  EXPECT_EQ(error_of(bad_message.dump()), "bad.json: messages[2]: missing key \"origin\"");
}

// Shapes the quick conversion leaves to the Reader: a repeated key (the last one wins, as
// in nlohmann's tree), an unknown key (ignored), an id out of the 32-bit range (an error).
TEST(ScheduleScale, UnusualElementsReadAsBefore) {
  const std::string text = write_schedule_json(test::ring4_aas());
  const std::string first = "{\"step\":1,\"path\":[0,1],\"messages\":[0]}";
  ASSERT_NE(text.find(first), std::string::npos);
  auto with = [&](const std::string& element) {
    std::string t = text;
    t.replace(t.find(first), first.size(), element);
    return t;
  };
  const Schedule repeated =
      read_schedule_json(with("{\"step\":2,\"path\":[0,1],\"messages\":[0],\"step\":1}"), "r");
  EXPECT_EQ(repeated.transfers[0].step, 1);
  const Schedule unknown =
      read_schedule_json(with("{\"step\":1,\"note\":[1,{}],\"path\":[0,1],\"messages\":[0]}"), "u");
  EXPECT_EQ(unknown.transfers[0].path, (std::vector<NodeId>{0, 1}));
  EXPECT_EQ(error_of(with("{\"step\":1,\"path\":[0,4294967296],\"messages\":[0]}")),
            "bad.json: transfers[0].path[1]: integer 4294967296 is out of range "
            "-2147483648..2147483647");
  EXPECT_EQ(error_of(with("[1]")), "bad.json: transfers[0]: expected an object, got array");
  // Nested far deeper than any call stack would survive: read without recursion.
  const std::string deep = std::string(200000, '[') + std::string(200000, ']');
  EXPECT_EQ(error_of(with(deep)), "bad.json: transfers[0]: expected an object, got array");
}

// Rule 3 reports in transfer order even when the steps interleave; rule 4 in step, then
// node order, first nodes before last nodes.
TEST(ScheduleScale, ViolationOrderIsTransferOrder) {
  Schedule s = test::ring4_aas();
  s.transfers = {{2, {0, 1}, {0}}, {1, {2, 3}, {8}}, {2, {0, 1, 2}, {1}}, {1, {2, 3, 0}, {6}}};
  s.model.ports = 1;
  std::vector<std::string> channels, ports;
  for (const auto& v : verify_schedule(s)) {
    if (v.rule == 3) channels.push_back(v.text);
    if (v.rule == 4) ports.push_back(v.text);
  }
  const auto& t = s.topology;
  const ChannelId a = *t.find_channel(0, 1), b = *t.find_channel(2, 3);
  EXPECT_EQ(channels,
            (std::vector<std::string>{
                fmt::format("rule 3 (channels): step 2, transfers 0 and 2 both use channel {} "
                            "(0->1)",
                            a),
                fmt::format("rule 3 (channels): step 1, transfers 1 and 3 both use channel {} "
                            "(2->3)",
                            b)}));
  EXPECT_EQ(ports, (std::vector<std::string>{
                       "rule 4 (ports): step 1, processor 2 is the first node of 2 transfers "
                       "(limit 1): transfers 1, 3",
                       "rule 4 (ports): step 2, processor 0 is the first node of 2 transfers "
                       "(limit 1): transfers 0, 2"}));
}

TEST(ScheduleScale, HypercubeAasRoundTripsAndVerifies) {
  const Schedule s = test::hypercube_xor_aas(8);
  ASSERT_EQ(s.transfers.size(), 65280U);
  const std::string text = write_schedule_json(s);
  const Schedule back = read_schedule_json(text, "h.json");
  ASSERT_EQ(back.transfers.size(), s.transfers.size());
  ASSERT_EQ(back.collective.messages.size(), s.collective.messages.size());
  for (std::size_t i = 0; i < s.transfers.size(); i += 997) {
    EXPECT_EQ(back.transfers[i].step, s.transfers[i].step);
    EXPECT_EQ(back.transfers[i].path, s.transfers[i].path);
    EXPECT_EQ(back.transfers[i].messages, s.transfers[i].messages);
  }
  EXPECT_EQ(write_schedule_json(back), text);
  EXPECT_EQ(texts(verify_schedule(back)), std::vector<std::string>{});

  // One transfer moved onto a channel another holds, and into a second send by the same
  // processor: exactly those two violations, naming the right transfers.
  Schedule broken = back;
  const std::size_t p = 256;
  broken.transfers[p * 2 + 5].step = 1;  // step 3, from 5 to 5 xor 3 = 6: 5->4, 4->6
  const auto found = texts(verify_schedule(broken));
  const ChannelId c = *broken.topology.find_channel(5, 4);
  EXPECT_EQ(found, (std::vector<std::string>{
                       fmt::format("rule 3 (channels): step 1, transfers 5 and {} both use "
                                   "channel {} (5->4)",
                                   p * 2 + 5, c),
                       fmt::format("rule 4 (ports): step 1, processor 5 is the first node of 2 "
                                   "transfers (limit 1): transfers 5, {}",
                                   p * 2 + 5),
                       fmt::format("rule 4 (ports): step 1, processor 6 is the last node of 2 "
                                   "transfers (limit 1): transfers 7, {}",
                                   p * 2 + 5)}))
      << fmt::format("{}", fmt::join(found, "\n"));
}

// A schedule broken throughout: the capped verifier keeps the first violations of the full
// list, in the same order, and counts them all.
TEST(ScheduleScale, CappedVerifierKeepsTheFirstAndCountsAll) {
  Schedule s = test::hypercube_xor_aas(6);
  for (auto& t : s.transfers) t.step = 1;
  const auto all = texts(verify_schedule(s));
  ASSERT_GT(all.size(), 1000U);
  std::size_t total = 0;
  const auto first = texts(verify_schedule(s, 1000, total));
  EXPECT_EQ(total, all.size());
  EXPECT_EQ(first, std::vector<std::string>(all.begin(), all.begin() + 1000));
  EXPECT_EQ(texts(verify_schedule(s, 0, total)), all);
  EXPECT_EQ(total, all.size());
}

// Past the limit the overview replaces the table: a row per step with what the design
// implies (step k: P transfers, P popcount(k) channels, one send and one receive each).
TEST(ScheduleScale, OverviewReplacesTheTablePastTheLimit) {
  const Schedule s = test::hypercube_xor_aas(6);  // 4,032 transfers, 63 steps
  EXPECT_TRUE(table_within(s, 0));
  EXPECT_TRUE(table_within(s, 4032));
  EXPECT_FALSE(table_within(s, 4031));
  EXPECT_EQ(format_table_or_overview(s, TableLayout::automatic, 4032, "--x"),
            format_schedule_table(s));
  const std::string o = format_table_or_overview(s, TableLayout::automatic, 1000, "--x 0");
  EXPECT_EQ(o.rfind("table left out: 4032 transfers in 63 steps, more than the limit of 1000 "
                    "(--x 0 prints it)",
                    0),
            0U)
      << o;
  std::istringstream lines(o);
  std::vector<std::string> row;
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("7 ", 0) == 0) {
      std::istringstream words(line);
      for (std::string w; words >> w;) row.push_back(w);
    }
  EXPECT_EQ(row, (std::vector<std::string>{"7", "64", "192/384", "50.0", "1", "1", "3"})) << o;
  EXPECT_NE(o.find("total: 4032 transfers; 12288/24192 channel-steps (50.8 %); at most 384 "
                   "channels in a step, 1 send and 1 receive by one processor in a step; "
                   "longest path 6 hops\n"),
            std::string::npos)
      << o;
  EXPECT_THROW(format_table_or_overview(s, TableLayout::steps, 1000, "--x 0"), InvalidParameter);
}

// A reduction's steps table names the senders each value sums; past 16 they are written by
// runs, so the padded column stays narrow. A chain REDUCE on ring:40 into 0: in step k,
// node 40-k sends what it holds to 39-k, so the last value sums the inputs of 1..39.
TEST(ScheduleScale, LargeSenderSetsAreWrittenByRuns) {
  Schedule s;
  s.topology = test::ring(40);
  s.collective.kind = CollectiveKind::REDUCE;
  for (NodeId v = 0; v < 40; ++v) s.collective.senders.push_back(v);
  s.collective.receivers = {0};
  s.model.ports = 1;
  s.steps = 39;
  for (Step k = 1; k <= 39; ++k)
    s.transfers.push_back(test::reduction_transfer(
        k, {40 - k, 39 - k}, {0}, k == 1 ? ReductionSend::input : ReductionSend::acc));
  ASSERT_EQ(texts(verify_schedule(s)), std::vector<std::string>{});
  const std::string table = format_schedule_table(s);
  EXPECT_NE(table.find("step 39:  1 -> 0    acc{1..39} "), std::string::npos) << table;
  EXPECT_NE(table.find("acc{23..39} "), std::string::npos) << table;  // 17: a run
  EXPECT_NE(table.find("acc{24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39} "),
            std::string::npos)
      << table;  // 16: listed
  EXPECT_NE(table.find("  0  block 0:  {0..39}  complete\n"), std::string::npos) << table;
  std::istringstream lines(table);
  for (std::string line; std::getline(lines, line);) EXPECT_LT(line.size(), 100U) << line;

  // Every even node's input straight into 0 (the table judges nothing): 20 runs of one,
  // cut short after 8.
  s.transfers.clear();
  s.steps = 1;
  for (NodeId v = 2; v < 40; v += 2)
    s.transfers.push_back(test::reduction_transfer(1, {v, 0}, {0}, ReductionSend::input));
  const std::string scattered = format_schedule_table(s);
  EXPECT_NE(scattered.find("{0,2,4,6,8,10,12,14,...; 20 in all}"), std::string::npos) << scattered;
}

}  // namespace
}  // namespace ccsched
