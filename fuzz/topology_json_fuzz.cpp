// libFuzzer entry point for the .json topology reader (ccsched-topology/1 and NetworkX
// node-link, io_node_link.cpp): read, and round-trip whatever is
// accepted (fuzz/targets.cpp). An escaping exception aborts and is reported as a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ccsched::fuzz::run_topology_json(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
