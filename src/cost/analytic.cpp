// The analytic SF/CT formulas of seed 003 (include/ccsched/cost/analytic.hpp), all in one
// table: shape, operation, routing method, the formula as text, where it comes from, and
// the function computing it. Seed 003 is a slide chapter without equation numbers, so the
// sources cite its slide titles. Rows marked "derived" are not in the chapter; the source
// text says which of the chapter's algorithms they price and docs/COST.md works them out.
#include "ccsched/cost/analytic.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <string>
#include <vector>

#include "ccsched/core/error.hpp"
#include "ccsched/core/text.hpp"

namespace ccsched {
namespace {

// Everything a formula may use, in the chapter's notation (seconds, bytes).
struct Terms {
  double ts, tb, th, m, p;
  double log2p;  // log2 p; exact only when p is a power of two (checked per formula)
  double d;      // sqrt(p); exact for the torus (p = d^2 checked)
  double q;      // shift distance
  double gamma;  // largest j with 2^j dividing q (seed 003, circular shift, CT)
  double qmin;   // min(q, p - q): hops of a ring shift the short way round
};

enum class Need { none, p_power_of_two, sqrt_p_power_of_two };

struct Entry {
  NetworkShape shape;
  Operation op;
  RoutingMethod method;
  std::string_view formula;
  std::string_view source;
  bool from_chapter;
  bool uses_th;
  bool upper_estimate;
  Need need;
  double (*eval)(const Terms&);
};

using NS = NetworkShape;
using Op = Operation;
constexpr RoutingMethod SF = RoutingMethod::store_and_forward;
constexpr RoutingMethod CT = RoutingMethod::cut_through;

constexpr std::string_view kP2p =
    "seed 003, 'Data Communication between Two Network Processors', table (longest path)";
constexpr std::string_view kOabSf = "seed 003, 'One-to-All Broadcast (store-and-forward routing)'";
constexpr std::string_view kOabCt = "seed 003, 'One-to-All Broadcast (cut-through routing)'";
constexpr std::string_view kAabSf = "seed 003, 'All-to-All Broadcast (store-and-forward routing)'";
constexpr std::string_view kAabCt =
    "derived: the SF algorithm of seed 003 'All-to-All Broadcast' (which says CT does not "
    "improve it), each one-hop step priced by the CT time ts + m*tb + th*l with l = 1";
constexpr std::string_view kScatterHc =
    "seed 003, 'One-to-All Personalized Communication (store-and-forward routing)', hypercube";
constexpr std::string_view kScatterSf =
    "derived: seed 003 says scatter is comparable to all-to-all broadcast and bounds it below "
    "by m*tb*(p-1); pipelined one-direction (ring) / row-then-column (torus) algorithm that "
    "meets that bound";
constexpr std::string_view kScatterCt =
    "derived: the logical-hypercube recursive halving of seed 003 'One-to-All Broadcast "
    "(cut-through routing)', stage i sending m*p/2^i bytes";
constexpr std::string_view kTeSf = "seed 003, 'Total Exchange (store-and-forward routing)'";
constexpr std::string_view kTeCtHc =
    "seed 003, 'Total Exchange', hypercube, packet communication (p-1 pairwise iterations)";
constexpr std::string_view kTeCt =
    "derived: the SF algorithm of seed 003 'Total Exchange' (which says CT does not improve "
    "it), each one-hop step priced by the CT time with l = 1";
constexpr std::string_view kShiftSf = "seed 003, 'Circular Shift (store-and-forward routing)'";
constexpr std::string_view kShiftCtHc = "seed 003, 'Circular Shift (cut-through routing)'";
constexpr std::string_view kShiftRingSf =
    "derived: min(q, p-q) neighbour steps the short way round (seed 003 gives no ring "
    "formula)";
constexpr std::string_view kShiftCt =
    "derived: the SF algorithm of seed 003 'Circular Shift', each one-hop step priced by the "
    "CT time with l = 1";
constexpr std::string_view kOabCtHc =
    "derived: the hypercube algorithm of seed 003 'One-to-All Broadcast' (log2 p one-hop "
    "stages) priced by the CT time ts + m*tb + th*l with l = 1";

// clang-format off
const std::array<Entry, 36> kTable{{
  // --- data communication between two processors (longest path l) -----------------------
  // SF: t = ts + m*tb*l (long messages, th neglected); CT: t = ts + m*tb + th*l.
  {NS::ring, Op::p2p, SF, "ts + m*tb*floor(p/2)", kP2p, true, false, false, Need::none,
   [](const Terms& t) { return t.ts + t.m * t.tb * std::floor(t.p / 2); }},
  {NS::torus, Op::p2p, SF, "ts + 2*m*tb*floor(sqrt(p)/2)", kP2p, true, false, false, Need::none,
   [](const Terms& t) { return t.ts + 2 * t.m * t.tb * std::floor(t.d / 2); }},
  {NS::hypercube, Op::p2p, SF, "ts + m*tb*log2(p)", kP2p, true, false, false, Need::none,
   [](const Terms& t) { return t.ts + t.m * t.tb * t.log2p; }},
  {NS::ring, Op::p2p, CT, "ts + m*tb + th*floor(p/2)", kP2p, true, true, false, Need::none,
   [](const Terms& t) { return t.ts + t.m * t.tb + t.th * std::floor(t.p / 2); }},
  {NS::torus, Op::p2p, CT, "ts + m*tb + 2*th*floor(sqrt(p)/2)", kP2p, true, true, false,
   Need::none,
   [](const Terms& t) { return t.ts + t.m * t.tb + 2 * t.th * std::floor(t.d / 2); }},
  {NS::hypercube, Op::p2p, CT, "ts + m*tb + th*log2(p)", kP2p, true, true, false, Need::none,
   [](const Terms& t) { return t.ts + t.m * t.tb + t.th * t.log2p; }},

  // --- one-to-all broadcast --------------------------------------------------------------
  {NS::ring, Op::one_to_all_broadcast, SF, "(ts + m*tb)*ceil(p/2)", kOabSf, true, false, false,
   Need::none, [](const Terms& t) { return (t.ts + t.m * t.tb) * std::ceil(t.p / 2); }},
  {NS::torus, Op::one_to_all_broadcast, SF, "2*(ts + m*tb)*ceil(sqrt(p)/2)", kOabSf, true, false,
   false, Need::none,
   [](const Terms& t) { return 2 * (t.ts + t.m * t.tb) * std::ceil(t.d / 2); }},
  // The chapter prints "(ts + m*tb) l log2 p"; each stage is one hop (l = 1).
  {NS::hypercube, Op::one_to_all_broadcast, SF, "(ts + m*tb)*log2(p)", kOabSf, true, false,
   false, Need::none, [](const Terms& t) { return (t.ts + t.m * t.tb) * t.log2p; }},
  // Sum over i = 1..log2 p of (ts + m*tb + th*p/2^i).
  {NS::ring, Op::one_to_all_broadcast, CT, "(ts + m*tb)*log2(p) + th*(p - 1)", kOabCt, true,
   true, false, Need::p_power_of_two,
   [](const Terms& t) { return (t.ts + t.m * t.tb) * t.log2p + t.th * (t.p - 1); }},
  {NS::torus, Op::one_to_all_broadcast, CT, "(ts + m*tb)*log2(p) + 2*th*(sqrt(p) - 1)", kOabCt,
   true, true, false, Need::sqrt_p_power_of_two,
   [](const Terms& t) { return (t.ts + t.m * t.tb) * t.log2p + 2 * t.th * (t.d - 1); }},
  {NS::hypercube, Op::one_to_all_broadcast, CT, "(ts + m*tb + th)*log2(p)", kOabCtHc, false,
   true, false, Need::none,
   [](const Terms& t) { return (t.ts + t.m * t.tb + t.th) * t.log2p; }},

  // --- all-to-all broadcast --------------------------------------------------------------
  {NS::ring, Op::all_to_all_broadcast, SF, "(ts + m*tb)*(p - 1)", kAabSf, true, false, false,
   Need::none, [](const Terms& t) { return (t.ts + t.m * t.tb) * (t.p - 1); }},
  // Rows (ts + m*tb)*(sqrt(p) - 1), then columns (ts + m*sqrt(p)*tb)*(sqrt(p) - 1).
  {NS::torus, Op::all_to_all_broadcast, SF, "2*ts*(sqrt(p) - 1) + m*tb*(p - 1)", kAabSf, true,
   false, false, Need::none,
   [](const Terms& t) { return 2 * t.ts * (t.d - 1) + t.m * t.tb * (t.p - 1); }},
  // As printed; the doubling algorithm it describes needs only ts*log2 p + m*tb*(p - 1).
  {NS::hypercube, Op::all_to_all_broadcast, SF, "(ts + m*p*tb/2)*log2(p)", kAabSf, true, false,
   false, Need::none,
   [](const Terms& t) { return (t.ts + t.m * t.p * t.tb / 2) * t.log2p; }},
  {NS::ring, Op::all_to_all_broadcast, CT, "(ts + m*tb + th)*(p - 1)", kAabCt, false, true,
   false, Need::none, [](const Terms& t) { return (t.ts + t.m * t.tb + t.th) * (t.p - 1); }},
  {NS::torus, Op::all_to_all_broadcast, CT, "2*(ts + th)*(sqrt(p) - 1) + m*tb*(p - 1)", kAabCt,
   false, true, false, Need::none,
   [](const Terms& t) { return 2 * (t.ts + t.th) * (t.d - 1) + t.m * t.tb * (t.p - 1); }},
  {NS::hypercube, Op::all_to_all_broadcast, CT, "(ts + th + m*p*tb/2)*log2(p)", kAabCt, false,
   true, false, Need::none,
   [](const Terms& t) { return (t.ts + t.th + t.m * t.p * t.tb / 2) * t.log2p; }},

  // --- one-to-all personalized communication (scatter) -----------------------------------
  {NS::ring, Op::scatter, SF, "(ts + m*tb)*(p - 1)", kScatterSf, false, false, false,
   Need::none, [](const Terms& t) { return (t.ts + t.m * t.tb) * (t.p - 1); }},
  // Row: (ts + m*sqrt(p)*tb)*(sqrt(p) - 1); columns: (ts + m*tb)*(sqrt(p) - 1).
  {NS::torus, Op::scatter, SF, "2*ts*(sqrt(p) - 1) + m*tb*(p - 1)", kScatterSf, false, false,
   false, Need::none,
   [](const Terms& t) { return 2 * t.ts * (t.d - 1) + t.m * t.tb * (t.p - 1); }},
  {NS::hypercube, Op::scatter, SF, "ts*log2(p) + m*tb*(p - 1)", kScatterHc, true, false, false,
   Need::none, [](const Terms& t) { return t.ts * t.log2p + t.m * t.tb * (t.p - 1); }},
  // Sum over i = 1..log2 p of (ts + m*tb*p/2^i + th*p/2^i).
  {NS::ring, Op::scatter, CT, "ts*log2(p) + m*tb*(p - 1) + th*(p - 1)", kScatterCt, false, true,
   false, Need::p_power_of_two,
   [](const Terms& t) { return t.ts * t.log2p + (t.m * t.tb + t.th) * (t.p - 1); }},
  {NS::torus, Op::scatter, CT, "ts*log2(p) + m*tb*(p - 1) + 2*th*(sqrt(p) - 1)", kScatterCt,
   false, true, false, Need::sqrt_p_power_of_two,
   [](const Terms& t) {
     return t.ts * t.log2p + t.m * t.tb * (t.p - 1) + 2 * t.th * (t.d - 1);
   }},
  {NS::hypercube, Op::scatter, CT, "(ts + th)*log2(p) + m*tb*(p - 1)", kScatterCt, false, true,
   false, Need::none,
   [](const Terms& t) { return (t.ts + t.th) * t.log2p + t.m * t.tb * (t.p - 1); }},

  // --- total exchange (all-to-all personalized) -------------------------------------------
  {NS::ring, Op::total_exchange, SF, "(ts + m*p*tb/2)*(p - 1)", kTeSf, true, false, false,
   Need::none, [](const Terms& t) { return (t.ts + t.m * t.p * t.tb / 2) * (t.p - 1); }},
  {NS::torus, Op::total_exchange, SF, "(2*ts + m*p*tb)*(sqrt(p) - 1)", kTeSf, true, false, false,
   Need::none, [](const Terms& t) { return (2 * t.ts + t.m * t.p * t.tb) * (t.d - 1); }},
  {NS::hypercube, Op::total_exchange, SF, "(ts + m*p*tb/2)*log2(p)", kTeSf, true, false, false,
   Need::none, [](const Terms& t) { return (t.ts + t.m * t.p * t.tb / 2) * t.log2p; }},
  {NS::ring, Op::total_exchange, CT, "(ts + th + m*p*tb/2)*(p - 1)", kTeCt, false, true, false,
   Need::none,
   [](const Terms& t) { return (t.ts + t.th + t.m * t.p * t.tb / 2) * (t.p - 1); }},
  {NS::torus, Op::total_exchange, CT, "(2*ts + 2*th + m*p*tb)*(sqrt(p) - 1)", kTeCt, false, true,
   false, Need::none,
   [](const Terms& t) { return (2 * t.ts + 2 * t.th + t.m * t.p * t.tb) * (t.d - 1); }},
  {NS::hypercube, Op::total_exchange, CT, "(ts + m*tb)*(p - 1) + th*p*log2(p)/2", kTeCtHc, true,
   true, false, Need::none,
   [](const Terms& t) { return (t.ts + t.m * t.tb) * (t.p - 1) + t.th * t.p * t.log2p / 2; }},

  // --- circular q-shift -------------------------------------------------------------------
  {NS::ring, Op::shift, SF, "(ts + m*tb)*min(q, p - q)", kShiftRingSf, false, false, false,
   Need::none, [](const Terms& t) { return (t.ts + t.m * t.tb) * t.qmin; }},
  {NS::torus, Op::shift, SF, "(ts + m*tb)*(2*floor(sqrt(p)/2) + 1)", kShiftSf, true, false, true,
   Need::none,
   [](const Terms& t) { return (t.ts + t.m * t.tb) * (2 * std::floor(t.d / 2) + 1); }},
  {NS::hypercube, Op::shift, SF, "(ts + m*tb)*(2*log2(p) - 1)", kShiftSf, true, false, true,
   Need::none, [](const Terms& t) { return (t.ts + t.m * t.tb) * (2 * t.log2p - 1); }},
  {NS::ring, Op::shift, CT, "(ts + m*tb + th)*min(q, p - q)", kShiftCt, false, true, false,
   Need::none, [](const Terms& t) { return (t.ts + t.m * t.tb + t.th) * t.qmin; }},
  {NS::torus, Op::shift, CT, "(ts + m*tb + th)*(2*floor(sqrt(p)/2) + 1)", kShiftCt, false, true,
   true, Need::none,
   [](const Terms& t) { return (t.ts + t.m * t.tb + t.th) * (2 * std::floor(t.d / 2) + 1); }},
  {NS::hypercube, Op::shift, CT, "ts + m*tb + th*(log2(p) - gamma(q))", kShiftCtHc, true, true,
   false, Need::none,
   [](const Terms& t) { return t.ts + t.m * t.tb + t.th * (t.log2p - t.gamma); }},
}};
// clang-format on

constexpr std::int64_t kMaxProcessors = std::int64_t{1} << 30;

bool is_power_of_two(std::int64_t x) {
  return x > 0 && std::has_single_bit(static_cast<std::uint64_t>(x));
}

// sqrt(p) when p is a perfect square, else 0.
std::int64_t exact_sqrt(std::int64_t p) {
  auto r = static_cast<std::int64_t>(std::llround(std::sqrt(static_cast<double>(p))));
  while (r * r > p) --r;
  while ((r + 1) * (r + 1) <= p) ++r;
  return r * r == p ? r : 0;
}

}  // namespace

std::int64_t check_processor_count(NetworkShape shape, std::int64_t p) {
  if (p < 2 || p > kMaxProcessors)
    throw InvalidParameter(fmt::format("{} processors: must be in 2..2^30", p), "--p");
  switch (shape) {
    case NetworkShape::ring:
      return 0;
    case NetworkShape::torus: {
      const std::int64_t d = exact_sqrt(p);
      if (d < 2)
        throw InvalidParameter(
            fmt::format("{} is not a square: the 2-D torus of seed 003 is sqrt(p) x sqrt(p)", p),
            "--p");
      return d;
    }
    case NetworkShape::hypercube:
      if (!is_power_of_two(p))
        throw InvalidParameter(fmt::format("{} is not a power of two (a hypercube has 2^n)", p),
                               "--p");
      return 0;
  }
  return 0;
}

NetworkShape parse_network_shape(std::string_view original, std::string_view option) {
  const std::string text = ascii_lower(original);
  if (text == "ring") return NetworkShape::ring;
  if (text == "torus") return NetworkShape::torus;
  if (text == "hypercube") return NetworkShape::hypercube;
  throw InvalidParameter(
      fmt::format("'{}': unknown topology (use ring, torus, hypercube)", original),
      std::string(option));
}

Operation parse_operation(std::string_view original, std::string_view option) {
  const std::string text = ascii_lower(original);
  if (text == "p2p") return Operation::p2p;
  if (text == "oab") return Operation::one_to_all_broadcast;
  if (text == "aab") return Operation::all_to_all_broadcast;
  if (text == "scatter" || text == "oas") return Operation::scatter;
  if (text == "total-exchange" || text == "aas") return Operation::total_exchange;
  if (text == "shift") return Operation::shift;
  throw InvalidParameter(
      fmt::format("'{}': unknown operation (use p2p, oab, aab, scatter, total-exchange, shift; "
                  "reductions: reduce, allreduce, reducescatter, scan)",
                  original),
      std::string(option));
}

RoutingMethod parse_routing_method(std::string_view original, std::string_view option) {
  const std::string text = ascii_lower(original);
  if (text == "sf" || text == "store-and-forward") return RoutingMethod::store_and_forward;
  if (text == "ct" || text == "cut-through" || text == "wormhole")
    return RoutingMethod::cut_through;
  throw InvalidParameter(fmt::format("'{}': unknown switching (use sf, ct)", original),
                         std::string(option));
}

std::string_view to_string(NetworkShape s) {
  switch (s) {
    case NetworkShape::ring:
      return "ring";
    case NetworkShape::torus:
      return "torus";
    case NetworkShape::hypercube:
      return "hypercube";
  }
  return "?";
}

std::string_view to_string(Operation op) {
  switch (op) {
    case Operation::p2p:
      return "p2p";
    case Operation::one_to_all_broadcast:
      return "oab";
    case Operation::all_to_all_broadcast:
      return "aab";
    case Operation::scatter:
      return "scatter";
    case Operation::total_exchange:
      return "total-exchange";
    case Operation::shift:
      return "shift";
  }
  return "?";
}

std::string_view to_string(RoutingMethod r) {
  return r == RoutingMethod::store_and_forward ? "sf" : "ct";
}

std::string_view display_name(Operation op) {
  switch (op) {
    case Operation::p2p:
      return "data communication between two processors";
    case Operation::one_to_all_broadcast:
      return "one-to-all broadcast";
    case Operation::all_to_all_broadcast:
      return "all-to-all broadcast";
    case Operation::scatter:
      return "one-to-all personalized communication (scatter)";
    case Operation::total_exchange:
      return "total exchange";
    case Operation::shift:
      return "circular shift";
  }
  return "?";
}

AnalyticEstimate analytic_time(NetworkShape shape, Operation op, RoutingMethod method,
                               const AnalyticParams& a) {
  const std::int64_t d = check_processor_count(shape, a.p);
  if (a.bytes < 0) throw InvalidParameter("must not be negative", "--bytes");
  if (a.ts < 0 || a.tb < 0 || a.th < 0)
    throw InvalidParameter("times must not be negative", a.ts < 0   ? "--ts"
                                                         : a.tb < 0 ? "--tb"
                                                                    : "--th");
  if (op == Operation::shift && (a.q < 1 || a.q > a.p - 1))
    throw InvalidParameter(fmt::format("{}: the shift must be in 1..p-1 = 1..{}", a.q, a.p - 1),
                           "--q");
  const auto it = std::find_if(kTable.begin(), kTable.end(), [&](const Entry& e) {
    return e.shape == shape && e.op == op && e.method == method;
  });
  assert(it != kTable.end());
  if (it->need == Need::p_power_of_two && !is_power_of_two(a.p))
    throw InvalidParameter(
        fmt::format("{} is not a power of two: the cut-through {} on a ring uses the chapter's "
                    "logical hypercube (recursive halving)",
                    a.p, display_name(op)),
        "--p");
  if (it->need == Need::sqrt_p_power_of_two && !is_power_of_two(d))
    throw InvalidParameter(
        fmt::format("sqrt({}) = {} is not a power of two: the cut-through {} on a torus halves "
                    "rows and columns recursively",
                    a.p, d, display_name(op)),
        "--p");

  Terms t{};
  t.ts = a.ts;
  t.tb = a.tb;
  t.th = a.th;
  t.m = static_cast<double>(a.bytes);
  t.p = static_cast<double>(a.p);
  t.log2p = std::log2(t.p);
  t.d = static_cast<double>(d);
  t.q = static_cast<double>(a.q);
  t.gamma = a.q >= 1 ? static_cast<double>(std::countr_zero(static_cast<std::uint64_t>(a.q))) : 0;
  t.qmin = static_cast<double>(std::min(a.q, a.p - a.q));

  AnalyticEstimate e;
  e.seconds = it->eval(t);
  e.formula = it->formula;
  e.source = it->source;
  e.from_chapter = it->from_chapter;
  e.uses_th = it->uses_th;
  e.upper_estimate = it->upper_estimate;
  return e;
}

std::span<const AnalyticFormulaInfo> analytic_formulas() {
  static const std::vector<AnalyticFormulaInfo> infos = [] {
    std::vector<AnalyticFormulaInfo> v;
    for (const Entry& e : kTable) {
      std::string_view need;
      if (e.need == Need::p_power_of_two) need = "p a power of two";
      if (e.need == Need::sqrt_p_power_of_two) need = "sqrt(p) a power of two";
      v.push_back({e.shape, e.op, e.method, e.formula, e.source, e.from_chapter, need});
    }
    return v;
  }();
  return infos;
}

}  // namespace ccsched
