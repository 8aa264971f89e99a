// The one output writer of the CLI (see output.hpp): decides from what a path names
// whether to replace a regular file atomically or to write through to a descriptor,
// device, FIFO or socket, and does either with plain POSIX calls so every failure (a full
// disk, a closed reader) becomes one InvalidInput line and exit status 2.
#include "output.hpp"

#include <fcntl.h>
#include <fmt/core.h>
#include <linux/magic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "ccsched/core/error.hpp"

namespace ccsched::cli {
namespace {

namespace fs = std::filesystem;

enum class Kind {
  kDescriptor,  // an open descriptor of this process (stdout, /dev/fd/N): write to it
  kThrough,     // a device, FIFO, socket or another process's descriptor: open and write
  kRegular,     // an existing regular file: replace atomically, keep its permissions
  kNew,         // nothing there yet: create atomically
};

struct Target {
  Kind kind;
  fs::path path;     // after following symbolic links
  int fd = -1;       // kDescriptor
  struct stat st{};  // kThrough, kRegular
};

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw InvalidInput(what + " (" + std::strerror(err) + ")", path);
}

std::optional<int> parse_fd(std::string_view s) {
  int n = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size() || n < 0) return std::nullopt;
  return n;
}

// /dev/stdout, /dev/stderr, /dev/fd/N and /proc/{self,thread-self,<our pid>}/fd/N name a
// descriptor this process already holds. Following them to what the descriptor points at
// would be wrong: stdout redirected with `>>` to a log must be appended to, not replaced,
// and a pipe's "pipe:[1234]" is no path at all. Another process's /proc/<pid>/fd/N is
// `nullopt` with `foreign` set: opened and written through.
std::optional<int> own_descriptor(const fs::path& p, bool& foreign) {
  foreign = false;
  const std::string s = p.lexically_normal().string();
  if (s == "/dev/stdout") return 1;
  if (s == "/dev/stderr") return 2;
  if (s == "/dev/stdin") return 0;
  if (s.starts_with("/dev/fd/")) return parse_fd(std::string_view(s).substr(8));
  if (!s.starts_with("/proc/")) return std::nullopt;
  const std::string_view rest = std::string_view(s).substr(6);
  const auto slash = rest.find('/');
  if (slash == std::string_view::npos || !rest.substr(slash).starts_with("/fd/"))
    return std::nullopt;
  const std::string_view who = rest.substr(0, slash);
  const auto fd = parse_fd(rest.substr(slash + 4));
  if (!fd) return std::nullopt;
  if (who == "self" || who == "thread-self" || who == std::to_string(::getpid())) return fd;
  foreign = true;
  return std::nullopt;
}

// Follows symbolic links one at a time (as the kernel would, at most 40) so that a link
// to a regular file is resolved to the file it names, while the descriptor names above
// are recognised before /proc's links are read.
Target resolve(const std::string& path) {
  fs::path p(path);
  for (int hop = 0; hop <= 40; ++hop) {
    bool foreign = false;
    if (const auto fd = own_descriptor(p, foreign)) return {Kind::kDescriptor, p, *fd};
    Target t{Kind::kThrough, p};
    if (foreign) {
      if (::stat(p.c_str(), &t.st) != 0) fail("cannot open for writing", path, errno);
      return t;
    }
    if (::lstat(p.c_str(), &t.st) != 0) {
      if (errno == ENOENT) return {Kind::kNew, p};
      fail("cannot open for writing", path, errno);
    }
    if (S_ISREG(t.st.st_mode)) return {Kind::kRegular, p, -1, t.st};
    if (S_ISDIR(t.st.st_mode)) throw InvalidInput("is a directory, not a file", path);
    if (!S_ISLNK(t.st.st_mode)) return t;  // character or block device, FIFO, socket
    std::error_code ec;
    const fs::path link = fs::read_symlink(p, ec);
    if (ec) fail("cannot follow the symbolic link", path, ec.value());
    p = link.is_absolute() ? link : p.parent_path() / link;
  }
  fail("cannot open for writing", path, ELOOP);
}

// Writes all of `content` to `fd`, retrying short writes and interrupted calls.
void write_all(int fd, std::string_view content, const std::string& path) {
  const char* data = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write", path, errno);
    }

    data += n;
    left -= static_cast<std::size_t>(n);
  }
}

// What goes into the file: a string at once, or a writer streaming into an ostream.
using Emit = std::function<void(int fd, const std::string& path)>;

// An ostream buffer over a descriptor: 1 MiB chunks through write_all, so a streamed
// document never exists whole in memory (docs/BENCHMARKS.md, "Scale": a million-transfer schedule).
class FdBuffer : public std::streambuf {
 public:
  FdBuffer(int fd, const std::string& path) : fd_(fd), path_(path), buffer_(1 << 20) {
    setp(buffer_.data(), buffer_.data() + buffer_.size());
  }
  int sync() override {
    write_all(fd_, std::string_view(pbase(), static_cast<std::size_t>(pptr() - pbase())), path_);
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return 0;
  }
  int_type overflow(int_type c) override {
    sync();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }

 private:
  int fd_;
  const std::string& path_;
  std::vector<char> buffer_;
};

// Closes `fd` on every way out of a scope.
struct FdGuard {
  int fd;
  ~FdGuard() {
    if (fd >= 0) ::close(fd);
  }
  int release() { return std::exchange(fd, -1); }
};

int connect_socket(const Target& t, const std::string& path) {
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  const std::string name = t.path.string();
  if (name.size() >= sizeof addr.sun_path) fail("cannot connect to the socket", path, ENAMETOOLONG);
  std::memcpy(addr.sun_path, name.c_str(), name.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) fail("cannot connect to the socket", path, errno);
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    const int err = errno;
    ::close(fd);
    fail("cannot connect to the socket", path, err);
  }
  return fd;
}

