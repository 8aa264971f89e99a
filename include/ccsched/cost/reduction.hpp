// Analytic times of the four reductions — reduce (seed 003's "single-node accumulation"),
// all-reduce (its "reduction"), reduce-scatter and scan (its "prefix sum") — on the ring,
// the 2-D sqrt(p) x sqrt(p) torus and the hypercube of seed 003, under store-and-forward
// (SF) and cut-through (CT) routing, for several algorithms each, and the choice between
// them by message size that MPI libraries make (latency-optimal for short vectors,
// bandwidth-optimal for long ones).
//
//   ReductionParams a{.p = 16, .ts = 10e-6, .tb = 10e-9, .th = 0, .tc = 1e-9, .bytes = 4096};
//   ReductionEstimate e = reduction_time(NetworkShape::hypercube, ReductionOp::allreduce,
//                                        RoutingMethod::store_and_forward, a);
//   // e.algorithms: recursive-doubling, rabenseifner, ring, reduce-broadcast, each with
//   // its time; e.best; e.crossovers: m = 1645.24 B, recursive-doubling below, rabenseifner
//   // above.
//
// Notation is the chapter's (analytic.hpp) plus tc, the time to add one byte of a
// received vector into a local one: the reduction's local work, which the chapter's
// formula (m = 1, "(ts + tb) log2 p") leaves out. m is the bytes of each processor's
// input vector for every operation (for reduce-scatter each processor keeps m/p of the
// result). Algorithms that split the vector send blocks of m/p (or m/sqrt(p)) bytes,
// taken as real numbers, exact when the division is.
//
// Every algorithm's time is linear in m, t(m) = startups*ts + hops*th + m*(sent*tb +
// added*tc), with coefficients that depend on p only; so the message size at which two
// algorithms take equal time is one division, and the fastest algorithm over all m >= 0
// is the lower envelope of a few lines. All algorithms are listed once, in one table in
// reduction.cpp, which also feeds `ccsched estimate --list`; docs/COST.md derives each.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "ccsched/cost/analytic.hpp"

namespace ccsched {

enum class ReductionOp { reduce, allreduce, reducescatter, scan };

// CLI spellings: reduce | allreduce | reducescatter | scan; also all-reduce,
// reduce-scatter, prefix-sum. `reduction_op_named` returns nullopt for other text (the
// caller then tries the chapter's other operations); `parse_reduction_op` throws
// InvalidParameter naming `option`.
std::optional<ReductionOp> reduction_op_named(std::string_view text);
ReductionOp parse_reduction_op(std::string_view text, std::string_view option);
std::string_view to_string(ReductionOp op);     // the CLI spelling
std::string_view display_name(ReductionOp op);  // "all-reduce", ...

struct ReductionParams {
  std::int64_t p = 0;      // processors
  double ts = 0.0;         // start-up, seconds
  double tb = 0.0;         // transfer time per byte, seconds
  double th = 0.0;         // per hop, seconds (CT only)
  double tc = 0.0;         // time to add one byte into a local vector, seconds
  std::int64_t bytes = 0;  // m: bytes of each processor's input vector
};

// t(m) = startups*ts + hops*th + m*(sent*tb + added*tc): what one algorithm pays on the
// critical path. `startups` is also its number of synchronized steps. Under SF `hops` is 0
// (the chapter's long-message form neglects th).
struct ReductionTerms {
  double startups = 0.0;
  double hops = 0.0;
  double sent = 0.0;   // bytes sent along the critical path, per byte of m
  double added = 0.0;  // bytes added along the critical path, per byte of m

  double intercept(const ReductionParams& a) const { return startups * a.ts + hops * a.th; }
  double slope(const ReductionParams& a) const { return sent * a.tb + added * a.tc; }
  double seconds(const ReductionParams& a, double m) const {
    return intercept(a) + slope(a) * m;
  }
};

struct ReductionAlgorithmEstimate {
  std::string_view name;     // "recursive-doubling", "rabenseifner", "ring", ...
  std::string_view formula;  // ASCII, in the chapter's notation plus tc
  std::string_view source;   // where in seed 003, or how it is derived from it
  bool from_chapter = false; // the chapter prints this formula (for m = 1, without tc)
  std::int64_t blocks = 1;   // pieces the vector is split into (1: whole vectors)
  ReductionTerms terms;
  double seconds = 0.0;      // at params.bytes
};

// Where two algorithms take equal time: `below` is faster for m < bytes, `above` for
// m > bytes.
struct ReductionCrossover {
  double bytes = 0.0;
  double seconds = 0.0;  // the common time at that size
  std::string_view below;
  std::string_view above;
};

struct ReductionNotApplicable {
  std::string_view name;
  std::string_view requirement;  // "p a power of two", ...
};

struct ReductionEstimate {
  std::vector<ReductionAlgorithmEstimate> algorithms;  // the applicable ones, table order
  std::vector<ReductionNotApplicable> not_applicable;  // the others, with the reason
  std::size_t best = 0;  // fastest at params.bytes (first in table order on a tie)
  // The lower envelope over m >= 0: the fastest algorithm changes at each crossover, in
  // increasing m. Empty when one algorithm is never slower than the others.
  std::vector<ReductionCrossover> crossovers;
  std::size_t fastest_at_zero = 0;  // the envelope's first algorithm (m -> 0)
  bool uses_th = false;
};

// Checks p against the shape (check_processor_count) and the parameters (non-negative);
// algorithms whose requirement p does not meet go to `not_applicable`, and when none is
// left throws InvalidParameter with where "--p".
ReductionEstimate reduction_time(NetworkShape shape, ReductionOp op, RoutingMethod method,
                                 const ReductionParams& params);

// The m >= 0 at which `a` and `b` take equal time under `params`; nullopt when their
// lines do not cross at a positive size (parallel, or one never slower).
std::optional<double> crossover_bytes(const ReductionTerms& a, const ReductionTerms& b,
                                      const ReductionParams& params);

// One row of the algorithm table, for listings and documentation.
struct ReductionFormulaInfo {
  NetworkShape shape;
  ReductionOp op;
  RoutingMethod method;
  std::string_view name;
  std::string_view formula;
  std::string_view source;
  bool from_chapter;
  std::string_view requirement;  // "" or e.g. "p a power of two"
};
std::span<const ReductionFormulaInfo> reduction_formulas();

}  // namespace ccsched
