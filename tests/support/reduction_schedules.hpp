// Hand-made reduction schedule documents (FORMATS.md "Reductions") on the bidirectional
// ring 0-1-2-3-0, for the tests that price and replay them (tests/cost, tests/simulate).
// Each is the textbook algorithm written out transfer by transfer, so the expected times
// can be summed by hand and compared with the closed forms of cost/reduction.hpp.
#pragma once

#include <string>

namespace ccsched::testing {

// The ring:4 topology document, and a schedule document around it.
inline std::string ring4_reduction_document(const std::string& collective, const std::string& ports,
                                            int steps, const std::string& transfers) {
  return R"({
  "format": "ccsched-schedule/1",
  "topology": {
    "format": "ccsched-topology/1", "name": "ring:4", "directed": false,
    "nodes": [{"id": 0, "kind": "processor"}, {"id": 1, "kind": "processor"},
              {"id": 2, "kind": "processor"}, {"id": 3, "kind": "processor"}],
    "channels": [[0, 1], [1, 0], [1, 2], [2, 1], [2, 3], [3, 2], [3, 0], [0, 3]]
  },
  "collective": )" +
         collective + R"(,
  "model": {"ports": )" +
         ports + R"(, "switching": "wormhole", "routing": "minimal", "combining": false},
  "steps": )" +
         std::to_string(steps) + R"(,
  "transfers": [
)" + transfers +
         R"(
  ]
})";
}

// Ring all-reduce in 4 blocks: reduce-scatter (steps 1-3: processor i passes block
// i - k + 1 to i + 1, which adds it), then all-gather (steps 4-6: the full blocks go round
// and are copied). One port: every processor sends one and receives one block per step.
inline std::string ring4_allreduce_ring() {
  return ring4_reduction_document(
      R"({"kind": "ALLREDUCE", "senders": [0, 1, 2, 3], "receivers": [0, 1, 2, 3], "blocks": 4})",
      "1", 6, R"(
    {"step": 1, "path": [0, 1], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 1, "path": [1, 2], "blocks": [1], "send": "input", "recv": "reduce"},
    {"step": 1, "path": [2, 3], "blocks": [2], "send": "input", "recv": "reduce"},
    {"step": 1, "path": [3, 0], "blocks": [3], "send": "input", "recv": "reduce"},
    {"step": 2, "path": [0, 1], "blocks": [3], "send": "acc", "recv": "reduce"},
    {"step": 2, "path": [1, 2], "blocks": [0], "send": "acc", "recv": "reduce"},
    {"step": 2, "path": [2, 3], "blocks": [1], "send": "acc", "recv": "reduce"},
    {"step": 2, "path": [3, 0], "blocks": [2], "send": "acc", "recv": "reduce"},
    {"step": 3, "path": [0, 1], "blocks": [2], "send": "acc", "recv": "reduce"},
    {"step": 3, "path": [1, 2], "blocks": [3], "send": "acc", "recv": "reduce"},
    {"step": 3, "path": [2, 3], "blocks": [0], "send": "acc", "recv": "reduce"},
    {"step": 3, "path": [3, 0], "blocks": [1], "send": "acc", "recv": "reduce"},
    {"step": 4, "path": [0, 1], "blocks": [1], "send": "acc", "recv": "copy"},
    {"step": 4, "path": [1, 2], "blocks": [2], "send": "acc", "recv": "copy"},
    {"step": 4, "path": [2, 3], "blocks": [3], "send": "acc", "recv": "copy"},
    {"step": 4, "path": [3, 0], "blocks": [0], "send": "acc", "recv": "copy"},
    {"step": 5, "path": [0, 1], "blocks": [0], "send": "acc", "recv": "copy"},
    {"step": 5, "path": [1, 2], "blocks": [1], "send": "acc", "recv": "copy"},
    {"step": 5, "path": [2, 3], "blocks": [2], "send": "acc", "recv": "copy"},
    {"step": 5, "path": [3, 0], "blocks": [3], "send": "acc", "recv": "copy"},
    {"step": 6, "path": [0, 1], "blocks": [3], "send": "acc", "recv": "copy"},
    {"step": 6, "path": [1, 2], "blocks": [0], "send": "acc", "recv": "copy"},
    {"step": 6, "path": [2, 3], "blocks": [1], "send": "acc", "recv": "copy"},
    {"step": 6, "path": [3, 0], "blocks": [2], "send": "acc", "recv": "copy"})");
}

// Recursive doubling all-reduce, one block: pairs (0,1), (2,3) exchange inputs, then
// pairs (1,2), (3,0) exchange sums; every processor adds the whole vector in each step.
inline std::string ring4_allreduce_doubling() {
  return ring4_reduction_document(
      R"({"kind": "ALLREDUCE", "senders": [0, 1, 2, 3], "receivers": [0, 1, 2, 3], "blocks": 1})",
      "1", 2, R"(
    {"step": 1, "path": [0, 1], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 1, "path": [1, 0], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 1, "path": [2, 3], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 1, "path": [3, 2], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 2, "path": [1, 2], "blocks": [0], "send": "acc", "recv": "reduce"},
    {"step": 2, "path": [2, 1], "blocks": [0], "send": "acc", "recv": "reduce"},
    {"step": 2, "path": [3, 0], "blocks": [0], "send": "acc", "recv": "reduce"},
    {"step": 2, "path": [0, 3], "blocks": [0], "send": "acc", "recv": "reduce"})");
}

// Reduce of the inputs of 1, 2, 3 into processor 0, which has none: step 1 stores 1's
// input in 0's empty accumulator (no addition); step 2 brings 3's input directly and 2's
// over 2 -> 1 -> 0, and 0 adds both (two vectors). All-port.
inline std::string ring4_reduce_into_empty_root() {
  return ring4_reduction_document(
      R"({"kind": "REDUCE", "senders": [1, 2, 3], "receivers": [0], "blocks": 1})", R"("all")", 2,
      R"(
    {"step": 1, "path": [1, 0], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 2, "path": [3, 0], "blocks": [0], "send": "input", "recv": "reduce"},
    {"step": 2, "path": [2, 1, 0], "blocks": [0], "send": "input", "recv": "reduce"})");
}

}  // namespace ccsched::testing
