// The small typed exception family of ccsched (docs/ARCHITECTURE.md, "Conventions" 7). Bad input throws one of
// these, carrying what is wrong and where; the CLI turns it into one line on stderr and
// exit status 2. Search outcomes (feasible / infeasible / unknown) are never exceptions.
#pragma once

#include <stdexcept>
#include <string>

namespace ccsched {

// Base of every error caused by what the user gave us. `where` names the place: a file
// and line, a JSON key, a command-line option, a spec string.
class Error : public std::runtime_error {
 public:
  Error(std::string what, std::string where)
      : std::runtime_error(where.empty() ? what : where + ": " + what),
        what_(std::move(what)),
        where_(std::move(where)) {}
  const std::string& problem() const { return what_; }
  const std::string& where() const { return where_; }

 private:
  std::string what_;
  std::string where_;
};

// Malformed or inconsistent input data (files, spec strings, schedule documents).
class InvalidInput : public Error {
 public:
  using Error::Error;
};

// A parameter out of its range (kautz:0,2, --ports 0, a root that is not a processor).
class InvalidParameter : public Error {
 public:
  using Error::Error;
};

// A well-formed request the tool cannot carry out (a combination not implemented, a
// problem larger than the memory limit allows).
class Unsupported : public Error {
 public:
  using Error::Error;
};

}  // namespace ccsched
