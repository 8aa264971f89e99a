// Engine parameter tables: one plain struct per engine (UmdaParams, HgsaParams) and one
// table per struct giving each field's name, range and help text (docs/ARCHITECTURE.md, "Conventions" 5). The
// table drives parsing and validation (`apply_params`), the CLI's --help and the docs, so
// a parameter is declared exactly once.
//
//   UmdaParams p;                                       // the seeds' defaults
//   apply_params(p, umda_param_table(), {{"population", 100}}, "umda");
//   fmt::print("{}", describe_params(umda_param_table()));
#pragma once

#include <cmath>
#include <map>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <variant>

#include "ccsched/core/error.hpp"

namespace ccsched {

// Values given by name, e.g. from the command line ("population" -> 60).
using ParamValues = std::map<std::string, double, std::less<>>;

template <class Params>
struct ParamSpec {
  std::string_view name;  // the CLI option is --<name>
  std::variant<int Params::*, double Params::*, bool Params::*> member;
  double min = 0.0;
  double max = 0.0;
  std::string_view help;  // what it does and where the default comes from
};

// The value a default-constructed Params holds for this entry.
template <class Params>
double default_value(const ParamSpec<Params>& spec) {
  static const Params defaults{};
  return std::visit([](auto member) { return static_cast<double>(defaults.*member); }, spec.member);
}

// 60, 0.9, 1e+18: the shortest text that reads back as the same value, for messages.
inline std::string format_param(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

template <class Params>
bool is_integer(const ParamSpec<Params>& spec) {
  return !std::holds_alternative<double Params::*>(spec.member);
}

// Sets every named value after checking its range (and integrality for int and bool
// fields). Throws InvalidParameter naming --<name> for an unknown name or a bad value.
template <class Params>
void apply_params(Params& params, std::span<const ParamSpec<Params>> table,
                  const ParamValues& values, std::string_view engine) {
  for (const auto& [name, value] : values) {
    const ParamSpec<Params>* spec = nullptr;
    for (const auto& s : table)
      if (s.name == name) spec = &s;
    if (spec == nullptr)
      throw InvalidParameter("does not apply to engine " + std::string(engine), "--" + name);
    if (!(value >= spec->min && value <= spec->max) ||
        (is_integer(*spec) && value != std::floor(value)))
      throw InvalidParameter("must be " + std::string(is_integer(*spec) ? "an integer " : "") +
                                 "in [" + format_param(spec->min) + ", " + format_param(spec->max) +
                                 "], got " + format_param(value),
                             "--" + name);
    std::visit(
        [&, value = value](auto member) {  // init-capture: clang 14 cannot capture a binding
          using T = std::remove_reference_t<decltype(params.*member)>;
          params.*member = static_cast<T>(value);
        },
        spec->member);
  }
}

}  // namespace ccsched
