// Helpers shared by the render tests: solving a problem the way the CLI does, counting a
// needle in a document, and a small check that generated SVG is well-formed.
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include "../support/solve_check.hpp"
#include "ccsched/schedule/verify.hpp"

namespace ccsched::testing {

// The engine's schedule for `kind` on `spec` under the network's default model; it must
// exist, verify and claim honestly (tests/support/solve_check.hpp).
inline Schedule solve(const std::string& spec, CollectiveKind kind) {
  return testing_support::solve_verified(spec, kind);
}

inline std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Tags balance and nest (a small check of well-formedness, enough for generated SVG).
inline bool well_formed(const std::string& xml, std::string* error) {
  std::vector<std::string> open;
  const std::regex tag(R"re(<(/?)([A-Za-z][A-Za-z0-9:_-]*)[^>]*?(/?)>)re");
  for (auto it = std::sregex_iterator(xml.begin(), xml.end(), tag); it != std::sregex_iterator();
       ++it) {
    const auto& m = *it;
    if (m[1] == "/") {
      if (open.empty() || open.back() != m[2]) {
        *error = "unexpected </" + m[2].str() + ">";
        return false;
      }
      open.pop_back();
    } else if (m[3] != "/") {
      open.push_back(m[2]);
    }
  }
  if (!open.empty()) *error = "unclosed <" + open.back() + ">";
  return open.empty();
}

}  // namespace ccsched::testing
