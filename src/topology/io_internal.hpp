// Internal to the topology module: one reader/writer pair per file format (io_json.cpp,
// io_dot.cpp, io_edges.cpp, io_anynet.cpp), dispatched by io.cpp.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "ccsched/topology/topology.hpp"

namespace ccsched::detail {

std::string write_json(const Topology& t);
Topology read_json(std::string_view text, const std::string& where);

// Parses JSON text; malformed text throws InvalidInput("malformed JSON: ...", where).
nlohmann::json parse_json(std::string_view text, const std::string& where);

// NetworkX node-link JSON (io_node_link.cpp). read_json hands a document to
// node_link_from_json when is_node_link says it is one (no "format", "nodes" and "links"
// or "edges"), so every .json topology path reads both.
bool is_node_link(const nlohmann::json& doc);
Topology node_link_from_json(const nlohmann::json& doc, const std::string& where);
std::string write_node_link(const Topology& t);
Topology read_node_link(std::string_view text, const std::string& where);

std::string write_dot(const Topology& t);
Topology read_dot(std::string_view text, const std::string& where);

std::string write_edges(const Topology& t);
Topology read_edges(std::string_view text, const std::string& where);

std::string write_anynet(const Topology& t);
Topology read_anynet(std::string_view text, const std::string& where);

// Names and labels are text: valid UTF-8 without control characters (a NUL, a line break or
// a stray byte read from one format could not be written to another: the JSON writer
// throws on invalid UTF-8, DOT and edge lists cannot hold control characters). Throws
// InvalidInput "<what> is not valid UTF-8" / "... contains a control character" at `where`.
void check_text(std::string_view text, std::string_view what, const std::string& where);

// "file: key" / "file:line" for error messages.
std::string at(const std::string& where, std::string_view key);
std::string at_line(const std::string& where, int line);

}  // namespace ccsched::detail
