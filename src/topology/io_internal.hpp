// Internal to the topology module: one reader/writer pair per file format (io_json.cpp,
// io_dot.cpp, io_edges.cpp, io_anynet.cpp), dispatched by io.cpp.
#pragma once

#include <string>
#include <string_view>

#include "ccsched/topology/topology.hpp"

namespace ccsched::detail {

std::string write_json(const Topology& t);
Topology read_json(std::string_view text, const std::string& where);

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
