// The fuzz targets of ccsched's readers, as plain functions: each takes one input, runs the
// reader, and round-trips what the reader accepts (write it, read it back, compare). The
// libFuzzer entry points in fuzz/*_fuzz.cpp call them; tests/fuzz replays the corpus
// (tests/fuzz/corpus/<target>/) through the very same functions in the ordinary build.
//
// Contract: a ccsched::Error from the reader means "rejected" (a clear message, which is
// what bad input must get); every other exception escapes — a RoundTripFailure when an
// accepted input does not survive the round trip, or anything else (std::out_of_range,
// nlohmann's type_error, ...) that a reader let through. Under libFuzzer an escaping
// exception aborts and is reported as a crash.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace ccsched::fuzz {

class RoundTripFailure : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

enum class Outcome { rejected, accepted };

struct Target {
  std::string_view name;  // also the corpus folder and the executable (<name>_fuzz)
  Outcome (*run)(std::string_view input);
};

// topology_json, topology_dot, topology_edges, topology_anynet, schedule_json, messages,
// spec.
const std::vector<Target>& all_targets();
// Throws std::invalid_argument for an unknown name.
const Target& target(std::string_view name);

Outcome run_topology_json(std::string_view input);
Outcome run_topology_dot(std::string_view input);
Outcome run_topology_edges(std::string_view input);
Outcome run_topology_anynet(std::string_view input);
Outcome run_schedule_json(std::string_view input);
// First byte picks the network (see kMessageNetworks in targets.cpp); the rest is the list.
Outcome run_messages(std::string_view input);
Outcome run_spec(std::string_view input);

// The networks run_messages reads message lists against, by first byte modulo their count.
const std::vector<std::string>& message_networks();

}  // namespace ccsched::fuzz
