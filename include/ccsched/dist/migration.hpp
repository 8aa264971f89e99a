// The two migration policies of the island model, separate from the transport (pagmo's
// selection and replacement policies): which members leave an island, and which members
// the arrivals replace. Both look only at fitness values (conflicts; lower is better) and
// are deterministic — ties go to the lower index — so migration never breaks
// reproducibility.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ccsched::dist {

// Emigrant selection: the indices of the `count` best members (fewest conflicts first).
std::vector<std::size_t> select_emigrants(std::span<const std::int64_t> fitness, std::size_t count);

// Immigrant replacement: pairs each immigrant (best first) with one of the worst members
// (worst first) and replaces that member only when the immigrant is at least as good.
// Returns (member index, immigrant index) pairs.
std::vector<std::pair<std::size_t, std::size_t>> choose_replacements(
    std::span<const std::int64_t> members, std::span<const std::int64_t> immigrants);

}  // namespace ccsched::dist
