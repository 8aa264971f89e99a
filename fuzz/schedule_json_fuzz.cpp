// libFuzzer entry point for the ccsched-schedule/1 JSON reader (and the verifier on what it
// accepts): read, and round-trip whatever is accepted (fuzz/targets.cpp). An escaping exception
// aborts and is reported as a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ccsched::fuzz::run_schedule_json(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
