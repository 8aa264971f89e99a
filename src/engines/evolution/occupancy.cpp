// Incremental conflict counting (seed 000 §4.3): see occupancy.hpp for the formula.
// A transfer postponed past step T occupies nothing and costs one (seed 000 §4.4: the
// penalty is the number of transfers running over the prescribed number of steps).
#include "occupancy.hpp"

#include <algorithm>

namespace ccsched::evo {

Occupancy::Occupancy(const Instance& inst)
    : inst_(&inst),
      channels_(static_cast<std::size_t>(inst.channel_count())),
      nodes_(static_cast<std::size_t>(inst.node_count())),
      load_((static_cast<std::size_t>(inst.steps()) + 1) * channels_, 0),
      sends_((static_cast<std::size_t>(inst.steps()) + 1) * nodes_, 0),
      receives_((static_cast<std::size_t>(inst.steps()) + 1) * nodes_, 0) {}

void Occupancy::clear() {
  std::fill(load_.begin(), load_.end(), 0);
  std::fill(sends_.begin(), sends_.end(), 0);
  std::fill(receives_.begin(), receives_.end(), 0);
  conflicts_ = 0;
}

void Occupancy::add(const Placement& p) {
  if (p.step > inst_->steps()) {
    ++conflicts_;
    return;
  }
  // A transfer joining a channel already used by `load` others conflicts with each.
  for (const ChannelId c : inst_->path_channels(p.path))
    conflicts_ += load_[index_channel(p.step, c)]++;
  const auto k = static_cast<std::uint32_t>(inst_->ports());
  std::uint32_t& s = sends_[index_node(p.step, p.from)];
  std::uint32_t& r = receives_[index_node(p.step, p.to)];
  if (inst_->port_limited()) conflicts_ += (s >= k) + (r >= k);
  ++s;
  ++r;
}

void Occupancy::remove(const Placement& p) {
  if (p.step > inst_->steps()) {
    --conflicts_;
    return;
  }
  for (const ChannelId c : inst_->path_channels(p.path))
    conflicts_ -= --load_[index_channel(p.step, c)];
  const auto k = static_cast<std::uint32_t>(inst_->ports());
  std::uint32_t& s = sends_[index_node(p.step, p.from)];
  std::uint32_t& r = receives_[index_node(p.step, p.to)];
  --s;
  --r;
  if (inst_->port_limited()) conflicts_ -= (s >= k) + (r >= k);
}

std::int64_t Occupancy::cost(const Placement& p) const {
  if (p.step > inst_->steps()) return 1;
  std::int64_t c = 0;
  for (const ChannelId ch : inst_->path_channels(p.path)) c += load_[index_channel(p.step, ch)];
  if (inst_->port_limited())
    c += (sends_[index_node(p.step, p.from)] >= static_cast<std::uint32_t>(inst_->ports())) +
         (receives_[index_node(p.step, p.to)] >= static_cast<std::uint32_t>(inst_->ports()));
  return c;
}

bool Occupancy::conflicted(const Placement& p) const {
  if (p.step > inst_->steps()) return true;
  for (const ChannelId ch : inst_->path_channels(p.path))
    if (load_[index_channel(p.step, ch)] > 1) return true;
  const auto k = static_cast<std::uint32_t>(inst_->ports());
  return inst_->port_limited() &&
         (sends_[index_node(p.step, p.from)] > k || receives_[index_node(p.step, p.to)] > k);
}

std::int64_t Occupancy::place_all(const Genome& genome) {
  clear();
  for (std::size_t g = 0; g < genome.step.size(); ++g) add(placement(*inst_, genome, g));
  return conflicts_;
}

}  // namespace ccsched::evo
