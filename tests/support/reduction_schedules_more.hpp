// More hand-made reduction schedule documents on ring:4 (beside reduction_schedules.hpp),
// for the code generators and the pictures: a ring reduce-scatter, an inclusive scan and a
// binomial reduce. Each is written out transfer by transfer and passes `ccsched verify`.
#pragma once

#include <string>

#include "reduction_schedules.hpp"

namespace ccsched::testing {

// Ring reduce-scatter: block j starts at j+1 and travels j+1 -> j+2 -> j+3 -> j, each hop
// adding the sender's input, so in step k processor i sends block (i - k) mod 4. One port.
inline std::string ring4_reduce_scatter() {
  std::string transfers;
  for (int k = 1; k <= 3; ++k)
    for (int i = 0; i < 4; ++i)
      transfers += (transfers.empty() ? "" : ",\n") +
                   ("{\"step\": " + std::to_string(k) + ", \"path\": [" + std::to_string(i) +
                    ", " + std::to_string((i + 1) % 4) + "], \"blocks\": [" +
                    std::to_string((i - k + 8) % 4) + "], \"send\": \"" +
                    (k == 1 ? "input" : "acc") + "\", \"recv\": \"reduce\"}");
  return ring4_reduction_document(
      R"({"kind": "REDUCESCATTER", "senders": [0, 1, 2, 3], "receivers": [0, 1, 2, 3], "blocks": 4})",
      "1", 3, transfers);
}

// Inclusive scan in the order 0, 1, 2, 3 (Hillis-Steele): step 1 adds each input into the
// next processor; step 2 adds 0's input into 2 (round the other side, 0 -> 3 -> 2, to keep
// channel 1->2 free) and 1's partial sum {0,1} into 3. All-port.
inline std::string ring4_scan() {
  return ring4_reduction_document(
      R"({"kind": "SCAN", "senders": [0, 1, 2, 3], "receivers": [0, 1, 2, 3], "blocks": 1})",
      R"("all")", 2, R"(
    {"step": 1, "path": [0, 1], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 1, "path": [1, 2], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 1, "path": [2, 3], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 2, "path": [0, 3, 2], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 2, "path": [1, 2, 3], "blocks": [0], "send": "acc", "recv": "reduce"})");
}

// Binomial reduce into 0, every processor a sender: 1 -> 0 and 3 -> 2, then 2's partial
// sum over 2 -> 1 -> 0. One port.
inline std::string ring4_binomial_reduce() {
  return ring4_reduction_document(
      R"({"kind": "REDUCE", "senders": [0, 1, 2, 3], "receivers": [0], "blocks": 1})", "1", 2, R"(
    {"step": 1, "path": [1, 0], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 1, "path": [3, 2], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 2, "path": [2, 1, 0], "blocks": [0], "send": "acc", "recv": "reduce"})");
}

}  // namespace ccsched::testing
