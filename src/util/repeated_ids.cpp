#include "util/repeated_ids.hpp"

#include <algorithm>
#include <map>

#include "aeval/error.hpp"

namespace aeval {

void RepeatedIds::add(std::string_view id, std::uint64_t place) {
  ids_.push_back({hash_(id), place});
  sorted_ = false;
}

std::optional<RepeatedIds::Repeat> RepeatedIds::first_repeat(
    const std::function<std::string(std::uint64_t place)>& id_at) {
  std::sort(ids_.begin(), ids_.end());
  sorted_ = true;
  std::optional<Repeat> earliest;
  for (std::size_t i = 1; i < ids_.size(); ++i) {
    if (ids_[i].hash != ids_[i - 1].hash || (i > 1 && ids_[i - 2].hash == ids_[i].hash)) continue;
    // A run of equal hashes from i - 1, in order of place: the first id met again within it.
    std::map<std::string, std::uint64_t> first_at;
    for (std::size_t j = i - 1; j < ids_.size() && ids_[j].hash == ids_[i].hash; ++j) {
      std::string id = id_at(ids_[j].place);
      const auto [first, added] = first_at.emplace(id, ids_[j].place);
      if (!added && (!earliest || ids_[j].place < earliest->again)) earliest = Repeat{std::move(id), first->second, ids_[j].place};
    }
  }
  return earliest;
}

bool RepeatedIds::any_of(std::string_view id, const std::function<bool(std::uint64_t place)>& is_it) const {
  if (!sorted_) throw Error(ErrorCategory::internal, "ids looked up before they were checked for repeats");
  const std::uint64_t hash = hash_(id);
  for (auto it = std::lower_bound(ids_.begin(), ids_.end(), Hashed{hash, 0}); it != ids_.end() && it->hash == hash; ++it)
    if (is_it(it->place)) return true;
  return false;
}

}  // namespace aeval
