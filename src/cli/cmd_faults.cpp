// Placeholder: the `faults` subcommand is registered once its module lands.
#include "commands.hpp"

namespace ccsched::cli {

void add_faults_command(CLI::App& /*app*/) {}

}  // namespace ccsched::cli
