// Models A, B and C of seed 003 for cluster networks (include/ccsched/cost/cluster.hpp).
#include "ccsched/cost/cluster.hpp"

#include <fmt/core.h>

#include <algorithm>

#include "ccsched/core/error.hpp"

namespace ccsched {

double model_time(const ModelA& a, std::int64_t bytes) {
  // Seed 003, model A: t_comm(m) = ts + m*tb + th.
  return a.ts + static_cast<double>(bytes) * a.tb + a.th;
}

std::int64_t model_b_packets(const ModelB& b, std::int64_t bytes) {
  const std::int64_t payload = b.vmax - b.vh;
  return std::max<std::int64_t>(1, (bytes + payload - 1) / payload);
}

double model_b_latency(const ModelB& b) {
  // Seed 003: ts = ts0 + (Vmax - Vh)*ts1.
  return b.ts0 + static_cast<double>(b.vmax - b.vh) * b.ts1;
}

double model_time(const ModelB& b, std::int64_t bytes) {
  // Seed 003, advanced model B. Only the first packet's bytes are prepared one by one
  // (ts1); later packets overlap with the wire, so a long message pays a full packet.
  const std::int64_t n = model_b_packets(b, bytes);
  const auto m = static_cast<double>(bytes);
  const auto vh = static_cast<double>(b.vh);
  if (n == 1) return b.ts0 + m * b.ts1 + (m + vh) * b.tb;
  return model_b_latency(b) + (m + vh * static_cast<double>(n)) * b.tb;
}

double model_time(const ModelC& c, std::int64_t bytes) {
  // Seed 003, model C (Hockney): t_comm(m) = ts + m*tb = alpha + m/beta.
  return c.ts + static_cast<double>(bytes) * c.tb;
}

void check_model_b(const ModelB& b) {
  if (b.vh < 0) throw InvalidParameter(fmt::format("{} bytes: must not be negative", b.vh), "--vh");
  if (b.vmax <= b.vh)
    throw InvalidParameter(
        fmt::format("{} bytes: the largest packet must exceed its control data Vh = {}", b.vmax,
                    b.vh),
        "--vmax");
}

}  // namespace ccsched
