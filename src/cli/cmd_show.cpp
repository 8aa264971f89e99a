// Placeholder: the `show` subcommand is registered once its module lands.
#include "commands.hpp"

namespace ccsched::cli {

void add_show_command(CLI::App& /*app*/) {}

}  // namespace ccsched::cli
