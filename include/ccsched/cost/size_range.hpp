// The message sizes a schedule is the best choice for, under the linear time model: where
// it is faster than the ring algorithms a runtime falls back to (NCCL and RCCL run rings;
// docs/COST.md §3 gives their times, seed 003). `codegen msccl` writes this range as the
// algorithm's minBytes/maxBytes, so that the MSCCL scheduler picks the schedule only where
// it helps (docs/CODEGEN.md, "Size range").
//
//   LinearModel model{.t0 = 1e-6, .t1 = 0.5e-9};
//   SizeRange r = best_size_range(schedule, model);
//   // r.empty, or every m in [r.min_bytes, r.max_bytes] (no upper end: nullopt)
//
// Both times are linear in m: the schedule's is sum_i (t0 + c_i*m*t1 + h_i*th) plus the
// adds of a reduction (linear.hpp), a ring algorithm's is its seed 003 formula. The range
// is where the schedule's line lies at or below every ring algorithm's line (for a
// reduction, every ring algorithm the cost module knows: the whole lower envelope), one
// interval, since each comparison of two lines holds on a half-line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "ccsched/cost/linear.hpp"
#include "ccsched/schedule/schedule.hpp"

namespace ccsched {

struct SizeRange {
  bool empty = false;                     // the schedule is never the faster one
  std::int64_t min_bytes = 0;             // m: bytes per message (reductions: per vector)
  std::optional<std::int64_t> max_bytes;  // nullopt: no upper limit
  std::string baseline;  // what it was compared with: "the ring all-to-all broadcast ..."
};

// Throws Unsupported for a collective without a ring algorithm in the cost module (MNB,
// MNS, PERM, CUSTOM, SCAN) and for fewer than two processors.
SizeRange best_size_range(const Schedule& s, const LinearModel& model);

}  // namespace ccsched
