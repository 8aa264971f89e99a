// `ccsched verify FILE [--json]`: checks a schedule document against the validity rules
// of FORMATS.md (the ten rules; R1-R3 for reductions). Prints "valid ..." or every
// violation, one line each; exit status 0 valid, 1 invalid, 2 when the file cannot be read
// as a schedule (main.cpp prints the one-line error). With --json: {"valid": bool,
// "violations": [{rule, step, transfer, channel, node, message, block, text}]}, absent
// fields as null; `rule` is the number 1..10 or the string "R1".."R3".
#include <fmt/core.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "ccsched/schedule/json.hpp"
#include "ccsched/schedule/verify.hpp"
#include "commands.hpp"

namespace ccsched::cli {
namespace {

struct VerifyOptions {
  std::string file;
  bool json = false;
};

template <typename T>
nlohmann::ordered_json or_null(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

void run_verify(const VerifyOptions& o) {
  const Schedule s = read_schedule_file(o.file);
  const auto violations = verify_schedule(s);
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
    fmt::print("{}\n", doc.dump(2));
  } else if (violations.empty()) {
    fmt::print("valid: {} on {}, {} transfers in {} step{}\n", to_string(s.collective.kind),
               s.topology.name().empty() ? std::string("(unnamed network)") : s.topology.name(),
               s.transfers.size(), s.steps, s.steps == 1 ? "" : "s");
  } else {
    for (const auto& v : violations) fmt::print("{}\n", v.text);
    fmt::print("invalid: {} violation{}\n", violations.size(), violations.size() == 1 ? "" : "s");
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
  cmd->callback([options] { run_verify(*options); });
}

}  // namespace ccsched::cli
