// Dispatch between the topology file formats (io.hpp): picks the reader from the file
// extension and reads the file; each format lives in its own io_<format>.cpp.
#include "ccsched/topology/io.hpp"

#include <fmt/core.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "ccsched/core/error.hpp"
#include "io_internal.hpp"

namespace ccsched {
namespace detail {

std::string at(const std::string& where, std::string_view key) {
  return where.empty() ? std::string(key) : fmt::format("{}: {}", where, key);
}

std::string at_line(const std::string& where, int line) {
  return fmt::format("{}:{}", where.empty() ? "<input>" : where, line);
}

void check_text(std::string_view text, std::string_view what, const std::string& where) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = s[i];
    if (c < 0x20 || c == 0x7F)
      throw InvalidInput(fmt::format("{} contains a control character (byte {:#04x})", what, c),
                         where);
    // UTF-8 (RFC 3629): lead byte gives the length; continuation bytes are 10xxxxxx; no
    // overlong forms, no surrogates, nothing above U+10FFFF.
    std::size_t len = 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) {
      len = 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    }
    bool valid = len > 0 && i + len <= n;
    for (std::size_t k = 1; valid && k < len; ++k) {
      const unsigned char b = s[i + k];
      valid = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    }
    if (!valid) throw InvalidInput(fmt::format("{} is not valid UTF-8", what), where);
    i += len;
  }
}

}  // namespace detail

TopologyFormat parse_topology_format(std::string_view text) {
  if (text == "json") return TopologyFormat::json;
  if (text == "dot") return TopologyFormat::dot;
  if (text == "edges") return TopologyFormat::edges;
  if (text == "anynet") return TopologyFormat::anynet;
  if (text == "node-link") return TopologyFormat::node_link;
  throw InvalidParameter(
      fmt::format("unknown topology format '{}' (expected json, dot, edges, anynet or node-link)",
                  text),
      "--format");
}

std::string write_topology(const Topology& t, TopologyFormat format) {
  switch (format) {
    case TopologyFormat::json:
      return detail::write_json(t);
    case TopologyFormat::dot:
      return detail::write_dot(t);
    case TopologyFormat::edges:
      return detail::write_edges(t);
    case TopologyFormat::anynet:
      return detail::write_anynet(t);
    case TopologyFormat::node_link:
      return detail::write_node_link(t);
  }
  return {};
}

Topology read_topology(std::string_view text, TopologyFormat format, std::string_view where) {
  const std::string w(where);
  switch (format) {
    case TopologyFormat::json:
      return detail::read_json(text, w);
    case TopologyFormat::dot:
      return detail::read_dot(text, w);
    case TopologyFormat::edges:
      return detail::read_edges(text, w);
    case TopologyFormat::anynet:
      return detail::read_anynet(text, w);
    case TopologyFormat::node_link:
      return detail::read_node_link(text, w);
  }
  return Topology{};
}

Topology read_topology_file(const std::string& path) {
  const auto ends_with = [&](std::string_view ext) {
    return path.size() >= ext.size() &&
           path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
  };
  TopologyFormat format;
  if (ends_with(".json"))
    format = TopologyFormat::json;
  else if (ends_with(".dot") || ends_with(".gv"))
    format = TopologyFormat::dot;
  else if (ends_with(".edges"))
    format = TopologyFormat::edges;
  else if (ends_with(".anynet"))
    format = TopologyFormat::anynet;
  else
    throw InvalidInput(
        "unknown topology file extension (expected .json, .dot, .gv, .edges or "
        ".anynet)",
        path);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw InvalidInput("is a directory, not a topology file", path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidInput(fmt::format("cannot open file ({})", std::strerror(errno)), path);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InvalidInput("cannot read file", path);
  return read_topology(text.str(), format, path);
}

}  // namespace ccsched
