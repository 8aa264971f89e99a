// The point-to-point time models for clusters of seed 003 ("Complexity Estimation of
// Communication Operations for Cluster Systems"): model A, the advanced model B with
// packets, and model C (Hockney). Times in seconds, sizes in bytes.
//
//   A:  t(m) = ts + m*tb + th
//   B:  t(m) = ts0 + m*ts1 + (m + Vh)*tb                      n = 1
//       t(m) = ts0 + (Vmax - Vh)*ts1 + (m + Vh*n)*tb          n > 1
//       n = ceil(m / (Vmax - Vh)) packets; its latency is ts = ts0 + (Vmax - Vh)*ts1
//   C:  t(m) = ts + m*tb = alpha + m/beta,  alpha = ts, beta = 1/tb   (Hockney)
//
// The chapter gives no values for Vmax and Vh; the defaults here are those of its
// experiment's network (Fast Ethernet with TCP/IP): Vmax = 1500 bytes (the Ethernet MTU)
// and Vh = 40 bytes (IPv4 + TCP headers without options). docs/COST.md says so.
#pragma once

#include <cstdint>

namespace ccsched {

struct ModelA {
  double ts = 0.0;  // start-up
  double tb = 0.0;  // per byte
  double th = 0.0;  // control data (header), once per message
};

struct ModelB {
  double ts0 = 0.0;          // hardware latency
  double ts1 = 0.0;          // preparation time per byte (of the first packet)
  double tb = 0.0;           // per byte on the wire, headers included
  std::int64_t vmax = 1500;  // largest packet, bytes
  std::int64_t vh = 40;      // control data per packet, bytes
};

struct ModelC {
  double ts = 0.0;  // alpha, the latency
  double tb = 0.0;  // 1/beta
  double alpha() const { return ts; }
  double beta() const { return tb > 0 ? 1.0 / tb : 0.0; }  // bytes per second; 0 = infinite
};

double model_time(const ModelA& a, std::int64_t bytes);
double model_time(const ModelB& b, std::int64_t bytes);
double model_time(const ModelC& c, std::int64_t bytes);

// n = ceil(m / (Vmax - Vh)), at least 1 (an empty message still travels in one packet).
std::int64_t model_b_packets(const ModelB& b, std::int64_t bytes);
// ts = ts0 + (Vmax - Vh)*ts1, the chapter's latency of model B.
double model_b_latency(const ModelB& b);
// Throws InvalidParameter ("--vmax" / "--vh") unless 0 <= Vh < Vmax.
void check_model_b(const ModelB& b);

}  // namespace ccsched
