#pragma once
// Finding an id given twice among many, in 16 bytes an id: a set of the ids themselves took about 60 (issue 54).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace aeval {

// Ids added one by one, each with a place of the caller's (its position in a list, its offset in a file, growing
// as they are added), kept as their hash only. Where two hash alike, the ids are read back to tell a repeat from a
// collision.
class RepeatedIds {
 public:
  using Hash = std::uint64_t (*)(std::string_view id);
  static std::uint64_t standard_hash(std::string_view id) { return std::hash<std::string_view>{}(id); }
  explicit RepeatedIds(Hash hash = standard_hash) : hash_(hash) {}
  void add(std::string_view id, std::uint64_t place);
  std::size_t size() const { return ids_.size(); }
  struct Repeat {
    std::string id;
    std::uint64_t first, again;  // the places of its first and second appearance
  };
  // The id that appears again earliest (the smallest `again`: where reading in order would have stopped), reading
  // ids back by their place with `id_at`; nullopt when every id is unique.
  std::optional<Repeat> first_repeat(const std::function<std::string(std::uint64_t place)>& id_at);
  // Calls `is_it` with each place whose id hashes as `id` does, in order, until it returns true; whether one did.
  // After first_repeat(), which sorts the hashes (throws aeval::Error, internal, before).
  bool any_of(std::string_view id, const std::function<bool(std::uint64_t place)>& is_it) const;

 private:
  struct Hashed {
    std::uint64_t hash, place;
    bool operator<(const Hashed& o) const { return hash != o.hash ? hash < o.hash : place < o.place; }
  };
  Hash hash_;
  std::vector<Hashed> ids_;
  bool sorted_ = true;
};

}  // namespace aeval
