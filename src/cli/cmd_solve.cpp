// Placeholder: the `solve` subcommand is registered once its module lands.
#include "commands.hpp"

namespace ccsched::cli {

void add_solve_command(CLI::App& /*app*/) {}

}  // namespace ccsched::cli
