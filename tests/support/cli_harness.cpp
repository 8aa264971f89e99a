// The CLI test harness (cli_harness.hpp): fork and exec with the descriptors the test
// chose, or /bin/sh for a shell line, and the scratch folder of each test.
#include "cli_harness.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace ccsched::test {

const std::string& ccsched_binary() {
  static const std::string binary = CCSCHED_BINARY;
  return binary;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

pid_t spawn_ccsched(const std::vector<std::string>& args, int out_fd, int err_fd,
                    const std::function<void()>& prepare) {
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::dup2(out_fd, 1);
  ::dup2(err_fd, 2);
  if (prepare) prepare();
  std::string binary = ccsched_binary();
  std::vector<std::string> copy = args;
  std::vector<char*> argv{binary.data()};
  for (auto& a : copy) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(binary.c_str(), argv.data());
  ::_exit(127);
}

int wait_status(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

CliRun run_ccsched(const std::vector<std::string>& args, const fs::path& dir,
                   const RunOptions& options) {
  using Clock = std::chrono::steady_clock;
  const fs::path out = dir / "stdout", err = dir / "stderr";
  const auto start = Clock::now();
  const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  const pid_t pid = spawn_ccsched(args, o, e, options.prepare);
  ::close(o);
  ::close(e);
  if (options.interrupt_after >= 0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(options.interrupt_after));
    ::kill(pid, SIGINT);
  }
  CliRun r;
  r.status = wait_status(pid);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

CliRun run_command(const std::string& command, const fs::path& dir) {
  using Clock = std::chrono::steady_clock;
  const fs::path out = dir / "stdout", err = dir / "stderr";
  const auto start = Clock::now();
  const int raw = std::system((command + " >" + out.string() + " 2>" + err.string()).c_str());
  CliRun r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

void expect_one_line_error(const CliRun& r, const std::string& needle, const std::string& what) {
  EXPECT_EQ(r.status, 2) << what << "\n" << r.out << r.err;
  EXPECT_TRUE(r.out.empty()) << what << "\n" << r.out;
  EXPECT_EQ(count_lines(r.err), 1u) << what << "\n" << r.err;
  EXPECT_EQ(r.err.rfind("ccsched: error: ", 0), 0u) << what << "\n" << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << what << "\n" << r.err;
}

void CliTest::SetUp() {
  dir_ =
      fs::temp_directory_path() / (prefix_ + std::to_string(::getpid()) + "_" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir_);
  fs::create_directories(dir_);
}

void CliTest::TearDown() { fs::remove_all(dir_); }

std::string CliTest::write(const std::string& name, const std::string& content) const {
  const auto p = path(name);
  std::ofstream(p, std::ios::binary) << content;
  return p;
}

std::vector<std::string> CliTest::temporaries() const {
  std::vector<std::string> found;
  for (const auto& entry : fs::directory_iterator(dir_))
    if (entry.path().filename().string().find(".tmp.") != std::string::npos)
      found.push_back(entry.path().filename().string());
  return found;
}

}  // namespace ccsched::test
