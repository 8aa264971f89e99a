// Words in messages meant for people. Counted nouns: "1 message", "2 messages", "1 switch",
// "3 switches", through one helper, so that no summary, reason or error prints "1 steps".
// And names typed by people, compared without regard to case ("AAS", "aas").
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace ccsched {

// The plural of an English noun of the kind these messages count: "-es" after s, x, ch and
// sh ("switches", "passes"), "-s" otherwise. Nouns outside the rule pass their plural.
inline std::string plural_of(std::string_view noun) {
  const auto ends = [&](std::string_view tail) { return noun.ends_with(tail); };
  std::string out(noun);
  out += ends("s") || ends("x") || ends("ch") || ends("sh") ? "es" : "s";
  return out;
}

// Just the noun: "step" for 1, "steps" otherwise (for a count printed apart from it).
template <typename Count>
std::string noun_for(Count n, std::string_view noun, std::string_view irregular = {}) {
  if (n == static_cast<Count>(1)) return std::string(noun);
  return irregular.empty() ? plural_of(noun) : std::string(irregular);
}

// "N noun" with the noun in the singular when N is 1: plural(1, "step") is
// "1 step", plural(0, "step") "0 steps", plural(2, "child", "children") "2 children".
template <typename Count>
std::string plural(Count n, std::string_view noun, std::string_view irregular = {}) {
  return std::to_string(n) + ' ' + noun_for(n, noun, irregular);
}

// `text` with ASCII letters in lower case, for names matched case-insensitively.
inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace ccsched
