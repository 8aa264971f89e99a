// Text helpers of the render module (text.hpp).
#include "text.hpp"

#include <fmt/core.h>

#include <algorithm>

namespace ccsched::render_detail {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string node_name(const Topology& t, NodeId n) {
  return n >= 0 && n < t.node_count() ? t.display_name(n) : fmt::format("?{}", n);
}

std::string transfer_text(const Schedule& s, const Transfer& transfer) {
  const Topology& t = s.topology;
  std::string out;
  for (std::size_t i = 0; i < transfer.path.size(); ++i) {
    const NodeId n = transfer.path[i];
    const bool end = i == 0 || i + 1 == transfer.path.size();
    if (!end && n >= 0 && n < t.node_count() && !t.is_processor(n)) continue;
    if (!out.empty()) out += "\u2192";
    out += node_name(t, n);
  }
  const auto& msgs = s.collective.messages;
  bool plain = transfer.messages.size() == 1 && !transfer.path.empty();
  if (plain) {
    const MessageId id = transfer.messages.front();
    const auto it =
        std::find_if(msgs.begin(), msgs.end(), [&](const Message& m) { return m.id == id; });
    plain = it != msgs.end() && it->origin == transfer.path.front() &&
            std::find(it->targets.begin(), it->targets.end(), transfer.path.back()) !=
                it->targets.end();
  }
  if (!plain)
    for (const MessageId m : transfer.messages) out += fmt::format(" m{}", m);
  return out;
}

std::string schedule_title(const Schedule& s) {
  return fmt::format(
      "{} on {}", to_string(s.collective.kind),
      s.topology.name().empty() ? std::string("an unnamed network") : s.topology.name());
}

}  // namespace ccsched::render_detail
