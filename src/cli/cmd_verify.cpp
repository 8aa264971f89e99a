// Placeholder: the `verify` subcommand is registered once its module lands.
#include "commands.hpp"

namespace ccsched::cli {

void add_verify_command(CLI::App& /*app*/) {}

}  // namespace ccsched::cli
