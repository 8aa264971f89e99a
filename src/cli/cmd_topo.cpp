// Placeholder: the `topo` subcommand is registered once its module lands.
#include "commands.hpp"

namespace ccsched::cli {

void add_topo_command(CLI::App& /*app*/) {}

}  // namespace ccsched::cli
