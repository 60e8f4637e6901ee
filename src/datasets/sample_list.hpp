#pragma once
// A dataset's samples, each kept packed (its strings as bytes, its fields as MessagePack) and unpacked when read.
// A row held as a JSON tree takes about five times its text: a million manifest rows took 750 MB that way.
// Reading gives a Sample by value, const, so that code which meant to change a row in place does not compile;
// `set` replaces one. Past kKeptInMemory bytes, full chunks go to a temporary file (unlinked: nothing to clean up)
// and a row is read back from it when asked for, so a run's memory does not grow with its dataset (issue 54).
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "aeval/pipeline/sample.hpp"

namespace aeval::datasets {

class SampleList {
 public:
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = pipeline::Sample;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = const pipeline::Sample;
    Iterator(const SampleList* list, std::size_t i) : list_(list), i_(i) {}
    const pipeline::Sample operator*() const { return (*list_)[i_]; }
    Iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const Iterator& o) const { return i_ == o.i_; }
    bool operator!=(const Iterator& o) const { return i_ != o.i_; }

   private:
    const SampleList* list_;
    std::size_t i_;
  };

  static constexpr std::size_t kKeptInMemory = std::size_t(2) << 20;

  explicit SampleList(std::size_t kept_in_memory = kKeptInMemory) : kept_in_memory_(kept_in_memory) {}
  SampleList(const std::vector<pipeline::Sample>& samples);  // NOLINT: a vector of samples is a list of them

  void push_back(const pipeline::Sample& sample);
  void set(std::size_t i, const pipeline::Sample& sample);
  void resize(std::size_t n);  // keeps the first n (a list never grows by resizing)

  std::size_t size() const { return where_.size(); }
  bool empty() const { return where_.empty(); }
  const pipeline::Sample operator[](std::size_t i) const;
  const pipeline::Sample at(std::size_t i) const;  // throws std::out_of_range
  const pipeline::Sample front() const { return at(0); }
  const pipeline::Sample back() const { return at(size() - 1); }
  std::string id(std::size_t i) const;  // without unpacking the rest
  Iterator begin() const { return {this, 0}; }
  Iterator end() const { return {this, size()}; }

 private:
  // A row's chunk (its high 24 bits) and where it starts there (the low 40): 8 bytes a row, the length being the
  // first bytes of the row itself.
  using Where = std::uint64_t;
  static constexpr int kOffsetBits = 40;
  std::string_view bytes(std::size_t i) const;
  Where append(const std::string& packed);

  struct Chunk {
    std::string bytes;                        // appended to, never moved: reserved whole when it starts
    std::optional<std::uint64_t> spilled_at;  // its place in the spill file once there (`bytes` then freed)
    std::uint64_t length = 0;                 // of its bytes, kept when they are freed
  };
  class SpillFile;
  void spill_full_chunks();

  std::size_t kept_in_memory_ = kKeptInMemory;
  std::size_t in_memory_ = 0;  // bytes of the chunks not spilled
  std::vector<Chunk> chunks_;
  std::vector<Where> where_;
  std::shared_ptr<SpillFile> spill_;  // shared by copies: each appends where the file ends
};

}  // namespace aeval::datasets
