// Output helpers shared by the subcommands: the one writer behind every `-o` (and
// `faults --html`), and terminal checks. A regular file (or a path that does not exist
// yet) is written atomically: temporary file in the same folder, then rename, so an
// interrupted or failing run never leaves a half-written file. Anything else is written
// through, since renaming over it would replace it: stdout (`-`, /dev/stdout, /dev/fd/1),
// the other descriptors of this process, character devices, FIFOs and sockets
// (docs/RELIABILITY.md, "Output files").
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <ostream>
#include <string>

namespace ccsched::cli {

// Writes `content` to `path`: to stdout when `path` is empty or "-", otherwise as above.
// Symbolic links are followed, so a link to a regular file stays a link and its target is
// replaced atomically. Throws ccsched::InvalidInput naming the path when it cannot be
// written (a directory, a missing folder, a full disk, a refused connection).
void write_output(const std::string& path, const std::string& content);
// The same, with the content streamed by `produce` in chunks (a schedule of a million
// transfers is never held as one string). An exception from `produce` leaves no file.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& produce);

// True when write_output would write `path` through rather than replace it: stdout or
// another open descriptor, a device, a FIFO or a socket (after following links).
bool written_through(const std::string& path);

// Checks, before any expensive work, that `path` can be written as write_output would
// write it, so that a search is not run only to lose its result: refuses an empty name, a
// directory, a missing or read-only folder, and a place no file can be created in (/proc,
// /sys), with one InvalidInput line naming the path. For a new or regular file it creates
// and removes the temporary file the atomic write would use. Stdout, descriptors,
// devices, FIFOs (which would block until a reader comes) and sockets pass unchecked.
void check_output(const std::string& path);

// `-o,--output FILE` on `cmd`, refusing an empty name when the option is given.
CLI::Option* add_output_option(CLI::App* cmd, std::string& path, const std::string& help);

bool stderr_is_terminal();

}  // namespace ccsched::cli
