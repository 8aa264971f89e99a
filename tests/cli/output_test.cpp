// Output files end to end, through the built binary: what `-o` does to each kind of path.
// A regular file (or a new path) is replaced atomically through a temporary file; stdout,
// /dev/stdout, FIFOs, sockets and devices are written through and stay what they were; a
// symbolic link to a regular file stays a link and its target gets the content; a failing
// write leaves neither a file nor a temporary (docs/RELIABILITY.md, "Output files").
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "../support/cli_harness.hpp"

namespace ccsched {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::slurp;

// Reads `fd` to its end and closes it.
std::string drain(int fd) {
  std::string data;
  char buf[4096];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return data;
}

// `text` without its "seconds" lines (solver times differ from run to run).
std::string without_seconds(const std::string& text) {
  std::istringstream in(text);
  std::string line, kept;
  while (std::getline(in, line))
    if (line.find("\"seconds\"") == std::string::npos) kept += line + "\n";
  return kept;
}

bool is_link(const fs::path& p) {
  struct stat st{};
  return ::lstat(p.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// A network export: deterministic, large enough (hypercube:6 as JSON is several KiB) for
// the file-size limit below, and quick.
const std::vector<std::string> kExport = {"topo", "export", "hypercube:6", "--format", "json"};

std::vector<std::string> with_output(std::vector<std::string> args, const std::string& path) {
  args.push_back("-o");
  args.push_back(path);
  return args;
}

// How the child's stdout is set up.
struct Stdout {
  enum { kFile, kAppend, kPipe } how = kFile;
  std::size_t file_size_limit = 0;  // RLIMIT_FSIZE in bytes when > 0 (SIGXFSZ ignored)
};

class Output : public test::CliTest {
 protected:
  Output() : CliTest("ccsched_output_") {}

  // Runs the binary with `args`; its stdout goes to dir_/stdout (truncated or appended to)
  // or through a pipe, its stderr to dir_/stderr.
  CliRun run(const std::vector<std::string>& args, Stdout how = {}) {
    const auto out = dir_ / "stdout", err = dir_ / "stderr";
    int fds[2] = {-1, -1};  // read and write ends of the pipe, or -1 and the file
    if (how.how == Stdout::kPipe) {
      EXPECT_EQ(::pipe2(fds, O_CLOEXEC), 0);
    } else {
      fds[1] = ::open(out.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC |
                                       (how.how == Stdout::kAppend ? O_APPEND : O_TRUNC),
                      0644);
    }
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    const pid_t pid = test::spawn_ccsched(args, fds[1], e, [&] {
      if (how.file_size_limit == 0) return;
      // An ignored signal stays ignored across exec, so the write fails with EFBIG
      // instead of the process being killed.
      ::signal(SIGXFSZ, SIG_IGN);
      const rlimit limit{how.file_size_limit, how.file_size_limit};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    });
    ::close(fds[1]);
    ::close(e);
    CliRun r;
    if (how.how == Stdout::kPipe) r.out = drain(fds[0]);
    r.status = test::wait_status(pid);
    if (how.how != Stdout::kPipe) r.out = slurp(out);
    r.err = slurp(err);
    return r;
  }

  // The bytes a command writes to a plain new file: what every other kind of -o target
  // must receive too.
  std::string reference(std::vector<std::string> args) {
    const auto file = dir_ / "reference.out";
    const CliRun r = run(with_output(std::move(args), file.string()));
    EXPECT_EQ(r.status, 0) << r.err;
    std::string content = slurp(file);
    fs::remove(file);
    EXPECT_FALSE(content.empty());
    return content;
  }
};

TEST_F(Output, DashGoesToStdoutAfterWhatWasPrinted) {
  const std::vector<std::string> solve = {"solve", "hypercube:2", "--cc", "OAB"};
  const std::string json = reference(solve);
  // stdout is a file here, so stdio buffers the summary: it must still come first.
  const CliRun r = run(with_output(solve, "-"));
  ASSERT_EQ(r.status, 0) << r.err;
  // The document (the solver's time aside, which differs between runs) ends the output,
  // after the summary.
  const auto doc = r.out.find("{\n  \"format\": \"ccsched-schedule/1\"");
  ASSERT_NE(doc, std::string::npos) << r.out;
  EXPECT_EQ(without_seconds(r.out.substr(doc)), without_seconds(json));
  const auto summary = r.out.find("lower bound");
  EXPECT_NE(summary, std::string::npos) << r.out;
  EXPECT_LT(summary, doc) << r.out;
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(Output, DevStdoutIsWrittenThroughAndStaysALink) {
  // Only what is safe as root in CI: /dev/stdout must be the usual link before we start.
  if (!is_link("/dev/stdout")) GTEST_SKIP() << "/dev/stdout is not a symbolic link here";
  const fs::path link_before = fs::read_symlink("/dev/stdout");
  const std::string content = reference(kExport);

  const CliRun piped = run(with_output(kExport, "/dev/stdout"), {Stdout::kPipe});
  EXPECT_EQ(piped.status, 0) << piped.err;
  EXPECT_EQ(piped.out, content);

  // Appending to a log: what is there stays, the export follows it (replacing the file
  // stdout points at would lose the first line).
  {
    std::ofstream(dir_ / "stdout") << "earlier line\n";
  }
  const CliRun appended = run(with_output(kExport, "/dev/stdout"), {Stdout::kAppend});
  EXPECT_EQ(appended.status, 0) << appended.err;
  EXPECT_EQ(appended.out, "earlier line\n" + content);

  EXPECT_TRUE(is_link("/dev/stdout"));
  EXPECT_EQ(fs::read_symlink("/dev/stdout"), link_before);
}

TEST_F(Output, FifoGetsTheBytesAndStaysAFifo) {
  const std::string content = reference(kExport);
  const auto fifo = dir_ / "pipe.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  std::string received;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);  // blocks until the writer opens it
    if (fd >= 0) received = drain(fd);
  });
  const CliRun r = run(with_output(kExport, fifo.string()));
  // Should the command have failed before opening the FIFO, let the reader go.
  const int unblock = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  if (unblock >= 0) ::close(unblock);
  reader.join();
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(received, content);
  struct stat st{};
  ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(Output, SocketGetsTheBytes) {
  const auto path = dir_ / "out.sock";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(path.string().size(), sizeof addr.sun_path);
  std::strcpy(addr.sun_path, path.c_str());
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  const std::string content = reference(kExport);
  std::string received;
  std::thread server([&] {
    const int conn = ::accept(listener, nullptr, nullptr);
    if (conn >= 0) received = drain(conn);
  });
  const CliRun r = run(with_output(kExport, path.string()));
  if (r.status != 0) ::shutdown(listener, SHUT_RDWR);  // wakes accept() if never reached
  server.join();
  ::close(listener);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(received, content);
  struct stat st{};
  ASSERT_EQ(::lstat(path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
}

TEST_F(Output, SymlinkStaysALinkAndItsTargetIsReplaced) {
  const std::string content = reference(kExport);
  const auto target = dir_ / "target.json", link = dir_ / "link.json";
  std::ofstream(target) << "old content\n";
  fs::permissions(target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  fs::create_symlink("target.json", link);  // relative, as links usually are
  const CliRun r = run(with_output(kExport, link.string()));
  EXPECT_EQ(r.status, 0) << r.err;
  ASSERT_TRUE(is_link(link));
  EXPECT_EQ(fs::read_symlink(link), fs::path("target.json"));
  EXPECT_EQ(slurp(target), content);
  EXPECT_EQ(fs::status(target).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  // A dangling link: its target is created, the link kept.
  const auto dangling = dir_ / "dangling.json";
  fs::create_symlink(dir_ / "created.json", dangling);
  const CliRun d = run(with_output(kExport, dangling.string()));
  EXPECT_EQ(d.status, 0) << d.err;
  EXPECT_TRUE(is_link(dangling));
  EXPECT_EQ(slurp(dir_ / "created.json"), content);
  EXPECT_TRUE(temporaries().empty()) << temporaries().front();
}

TEST_F(Output, FailingWriteLeavesNoFileAndNoTemporary) {
  // The file-size limit makes the write fail half way (EFBIG) after the temporary exists.
  const std::string content = reference(kExport);
  ASSERT_GT(content.size(), 4096u);
  const auto file = dir_ / "net.json";
  const CliRun r = run(with_output(kExport, file.string()), {Stdout::kFile, 4096});
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(file));
  EXPECT_TRUE(temporaries().empty()) << temporaries().front();
  // An existing file is left as it was.
  std::ofstream(file) << "previous\n";
  const CliRun again = run(with_output(kExport, file.string()), {Stdout::kFile, 4096});
  EXPECT_EQ(again.status, 2) << again.err;
  EXPECT_EQ(slurp(file), "previous\n");
  EXPECT_TRUE(temporaries().empty()) << temporaries().front();
}

TEST_F(Output, DevicesAndDirectories) {
  // A device is written through, not replaced. The system's /dev/full would be replaced
  // by a broken build (running as root in CI), so the test makes its own node where it
  // may (root, and a device policy that lets it be opened).
  const auto full = dir_ / "full";
  if (::mknod(full.c_str(), S_IFCHR | 0600, ::makedev(1, 7)) == 0 &&
      ::access(full.c_str(), W_OK) == 0) {
    const int probe = ::open(full.c_str(), O_WRONLY);
    if (probe >= 0) {
      ::close(probe);
      const CliRun r = run(with_output(kExport, full.string()));
      EXPECT_EQ(r.status, 2) << r.err;  // ENOSPC: the device took nothing
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_NE(r.err.find(full.string()), std::string::npos) << r.err;
      struct stat st{};
      ASSERT_EQ(::lstat(full.c_str(), &st), 0);
      EXPECT_TRUE(S_ISCHR(st.st_mode));
    }
  }
  // A directory is refused, not renamed over.
  fs::create_directory(dir_ / "folder");
  const CliRun d = run(with_output(kExport, (dir_ / "folder").string()));
  EXPECT_EQ(d.status, 2);
  EXPECT_NE(d.err.find("directory"), std::string::npos) << d.err;
  EXPECT_TRUE(fs::is_directory(dir_ / "folder"));
  // A folder that does not exist: one line, nothing created.
  const CliRun m = run(with_output(kExport, (dir_ / "missing" / "net.json").string()));
  EXPECT_EQ(m.status, 2);
  EXPECT_EQ(std::count(m.err.begin(), m.err.end(), '\n'), 1) << m.err;
  EXPECT_FALSE(fs::exists(dir_ / "missing"));
  EXPECT_TRUE(temporaries().empty());
}

TEST_F(Output, EveryWriterTakesTheSamePath) {
  // solve, render and codegen write through the same helper: a FIFO is written through
  // by each (render picks its format from the name, codegen skips its extension check).
  const auto schedule = dir_ / "s.json";
  ASSERT_EQ(run({"solve", "hypercube:2", "--cc", "OAB", "--quiet", "-o", schedule.string()})
                .status,
            0);
  const std::vector<std::vector<std::string>> commands = {
      {"render", schedule.string()},
      {"codegen", "mpi", schedule.string()},
  };
  const std::vector<std::string> names = {"steps.svg", "prog.c"};
  for (std::size_t i = 0; i < commands.size(); ++i) {
    SCOPED_TRACE(names[i]);
    const auto plain = dir_ / names[i];
    const CliRun p = run(with_output(commands[i], plain.string()));
    ASSERT_EQ(p.status, 0) << p.err;
    const std::string content = slurp(plain);
    const auto fifo = dir_ / ("fifo." + names[i]);
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    std::string received;
    std::thread reader([&] {
      const int fd = ::open(fifo.c_str(), O_RDONLY);
      if (fd >= 0) received = drain(fd);
    });
    const CliRun r = run(with_output(commands[i], fifo.string()));
    const int unblock = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (unblock >= 0) ::close(unblock);
    reader.join();
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(received, content);
  }
  // codegen to /dev/stdout: no extension to check on a descriptor.
  const CliRun c = run({"codegen", "mpi", schedule.string(), "-o", "/dev/stdout"});
  EXPECT_EQ(c.status, 0) << c.err;
  EXPECT_EQ(c.out, slurp(dir_ / "prog.c"));
  EXPECT_TRUE(temporaries().empty());
}

}  // namespace
}  // namespace ccsched
