// The MPI toolchain (toolchain.hpp): PATH lookup, shell quoting, mpicc and mpirun.
#include "ccsched/codegen/toolchain.hpp"

#include <fmt/core.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "ccsched/core/error.hpp"

namespace ccsched {

std::optional<std::string> find_program(std::string_view name, const char* env) {
  if (env) {
    const char* value = std::getenv(env);
    if (value && *value) return std::string(value);
  }
  if (name.find('/') != std::string_view::npos) {
    const std::string path(name);
    if (::access(path.c_str(), X_OK) == 0) return path;
    return std::nullopt;
  }
  const char* path = std::getenv("PATH");
  if (!path) return std::nullopt;
  std::string_view rest(path);
  while (true) {
    const auto colon = rest.find(':');
    const std::string_view dir = rest.substr(0, colon);
    const std::string candidate = fmt::format("{}/{}", dir.empty() ? "." : dir, name);
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) break;
    rest.remove_prefix(colon + 1);
  }
  return std::nullopt;
}

std::string shell_quote(std::string_view word) {
  std::string out(1, '\'');
  for (const char c : word) {
    if (c == '\'')
      out.append("'\\''");
    else
      out.push_back(c);
  }
  out.push_back('\'');
  return out;
}

ProcessResult run_command(const std::string& command_line) {
  ProcessResult result;
  const std::string merged = fmt::format("{} 2>&1", command_line);
  FILE* pipe = ::popen(merged.c_str(), "r");
  if (!pipe) throw Unsupported("cannot start a shell", command_line);
  char buffer[4096];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.output.append(buffer, n);
  const int raw = ::pclose(pipe);
  result.status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return result;
}

void compile_mpi_program(const std::string& source, const std::string& executable) {
  const auto mpicc = find_program("mpicc", "MPICC");
  if (!mpicc)
    throw Unsupported(
        "MPI is not installed: no mpicc on PATH (install Open MPI: apt-get install "
        "libopenmpi-dev openmpi-bin, or set MPICC)",
        "codegen mpi");
  const ProcessResult r = run_command(fmt::format("{} -O2 -o {} {}", shell_quote(*mpicc),
                                                  shell_quote(executable), shell_quote(source)));
  if (r.status != 0) {
    std::string first = r.output.substr(0, r.output.find('\n'));
    if (first.empty()) first = fmt::format("exit status {}", r.status);
    throw Unsupported(fmt::format("mpicc failed: {}", first), source);
  }
}

ProcessResult run_mpi_program(const std::string& executable, int ranks,
                              const std::vector<std::string>& args) {
  const auto mpirun = find_program("mpirun", "MPIRUN");
  if (!mpirun)
    throw Unsupported(
        "MPI is not installed: no mpirun on PATH (install Open MPI: apt-get "
        "install openmpi-bin, or set MPIRUN)",
        "codegen mpi");
  std::string command = fmt::format("{} --oversubscribe{} -np {} {}", shell_quote(*mpirun),
                                    ::geteuid() == 0 ? " --allow-run-as-root" : "", ranks,
                                    shell_quote(std::filesystem::absolute(executable).string()));
  for (const auto& a : args) command += fmt::format(" {}", shell_quote(a));
  return run_command(command);
}

}  // namespace ccsched
