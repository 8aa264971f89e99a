// How much slower the sanitizer build runs: tests that check a time limit allow for it
// instead of failing on the instrumented build (AddressSanitizer costs several times the
// release build's time on allocation-heavy code such as path enumeration).
#pragma once

namespace ccsched::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr double kSlow = 4.0;
#else
inline constexpr double kSlow = 1.0;
#endif

}  // namespace ccsched::testing
