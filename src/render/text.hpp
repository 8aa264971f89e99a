// Small text helpers shared by the SVG and HTML writers of the render module (private).
#pragma once

#include <string>
#include <string_view>

#include "ccsched/schedule/schedule.hpp"

namespace ccsched::render_detail {

// Escapes &, <, >, " and ' for XML/HTML text and attribute values.
std::string xml_escape(std::string_view text);

// A node's name in pictures and tables: its label (Kautz word, "s1.2") or its id; "?n"
// for ids outside the network.
std::string node_name(const Topology& t, NodeId n);

// "01→10→02": the processors of a transfer's path (switches left out, as in the seeds'
// tables), then " m4" when the transfer is not its sender's own message to one of the
// message's targets (the same rule as tables.hpp).
std::string transfer_text(const Schedule& s, const Transfer& transfer);

// "AAS on kautz:3,2": the title line of pictures and reports.
std::string schedule_title(const Schedule& s);

}  // namespace ccsched::render_detail
