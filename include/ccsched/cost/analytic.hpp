// The analytic communication times of seed 003 (Gergel, "Communication Complexity
// Analysis of Parallel Algorithms"): six operations on a ring, a 2-D sqrt(p) x sqrt(p)
// torus and a hypercube, under store-and-forward (SF) and cut-through (CT) routing.
//
//   AnalyticParams a{.p = 8, .ts = 1e-6, .tb = 0.5e-9, .th = 0.1e-6, .bytes = 1024};
//   AnalyticEstimate e = analytic_time(NetworkShape::ring, Operation::one_to_all_broadcast,
//                                      RoutingMethod::cut_through, a);
//   // e.seconds, e.formula "(ts + m*tb)*log2(p) + th*(p - 1)", e.source, e.from_chapter
//
// Notation as in the chapter: ts start-up, tb time per byte (the chapter's m is in bytes),
// th per-hop (header) time, p processors, m bytes per message, q the shift distance.
// The chapter's SF formulas neglect th (its long-message form t = ts + m*tb*l), so under
// SF `th` is not used; `uses_th` says so. The chapter gives no formula for some of the 36
// cases; those are derived here from its algorithms (`from_chapter` false) and
// docs/COST.md shows each derivation. Every formula is listed once, in one table in
// analytic.cpp, which also feeds `ccsched estimate --list`.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace ccsched {

enum class NetworkShape { ring, torus, hypercube };
enum class Operation {
  p2p,                   // data communication between two processors (longest path)
  one_to_all_broadcast,  // single-node broadcast
  all_to_all_broadcast,  // multinode broadcast
  scatter,               // one-to-all personalized communication
  total_exchange,        // all-to-all personalized communication
  shift                  // circular q-shift
};
// The chapter's names: store-and-forward routing (SFR), cut-through routing (CTR).
enum class RoutingMethod { store_and_forward, cut_through };

// CLI spellings: ring|torus|hypercube; p2p|oab|aab|scatter|total-exchange|shift (also
// oas = scatter, aas = total-exchange); sf|ct (also store-and-forward, cut-through,
// wormhole). Throw InvalidParameter naming `option` and the text.
NetworkShape parse_network_shape(std::string_view text, std::string_view option);
Operation parse_operation(std::string_view text, std::string_view option);
RoutingMethod parse_routing_method(std::string_view text, std::string_view option);
std::string_view to_string(NetworkShape s);
std::string_view to_string(Operation op);     // the CLI spelling
std::string_view to_string(RoutingMethod r);  // "sf" | "ct"
std::string_view display_name(Operation op);  // "one-to-all broadcast", ...

struct AnalyticParams {
  std::int64_t p = 0;      // processors
  double ts = 0.0;         // start-up, seconds
  double tb = 0.0;         // per byte, seconds
  double th = 0.0;         // per hop, seconds (CT only)
  std::int64_t bytes = 0;  // m
  std::int64_t q = 1;      // shift distance, 1..p-1 (shift only)
};

struct AnalyticEstimate {
  double seconds = 0.0;
  std::string_view formula;  // ASCII, in the chapter's notation
  std::string_view source;   // where in seed 003, or how it was derived
  bool from_chapter = true;  // false: derived here from the chapter's algorithm
  bool uses_th = false;
  bool upper_estimate = false;  // the chapter's bound for the worst q (shift), not exact
};

// Checks p (and q for shifts) against the shape and the formula's algorithm: hypercube
// p = 2^n; torus p = d^2, d >= 2; ring p >= 2; the logical-hypercube CT algorithms on
// ring and torus need p (ring) or sqrt(p) (torus) a power of two; 1 <= q <= p - 1.
// Throws InvalidParameter with where "--p" or "--q".
AnalyticEstimate analytic_time(NetworkShape shape, Operation op, RoutingMethod method,
                               const AnalyticParams& params);

// Checks p against the shape: 2 <= p <= 2^30; hypercube p = 2^n; torus p = d^2 with
// d >= 2. Returns d for a torus, 0 otherwise. Throws InvalidParameter with where "--p".
// analytic_time and reduction_time (reduction.hpp) both check through it.
std::int64_t check_processor_count(NetworkShape shape, std::int64_t p);

// One row of the formula table, for listings and documentation.
struct AnalyticFormulaInfo {
  NetworkShape shape;
  Operation op;
  RoutingMethod method;
  std::string_view formula;
  std::string_view source;
  bool from_chapter;
  std::string_view requirement;  // "" or e.g. "p a power of two"
};
std::span<const AnalyticFormulaInfo> analytic_formulas();

}  // namespace ccsched
