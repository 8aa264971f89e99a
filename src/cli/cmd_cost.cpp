// Placeholder: the `cost` subcommand is registered once its module lands.
#include "commands.hpp"

namespace ccsched::cli {

void add_cost_command(CLI::App& /*app*/) {}

}  // namespace ccsched::cli
