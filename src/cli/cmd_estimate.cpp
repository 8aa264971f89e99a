// Placeholder: the `estimate` subcommand is registered once its module lands.
#include "commands.hpp"

namespace ccsched::cli {

void add_estimate_command(CLI::App& /*app*/) {}

}  // namespace ccsched::cli
