// Reading and writing ccsched-schedule/1 documents (FORMATS.md), exactly.
//
// Both directions stream (docs/RELIABILITY.md "Limits"): the writer emits `messages` and
// `transfers` element by element, and the reader parses with nlohmann's SAX interface,
// holding one element of those arrays as a JSON tree at a time, so memory follows the
// Schedule rather than the document's text or a tree of all of it. A document in exactly
// the writer's layout is read by a faster scanner first (json.cpp), which gives way to the
// SAX pass at anything else, so what is read and every error are the same.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

// The document as text; both overloads write the same bytes.
std::string write_schedule_json(const Schedule& s);
void write_schedule_json(const Schedule& s, std::ostream& out);
// Structural errors (bad JSON, missing keys, wrong types, unknown format) throw
// InvalidInput naming the key; validity (FORMATS.md rules) is the verifier's job. `where`
// (a file name, or empty) opens every error's place.
Schedule read_schedule_json(std::string_view text, std::string_view where);
Schedule read_schedule_json(std::istream& in, std::string_view where);
Schedule read_schedule_file(const std::string& path);

}  // namespace ccsched
