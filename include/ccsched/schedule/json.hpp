// Reading and writing ccsched-schedule/1 documents (FORMATS.md), exactly.
#pragma once

#include <string>
#include <string_view>

#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

std::string write_schedule_json(const Schedule& s);
// Structural errors (bad JSON, missing keys, wrong types, unknown format) throw
// InvalidInput naming the key; validity (FORMATS.md rules) is the verifier's job.
Schedule read_schedule_json(std::string_view text, std::string_view where);
Schedule read_schedule_file(const std::string& path);

}  // namespace ccsched
