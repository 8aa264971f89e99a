// Placeholder: the `bounds` subcommand is registered once its module lands.
#include "commands.hpp"

namespace ccsched::cli {

void add_bounds_command(CLI::App& /*app*/) {}

}  // namespace ccsched::cli
