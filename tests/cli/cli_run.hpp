// Running the built `ccsched` binary from the CLI tests: a per-test scratch folder, fork
// and exec with stdout and stderr wherever the test wants them, the exit status (128 +
// signal when killed), and the check that no atomic write left a temporary behind.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace ccsched::test {

namespace fs = std::filesystem;

struct CliRun {
  int status = -1;  // exit status, or 128 + signal
  std::string out, err;
  double seconds = 0.0;
};

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Starts CCSCHED_BINARY with `args`, its stdout and stderr on `out_fd` and `err_fd`;
// `prepare` runs in the child just before exec (limits, signal dispositions).
inline pid_t spawn_ccsched(const std::vector<std::string>& args, int out_fd, int err_fd,
                           const std::function<void()>& prepare = {}) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::dup2(out_fd, 1);
  ::dup2(err_fd, 2);
  if (prepare) prepare();
  std::vector<char*> argv;
  std::string binary = CCSCHED_BINARY;
  argv.push_back(binary.data());
  std::vector<std::string> copy = args;
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(binary.c_str(), argv.data());
  ::_exit(127);
}

// Waits for `pid`: its exit status, or 128 + the signal that ended it.
inline int wait_status(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A fresh folder per test, removed afterwards.
class CliTest : public ::testing::Test {
 protected:
  explicit CliTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           (prefix_ + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The temporary files (`NAME.tmp.*`) an atomic write left in the folder.
  std::vector<std::string> temporaries() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(dir_))
      if (entry.path().filename().string().find(".tmp.") != std::string::npos)
        found.push_back(entry.path().filename().string());
    return found;
  }

  std::string prefix_;
  fs::path dir_;
};

}  // namespace ccsched::test