void write_through(const Target& t, const std::string& path, const Emit& emit) {
  FdGuard fd{S_ISSOCK(t.st.st_mode)
                 ? connect_socket(t, path)
                 // A FIFO blocks here until a reader opens it, as `> fifo` in a shell does.
                 // O_TRUNC only matters for another process's descriptor of a regular file.
                 : ::open(t.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC |
                                              (S_ISREG(t.st.st_mode) ? O_TRUNC : 0))};
  if (fd.fd < 0) fail("cannot open for writing", path, errno);
  emit(fd.fd, path);
  if (::close(fd.release()) != 0) fail("cannot write", path, errno);
}

// The kernel's own tables (/proc, /sys) show regular files that cannot be replaced and
// folders no file can be created in; the write would fail only after the work is done,
// with an error about a temporary file the user never named.
void refuse_kernel_file_system(const Target& t, const std::string& path) {
  struct statfs info {};
  const fs::path folder = t.path.has_parent_path() ? t.path.parent_path() : fs::path(".");
  if (::statfs(folder.c_str(), &info) == 0 &&
      (info.f_type == PROC_SUPER_MAGIC || info.f_type == SYSFS_MAGIC))
    throw InvalidInput(
        "is in a kernel file system (/proc or /sys), where no output file can be "
        "written",
        path);
}

// Temporary file beside the target (same file system, so rename is atomic), then fsync
// and rename: a reader sees the old file or the whole new one, never a part.
void write_atomically(const Target& t, const std::string& path, const Emit& emit) {
  fs::path tmp;
  int raw = -1;
  for (int attempt = 0; raw < 0; ++attempt) {
    tmp = t.path;
    tmp += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(attempt);
    raw = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (raw < 0 && (errno != EEXIST || attempt >= 100))
      fail("cannot open for writing", path, errno);
  }
  FdGuard fd{raw};
  try {
    if (t.kind == Kind::kRegular) {
      // The replacement keeps the old file's owner (when we may set it) and permissions.
      [[maybe_unused]] const int ignored = ::fchown(fd.fd, t.st.st_uid, t.st.st_gid);
      if (::fchmod(fd.fd, t.st.st_mode & 07777) != 0) fail("cannot write", path, errno);
    }
    emit(fd.fd, path);
    if (::fsync(fd.fd) != 0) fail("cannot write", path, errno);
    if (::close(fd.release()) != 0) fail("cannot write", path, errno);
    if (::rename(tmp.c_str(), t.path.c_str()) != 0)
      fail("cannot rename the temporary file into place", path, errno);
  } catch (...) {
    if (fd.fd >= 0) ::close(fd.release());
    ::unlink(tmp.c_str());
    throw;
  }
}

}  // namespace

bool written_through(const std::string& path) {
  if (path.empty() || path == "-") return true;
  try {
    const Kind k = resolve(path).kind;
    return k == Kind::kDescriptor || k == Kind::kThrough;
  } catch (const Error&) {
    return false;  // write_output reports the problem itself
  }
}

namespace {

void write_with(const std::string& path, const Emit& emit) {
  const Target t = path.empty() || path == "-" ? Target{Kind::kDescriptor, "-", 1} : resolve(path);
  switch (t.kind) {
    case Kind::kDescriptor:
      // What the commands printed before (through stdio or iostreams) comes first.
      std::cout.flush();
      std::fflush(stdout);
      std::fflush(stderr);
      emit(t.fd, path.empty() ? "-" : path);
      return;
    case Kind::kThrough:
      write_through(t, path, emit);
      return;
    case Kind::kRegular:
    case Kind::kNew:
      refuse_kernel_file_system(t, path);
      write_atomically(t, path, emit);
      return;
  }
}

}  // namespace

void write_output(const std::string& path, const std::string& content) {
  write_with(path, [&](int fd, const std::string& where) { write_all(fd, content, where); });
}

void write_output(const std::string& path, const std::function<void(std::ostream&)>& produce) {
  write_with(path, [&](int fd, const std::string& where) {
    FdBuffer buffer(fd, where);
    std::ostream out(&buffer);
    out.exceptions(std::ios::badbit);  // a failed write rethrows write_all's error
    produce(out);
    out.flush();
  });
}

void check_output(const std::string& path) {
  if (path.empty() || path == "-") return;
  const Target t = resolve(path);
  if (t.kind == Kind::kDescriptor) return;
  if (t.kind == Kind::kThrough) {
    if (!S_ISCHR(t.st.st_mode) && !S_ISBLK(t.st.st_mode)) return;  // FIFO, socket
    if (::access(t.path.c_str(), W_OK) != 0) fail("cannot open for writing", path, errno);
    return;
  }
  refuse_kernel_file_system(t, path);
  fs::path tmp = t.path;
  tmp += ".tmp." + std::to_string(::getpid()) + ".check";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 && errno == ENOENT)
    throw InvalidInput(fmt::format("cannot create the file: the folder {} does not exist",
                                   t.path.parent_path().string()),
                       path);
  if (fd < 0) fail("cannot open for writing", path, errno);
  ::close(fd);
  ::unlink(tmp.c_str());
}

CLI::Option* add_output_option(CLI::App* cmd, std::string& path, const std::string& help) {
  return cmd->add_option("-o,--output", path, help)
      ->check(CLI::Validator(
          [](std::string& text) -> std::string {
            return text.empty() ? "expected a file name (or - for stdout), got an empty one"
                                : std::string();
          },
          "FILE"));
}

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) != 0; }

}  // namespace ccsched::cli
