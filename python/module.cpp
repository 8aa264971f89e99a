// ccsched._core: the compiled half of the Python module `ccsched` (docs/PYTHON.md). It
// binds the one-header facade (include/ccsched/ccsched.hpp) and the schedule, verify and
// cost calls; python/ccsched/__init__.py gives them their Python shape (keywords,
// NetworkX graphs, node names). Three promises of the Python API are kept here:
//   - bad input raises ccsched.Error, a ValueError, whose text is the line the command
//     prints after "ccsched: error: " (core/error.hpp);
//   - the GIL is released while a solve or a bound computation runs;
//   - Ctrl-C stops a solve: the calling thread polls PyErr_CheckSignals while a worker
//     thread solves, and sets the interrupt flag the driver watches (driver.hpp).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "ccsched/ccsched.hpp"
#include "ccsched/cost/linear.hpp"
#include "ccsched/cost/units.hpp"
#include "ccsched/schedule/tables.hpp"

namespace py = pybind11;

namespace ccsched::python {
namespace {

// Runs `work` on a worker thread with the GIL released; the calling thread checks for
// signals ten times a second. On Ctrl-C (or any signal handler that raises) it sets
// `stop`, waits for the worker to return, and re-raises the Python exception.
template <typename Work>
auto run_interruptible(Work work, std::atomic<bool>& stop) {
  using Result = decltype(work());
  std::optional<Result> result;
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  PyObject* signal_type = nullptr;
  PyObject* signal_value = nullptr;
  PyObject* signal_trace = nullptr;
  {
    py::gil_scoped_release release;
    std::thread worker([&] {
      try {
        result.emplace(work());
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard lock(mutex);
      done = true;
      finished.notify_one();
    });
    std::unique_lock lock(mutex);
    while (!finished.wait_for(lock, std::chrono::milliseconds(100), [&] { return done; })) {
      if (signal_type) continue;  // already stopping
      lock.unlock();
      {
        py::gil_scoped_acquire acquire;
        if (PyErr_CheckSignals() != 0) {
          PyErr_Fetch(&signal_type, &signal_value, &signal_trace);
          stop.store(true);
        }
      }
      lock.lock();
    }
    lock.unlock();
    worker.join();
  }
  if (signal_type) {
    PyErr_Restore(signal_type, signal_value, signal_trace);
    throw py::error_already_set();
  }
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

Switching parse_switching(const std::string& text) {
  if (text == "wormhole" || text == "cut-through") return Switching::wormhole;
  if (text == "store-and-forward" || text == "sf") return Switching::store_and_forward;
  throw InvalidParameter("expected wormhole or store-and-forward, got '" + text + "'",
                         "switching");
}

// "minimal" | "nonminimal" | "nonminimal:H", as --routing.
void parse_routing(const std::string& text, SolveOptions& o) {
  if (text == "minimal") {
    o.routing = Routing::minimal;
    return;
  }
  if (text.rfind("nonminimal", 0) == 0) {
    o.routing = Routing::nonminimal;
    const std::string rest = text.substr(10);
    if (rest.empty()) return;
    try {
      std::size_t used = 0;
      const int hops = rest[0] == ':' ? std::stoi(rest.substr(1), &used) : 0;
      if (rest[0] == ':' && used + 1 == rest.size() && hops >= 1) {
        o.extra_hops = hops;
        return;
      }
    } catch (const std::exception&) {
    }
  }
  throw InvalidParameter("expected minimal or nonminimal[:H], got '" + text + "'", "routing");
}

// The problem options of `solve` and `bounds`, from the keywords __init__.py passes.
SolveOptions problem_options(std::optional<int> ports, const std::string& root,
                             const std::vector<std::string>& senders,
                             const std::vector<std::string>& receivers,
                             std::optional<int> blocks, int shift,
                             const std::string& messages_file,
                             const std::vector<std::string>& faults, const std::string& routing,
                             const std::string& switching, bool combining) {
  SolveOptions o;
  o.ports = ports;
  o.root = root;
  o.senders = senders;
  o.receivers = receivers;
  o.blocks = blocks;
  o.shift = shift;
  o.messages_file = messages_file;
  o.faults = faults;
  parse_routing(routing, o);
  o.switching = parse_switching(switching);
  o.combining = combining;
  return o;
}

// A time ("1us") or a number of seconds; a time per byte ("0.5ns", "2GBps") or seconds per
// byte; a byte count ("4KiB") or an integer. Strings go through the command's parsers, so
// the messages are the same.
double seconds_of(const py::object& value, const char* name, bool per_byte) {
  if (py::isinstance<py::str>(value)) {
    const auto text = value.cast<std::string>();
    return per_byte ? parse_time_per_byte(text, name) : parse_time(text, name);
  }
  const double v = value.cast<double>();
  if (!(v >= 0.0)) throw InvalidParameter("expected a time of 0 or more", name);
  return v;
}

std::int64_t bytes_of(const py::object& value) {
  if (py::isinstance<py::str>(value)) return parse_bytes(value.cast<std::string>(), "bytes");
  const auto v = value.cast<long long>();
  if (v < 0) throw InvalidParameter("expected a byte count of 0 or more", "bytes");
  return v;
}

// A solve's result: the schedule (when one was found) and the claim about it.
struct Solved {
  Outcome outcome;
  const Schedule& schedule() const {
    if (!outcome.schedule)
      throw Unsupported("no schedule was found (" + std::string(to_string(outcome.status)) +
                            ": " + outcome.reason + ")",
                        "solve");
    return *outcome.schedule;
  }
};

Solved from_schedule(Schedule s) {
  Solved r;
  r.outcome.status = SolveStatus::feasible;
  r.outcome.steps = s.steps;
  r.outcome.lower_bound = s.lower_bound.value_or(0);
  r.outcome.optimal = s.optimal;
  r.outcome.optimal_within = s.optimal_within.value_or("");
  r.outcome.direct_delivery_bound = s.direct_delivery_bound;
  if (s.solver) r.outcome.seconds = s.solver->seconds;
  r.outcome.schedule = std::move(s);
  return r;
}

py::list bound_list(const BoundReport& report) {
  py::list out;
  for (const LowerBound& b : report.bounds)
    out.append(py::make_tuple(b.name, b.value, b.argument, b.source));
  return out;
}

py::tuple transfer_tuple(const Transfer& t, bool reduction) {
  return py::make_tuple(t.step, t.path, t.messages, reduction ? py::cast(t.blocks) : py::none(),
                        reduction ? py::cast(std::string(to_string(t.send))) : py::none(),
                        reduction ? py::cast(std::string(to_string(t.recv))) : py::none());
}

}  // namespace
}  // namespace ccsched::python

PYBIND11_MODULE(_core, m) {
  using namespace ccsched;
  using namespace ccsched::python;
  m.doc() = "Compiled core of the ccsched module; use `import ccsched` (docs/PYTHON.md).";

  static py::exception<Error> error(m, "Error", PyExc_ValueError);
  static py::exception<InvalidInput> invalid_input(m, "InvalidInput", error.ptr());
  static py::exception<InvalidParameter> invalid_parameter(m, "InvalidParameter", error.ptr());
  static py::exception<Unsupported> unsupported(m, "Unsupported", error.ptr());
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InvalidInput& e) {
      invalid_input(e.what());
    } catch (const InvalidParameter& e) {
      invalid_parameter(e.what());
    } catch (const Unsupported& e) {
      unsupported(e.what());
    } catch (const Error& e) {
      error(e.what());
    }
  });

  py::class_<Topology>(m, "Topology", "A network: nodes (processors, switches) and channels.")
      .def_property_readonly("name", &Topology::name)
      .def_property_readonly("node_count", &Topology::node_count)
      .def_property_readonly("directed", &Topology::directed)
      .def("is_processor", &Topology::is_processor)
      .def("display_name", &Topology::display_name)
      .def_property_readonly("has_labels", &Topology::has_labels)
      .def_property_readonly("processors",
                             [](const Topology& t) {
                               return std::vector<NodeId>(t.processors().begin(),
                                                          t.processors().end());
                             })
      .def_property_readonly("channels",
                             [](const Topology& t) {
                               std::vector<std::pair<NodeId, NodeId>> out;
                               for (const Channel& c : t.channels()) out.emplace_back(c.from, c.to);
                               return out;
                             })
      .def_property_readonly("faults",
                             [](const Topology& t) {
                               std::vector<std::pair<NodeId, NodeId>> out;
                               for (const Channel& c : t.fault_records())
                                 out.emplace_back(c.from, c.to);
                               return out;
                             })
      .def("write", [](const Topology& t, const std::string& format) {
        return write_topology(t, parse_topology_format(format));
      });

  m.def("load_topology", [](const std::string& spec_or_path) { return load_topology(spec_or_path); },
        "A network from a spec string or a topology file.");
  m.def(
      "read_topology",
      [](const std::string& text, const std::string& format, const std::string& where) {
        Topology t = read_topology(text, parse_topology_format(format), where);
        check_processors_strongly_connected(t, where);
        return t;
      },
      "A network from the text of a topology document.");

  py::class_<Solved>(m, "Solved", "A schedule and the claim about it.")
      .def_property_readonly("found", [](const Solved& s) { return s.outcome.schedule.has_value(); })
      .def_property_readonly("status",
                             [](const Solved& s) { return std::string(to_string(s.outcome.status)); })
      .def_property_readonly("steps",
                             [](const Solved& s) -> std::optional<int> {
                               if (!s.outcome.schedule) return std::nullopt;
                               return s.outcome.steps;
                             })
      .def_property_readonly("lower_bound", [](const Solved& s) { return s.outcome.lower_bound; })
      .def_property_readonly("optimal", [](const Solved& s) { return s.outcome.optimal; })
      .def_property_readonly("optimal_within",
                             [](const Solved& s) -> std::optional<std::string> {
                               if (s.outcome.optimal_within.empty()) return std::nullopt;
                               return s.outcome.optimal_within;
                             })
      .def_property_readonly("direct_delivery_bound",
                             [](const Solved& s) { return s.outcome.direct_delivery_bound; })
      .def_property_readonly("reason", [](const Solved& s) { return s.outcome.reason; })
      .def_property_readonly("seconds", [](const Solved& s) { return s.outcome.seconds; })
      .def_property_readonly("bounds", [](const Solved& s) { return bound_list(s.outcome.bounds); })
      .def_property_readonly("engine",
                             [](const Solved& s) -> std::optional<std::string> {
                               if (!s.outcome.schedule || !s.outcome.schedule->solver)
                                 return std::nullopt;
                               return s.outcome.schedule->solver->engine;
                             })
      .def_property_readonly("topology", [](const Solved& s) { return s.schedule().topology; })
      .def_property_readonly("collective",
                             [](const Solved& s) {
                               return std::string(to_string(s.schedule().collective.kind));
                             })
      .def_property_readonly("model",
                             [](const Solved& s) {
                               const Model& model = s.schedule().model;
                               py::dict d;
                               d["ports"] = model.ports ? py::cast(*model.ports) : py::str("all");
                               d["switching"] = std::string(to_string(model.switching));
                               d["routing"] = std::string(to_string(model.routing));
                               d["combining"] = model.combining;
                               return d;
                             })
      .def_property_readonly("messages",
                             [](const Solved& s) {
                               py::list out;
                               for (const Message& msg : s.schedule().collective.messages)
                                 out.append(py::make_tuple(msg.origin, msg.targets));
                               return out;
                             })
      .def_property_readonly("transfers",
                             [](const Solved& s) {
                               const Schedule& sch = s.schedule();
                               const bool reduction = is_reduction(sch.collective);
                               py::list out;
                               for (const Transfer& t : sch.transfers)
                                 out.append(transfer_tuple(t, reduction));
                               return out;
                             })
      .def("to_json", [](const Solved& s) { return write_schedule_json(s.schedule()); })
      .def("table", [](const Solved& s) { return format_schedule_table(s.schedule()); })
      .def("verify",
           [](const Solved& s) {
             std::vector<std::string> out;
             for (const Violation& v : verify_schedule(s.schedule())) out.push_back(v.text);
             return out;
           })
      .def("cost", [](const Solved& s, const py::object& t0, const py::object& t1,
                      const py::object& bytes, const py::object& th, const py::object& tc) {
        LinearModel model;
        model.t0 = seconds_of(t0, "t0", false);
        model.t1 = seconds_of(t1, "t1", true);
        model.th = seconds_of(th, "th", false);
        const Schedule& sch = s.schedule();
        if (!tc.is_none()) {
          if (!is_reduction(sch.collective))
            throw InvalidParameter("only for reduction schedules (this one is " +
                                       std::string(to_string(sch.collective.kind)) +
                                       ", which adds nothing)",
                                   "tc");
          model.tc = seconds_of(tc, "tc", true);
        }
        const std::int64_t message_bytes = bytes_of(bytes);
        const auto violations = verify_schedule(sch);
        if (!violations.empty())
          throw InvalidInput("not a valid schedule (first: " + violations.front().text + ")",
                             "cost");
        const ScheduleCost cost = linear_cost(sch, model, message_bytes);
        std::vector<double> step_us;
        std::vector<std::int64_t> step_bytes;
        for (const StepCost& c : cost.steps) {
          step_us.push_back(c.seconds * 1e6);
          step_bytes.push_back(c.bytes);
        }
        return py::make_tuple(cost.total_seconds * 1e6, step_us, step_bytes);
      });

  m.def(
      "solve",
      [](const Topology& network, const std::string& cc, std::optional<int> ports,
         const std::string& root, const std::vector<std::string>& senders,
         const std::vector<std::string>& receivers, std::optional<int> blocks, int shift,
         const std::string& messages_file, const std::vector<std::string>& faults,
         const std::string& routing, const std::string& switching, bool combining,
         const std::string& engine, std::optional<int> steps, std::optional<double> time_limit,
         double relay_time_limit, std::uint64_t seed) {
        SolveOptions o = problem_options(ports, root, senders, receivers, blocks, shift,
                                         messages_file, faults, routing, switching, combining);
        o.engine = engine;
        o.steps = steps;
        if (time_limit) {
          if (!(*time_limit > 0.0))
            throw InvalidParameter("expected a positive number of seconds", "time_limit");
          o.time_limit = *time_limit;
        }
        o.relay_time_limit = relay_time_limit;
        o.seed = seed;
        const Problem problem = make_problem(network, parse_collective_kind(cc), o);
        std::atomic<bool> stop{false};
        o.interrupt = &stop;
        return run_interruptible([&] { return Solved{solve(problem, o)}; }, stop);
      },
      py::arg("network"), py::arg("cc"), py::arg("ports"), py::arg("root"), py::arg("senders"),
      py::arg("receivers"), py::arg("blocks"), py::arg("shift"), py::arg("messages_file"),
      py::arg("faults"), py::arg("routing"), py::arg("switching"), py::arg("combining"),
      py::arg("engine"), py::arg("steps"), py::arg("time_limit"), py::arg("relay_time_limit"),
      py::arg("seed"));

  m.def(
      "bounds",
      [](const Topology& network, const std::string& cc, std::optional<int> ports,
         const std::string& root, const std::vector<std::string>& senders,
         const std::vector<std::string>& receivers, std::optional<int> blocks, int shift,
         const std::string& messages_file, const std::vector<std::string>& faults,
         const std::string& routing, const std::string& switching, bool combining, bool direct) {
        const SolveOptions o = problem_options(ports, root, senders, receivers, blocks, shift,
                                               messages_file, faults, routing, switching,
                                               combining);
        const Problem problem = make_problem(network, parse_collective_kind(cc), o);
        BoundReport report;
        {
          py::gil_scoped_release release;
          report = bounds(problem, direct);
        }
        return py::make_tuple(report.best, bound_list(report));
      });

  m.def(
      "load_schedule",
      [](const std::string& path) { return from_schedule(read_schedule_file(path)); },
      "A schedule document (ccsched-schedule/1) from a file.");
  m.def(
      "read_schedule",
      [](const std::string& text, const std::string& where) {
        return from_schedule(read_schedule_json(text, where));
      },
      "A schedule document from its text.");
}
