// The MPI toolchain as the generated programs need it: finding mpicc and mpirun, building
// a program and running it on P ranks.
//
//   compile_mpi_program("prog.c", "prog");       // throws Unsupported: MPI is not installed
//   ProcessResult r = run_mpi_program("prog", 12);
//   if (r.status != 0) ...                        // r.output: stdout and stderr, merged
//
// Programs are found through $MPICC / $MPIRUN when set, else "mpicc" / "mpirun" on PATH.
// mpirun runs with --oversubscribe (a laptop or a CI machine has fewer cores than the
// schedule has processors) and, when the caller is root, with --allow-run-as-root (Open
// MPI refuses root otherwise; containers often run as root).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ccsched {

struct ProcessResult {
  int status = -1;     // exit status; -1 when the program did not exit normally
  std::string output;  // stdout and stderr, merged
};

// Full path of an executable: the environment variable `env` when it is set and non-empty
// (taken as given), else the first `name` on PATH; nullopt when there is none.
std::optional<std::string> find_program(std::string_view name, const char* env = nullptr);

// Runs a command line through /bin/sh and captures its merged output.
ProcessResult run_command(const std::string& command_line);

// Quotes a word for /bin/sh.
std::string shell_quote(std::string_view word);

// mpicc -O2 -o executable source. Throws Unsupported ("MPI is not installed: no mpicc on
// PATH ...") when mpicc is missing, Unsupported with the compiler's first error line when
// the build fails.
void compile_mpi_program(const std::string& source, const std::string& executable);

// mpirun --oversubscribe -np ranks executable args... Throws Unsupported when mpirun is
// missing; the program's own failure is the result's status.
ProcessResult run_mpi_program(const std::string& executable, int ranks,
                              const std::vector<std::string>& args = {});

}  // namespace ccsched
