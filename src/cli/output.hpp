// Output helpers shared by the subcommands: atomic file writes (temporary file, then
// rename, so an interrupted run never leaves a half-written file) and terminal checks.
#pragma once

#include <string>

namespace ccsched::cli {

// Writes `content` to `path` through a temporary file in the same folder and a rename.
// Throws ccsched::InvalidInput naming the path when it cannot be written.
void write_file_atomically(const std::string& path, const std::string& content);

// Writes to `path`, or to stdout when `path` is empty or "-".
void write_output(const std::string& path, const std::string& content);

bool stderr_is_terminal();

}  // namespace ccsched::cli
