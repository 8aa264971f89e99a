// `ccsched verify FILE [--json]`: checks a schedule document against the validity rules
// of FORMATS.md (the ten rules; R1-R3 for reductions) and against its own claims (rule
// "claims": a `lower_bound` above its steps, or `optimal` with steps above the bound).
// Prints "valid ..." or every violation, one line each; exit status 0 valid, 1 invalid or
// contradicted, 2 when the file cannot be read as a schedule (main.cpp prints the
// one-line error). With --json: {"valid": bool, "violations": [{rule, step, transfer,
// channel, node, message, block, text}]}, absent fields as null; `rule` is the number
// 1..10 or the string "R1".."R3" or "claims". Only the first --max-violations (1,000; 0
// for all) are printed, then how many more there are (with --json: "omitted": N): a
// schedule broken throughout has millions (docs/RELIABILITY.md "Limits"). A valid
// schedule with transfers that can each be deleted gets a warning line listing them
// (with --json: "redundant": [indices], null when too large to check); the status stays 0.
#include <fmt/core.h>
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"
#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "commands.hpp"

namespace ccsched::cli {
namespace {

struct VerifyOptions {
  std::string file;
  bool json = false;
  long long max_violations = 1000;
};

template <typename T>
nlohmann::ordered_json or_null(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

void run_verify(const VerifyOptions& o) {
  if (o.max_violations < 0) throw InvalidParameter("must be 0 (all) or more", "--max-violations");
  const Schedule s = read_schedule_file(o.file);
  std::size_t total = 0;
  auto violations = verify_schedule(s, static_cast<std::size_t>(o.max_violations), total);
  // The claims come after the rules; they are few (at most two) and always printed.
  for (auto& v : verify_claims(s)) {
    violations.push_back(std::move(v));
    ++total;
  }
  const std::size_t omitted = total - violations.size();
  // A valid schedule may still carry transfers nothing needs: a warning, not a violation.
  std::optional<std::vector<std::size_t>> redundant;
  if (violations.empty()) redundant = redundant_transfers(s);
  if (o.json) {
    nlohmann::ordered_json doc;
    doc["valid"] = violations.empty();
    doc["violations"] = nlohmann::ordered_json::array();
    for (const auto& v : violations) {
      nlohmann::ordered_json j;
      if (v.rule >= kRuleBlocks)
        j["rule"] = rule_label(v.rule);
      else
        j["rule"] = v.rule;
      j["step"] = or_null(v.step);
      j["transfer"] = or_null(v.transfer);
      j["channel"] = or_null(v.channel);
      j["node"] = or_null(v.node);
      j["message"] = or_null(v.message);
      j["block"] = or_null(v.block);
      j["text"] = v.text;
      doc["violations"].push_back(std::move(j));
    }
    if (omitted > 0) doc["omitted"] = omitted;
    if (violations.empty()) doc["redundant"] = or_null(redundant);
    fmt::print("{}\n", doc.dump(2));
  } else if (violations.empty()) {
    fmt::print("valid: {} on {}, {} in {}\n", to_string(s.collective.kind),
               s.topology.name().empty() ? std::string("(unnamed network)") : s.topology.name(),
               plural(s.transfers.size(), "transfer"), plural(s.steps, "step"));
    if (redundant && !redundant->empty()) {
      const std::size_t shown = std::min<std::size_t>(redundant->size(), 10);
      fmt::print("warning: {} of {} can each be deleted and the schedule stays valid: {}{}\n",
                 redundant->size(), plural(s.transfers.size(), "transfer"),
                 fmt::join(redundant->begin(), redundant->begin() + shown, ", "),
                 shown < redundant->size() ? ", ..." : "");
    }
  } else {
    for (const auto& v : violations) fmt::print("{}\n", v.text);
    if (omitted > 0) fmt::print("... and {} more (--max-violations 0 prints them all)\n", omitted);
    fmt::print("invalid: {}\n", plural(total, "violation"));
  }
  if (!violations.empty()) throw ExitStatus{1};
}

}  // namespace

void add_verify_command(CLI::App& app) {
  auto options = std::make_shared<VerifyOptions>();
  auto* cmd =
      app.add_subcommand("verify",
                         "check a schedule against the validity rules of FORMATS.md (exit 0 valid, "
                         "1 invalid, 2 unreadable)");
  cmd->add_option("file", options->file, "schedule document (ccsched-schedule/1 JSON)")->required();
  cmd->add_flag("--json", options->json, "print {\"valid\": ..., \"violations\": [...]}");
  cmd->add_option("--max-violations", options->max_violations,
                  "print at most this many violations, then how many more (0: all)")
      ->capture_default_str();
  cmd->callback([options] { run_verify(*options); });
}

}  // namespace ccsched::cli
