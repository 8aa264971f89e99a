// Running the built `ccsched` binary from the end-to-end tests, in one place for every
// suite: a per-test scratch folder, the binary run with its stdout and stderr captured
// (from an argument list, exec'd without a shell, or from a shell line), the exit status
// (128 + signal when killed), the check every bad input must pass (exit 2, one line
// "ccsched: error: ..." on stderr), and the check that no atomic write left a temporary
// behind. The library ccsched_cli_harness compiles it with the path of the binary.
#pragma once

#include <gtest/gtest.h>
#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace ccsched::test {

namespace fs = std::filesystem;

struct CliRun {
  int status = -1;  // exit status, or 128 + signal
  std::string out, err;
  double seconds = 0.0;
};

// The path of the ccsched binary the tests run.
const std::string& ccsched_binary();

// The whole file, bytes as they are ("" when it cannot be read).
std::string slurp(const fs::path& p);

// Newlines in `text`.
std::size_t count_lines(const std::string& text);

// Occurrences of `needle` in `text`.
std::size_t count_of(const std::string& text, const std::string& needle);

// Starts the binary with `args`, its stdout and stderr on `out_fd` and `err_fd`;
// `prepare` runs in the child just before exec (limits, signal dispositions).
pid_t spawn_ccsched(const std::vector<std::string>& args, int out_fd, int err_fd,
                    const std::function<void()>& prepare = {});

// Waits for `pid`: its exit status, or 128 + the signal that ended it.
int wait_status(pid_t pid);

struct RunOptions {
  double interrupt_after = -1.0;    // send SIGINT after this many seconds (< 0: never)
  std::function<void()> prepare{};  // in the child before exec, as spawn_ccsched
};

// Runs the binary with `args` (no shell: labels such as "(0,1)" need no quoting); stdout
// and stderr go through files in `dir` and are returned whole.
CliRun run_ccsched(const std::vector<std::string>& args, const fs::path& dir,
                   const RunOptions& options = {});

// Runs `command`, a shell line, with stdout and stderr captured through files in `dir`.
CliRun run_command(const std::string& command, const fs::path& dir);

// What every refused input must look like: exit status 2, nothing on stdout, and exactly
// one line on stderr, "ccsched: error: ...", that contains `needle`. `what` names the case
// in the failure messages.
void expect_one_line_error(const CliRun& r, const std::string& needle,
                           const std::string& what = {});

// A fresh folder per test, removed afterwards, and the runs above inside it.
class CliTest : public ::testing::Test {
 protected:
  explicit CliTest(std::string prefix = "ccsched_cli_") : prefix_(std::move(prefix)) {}
  void SetUp() override;
  void TearDown() override;

  // The binary with an argument list, or with `args` as shell words ("solve ring:4 ...").
  CliRun run(const std::vector<std::string>& args, const RunOptions& options = {}) const {
    return run_ccsched(args, dir_, options);
  }
  CliRun run_line(const std::string& args) const {
    return run_command(ccsched_binary() + " " + args, dir_);
  }
  // Any shell command (a compiler, mpirun, `env ... ccsched`).
  CliRun shell(const std::string& command) const { return run_command(command, dir_); }

  // The binary with `args` as shell words must refuse with one line containing `needle`.
  void expect_refused(const std::string& args, const std::string& needle) const {
    expect_one_line_error(run_line(args), needle, args);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  // Writes `content` to `name` in the folder; its path.
  std::string write(const std::string& name, const std::string& content) const;

  // The temporary files (`NAME.tmp.*`) an atomic write left in the folder.
  std::vector<std::string> temporaries() const;

  std::string prefix_;
  fs::path dir_;
};

}  // namespace ccsched::test
