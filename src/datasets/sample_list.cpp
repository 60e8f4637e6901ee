#include "datasets/sample_list.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "aeval/error.hpp"
#include "util/file_descriptor.hpp"

namespace aeval::datasets {

using pipeline::Sample;

namespace {

// A chunk starts small (a test's five rows) and doubles up to this; a larger row gets a chunk of its own.
constexpr std::size_t kLargestChunk = std::size_t(1) << 20;

void put_size(std::string& out, std::size_t n) {  // LEB128
  do {
    const auto low = static_cast<unsigned char>(n & 0x7f);
    n >>= 7;
    out.push_back(static_cast<char>(n ? (low | 0x80) : low));
  } while (n);
}

void put_text(std::string& out, const std::string& text) {
  put_size(out, text.size());
  out += text;
}

struct Reader {
  std::string_view in;
  std::size_t at = 0;
  std::size_t size() {
    std::size_t n = 0;
    for (int shift = 0;; shift += 7) {
      const auto byte = static_cast<unsigned char>(in[at++]);
      n |= std::size_t(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return n;
    }
  }
  std::string text() {
    const std::size_t n = size();
    std::string s(in.substr(at, n));
    at += n;
    return s;
  }
};

// A sample's audio and reference are most often one of its fields too (a manifest's "audio" and "text"): such a
// member is kept as that field's key, not twice.
enum Member : unsigned char { kAbsent = 0, kText = 1, kSameAsField = 2 };

void put_member(std::string& out, const std::optional<std::string>& member, const nlohmann::json& fields) {
  if (!member) {
    out.push_back(char(kAbsent));
    return;
  }
  if (fields.is_object() && !member->empty())
    for (const auto& [key, value] : fields.items())
      if (value.is_string() && value.get_ref<const std::string&>() == *member) {
        out.push_back(char(kSameAsField));
        put_text(out, key);
        return;
      }
  out.push_back(char(kText));
  put_text(out, *member);
}

std::optional<std::string> member(Reader& r, const nlohmann::json& fields) {
  switch (static_cast<unsigned char>(r.in[r.at++])) {
    case kAbsent:
      return std::nullopt;
    case kSameAsField:
      return fields.at(r.text()).get<std::string>();
    default:
      return r.text();
  }
}

// The id first (read alone by `id`), the fields' MessagePack with its length, then audio, reference, unreadable.
std::string pack(const Sample& s) {
  std::string out;
  put_text(out, s.id);
  const std::vector<std::uint8_t> fields = nlohmann::json::to_msgpack(s.fields);
  put_size(out, fields.size());
  out.append(fields.begin(), fields.end());
  put_member(out, s.audio.native(), s.fields);
  put_member(out, s.reference, s.fields);
  put_member(out, s.unreadable, nlohmann::json());
  return out;
}

Sample unpack(std::string_view packed) {
  Reader r{packed};
  Sample s;
  s.id = r.text();
  const std::size_t length = r.size();
  s.fields = nlohmann::json::from_msgpack(packed.begin() + std::ptrdiff_t(r.at),
                                          packed.begin() + std::ptrdiff_t(r.at + length));
  r.at += length;
  s.audio = member(r, s.fields).value_or("");
  s.reference = member(r, s.fields);
  s.unreadable = member(r, nlohmann::json());
  return s;
}

}  // namespace

// A temporary file rows are appended to and read back from, by any thread.
class SampleList::SpillFile {
 public:
  SpillFile() {
    std::error_code error;
    const auto folder = std::filesystem::temp_directory_path(error);  // TMPDIR's, /tmp without it
    if (error) {
      errno = error.value();
      fail("find the temporary folder");
    }
    file_ = FileDescriptor(::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
    if (!file_.is_open()) {
      std::string name = (folder / "aeval-samples-XXXXXX").string();
      file_ = FileDescriptor(::mkostemp(name.data(), O_CLOEXEC));
      if (file_.is_open()) ::unlink(name.c_str());
    }
    if (!file_.is_open()) fail("open a temporary file in " + folder.string());
  }

  std::uint64_t append(const std::string& bytes) {
    const std::lock_guard lock(appending_);
    if (!file_.write_at(size_, bytes)) fail("write a temporary file");
    size_ += bytes.size();
    return size_ - bytes.size();
  }

  // The bytes at `at`, in a buffer of the calling thread's that the next read replaces.
  std::string_view read(std::uint64_t at, std::size_t length) const {
    thread_local std::string buffer;
    buffer.resize(length);
    if (file_.read_at(at, buffer.data(), length) != static_cast<long long>(length)) fail("read back a temporary file");
    return buffer;
  }

 private:
  [[noreturn]] static void fail(const std::string& what) {
    throw Error(ErrorCategory::config, fmt::format("a large dataset's rows go to a temporary file, and aeval could not "
                                                   "{} ({}); point TMPDIR at a folder with room",
                                                   what, std::strerror(errno)));
  }
  FileDescriptor file_;
  std::mutex appending_;
  std::uint64_t size_ = 0;
};

SampleList::SampleList(const std::vector<Sample>& samples) {
  where_.reserve(samples.size());
  for (const auto& s : samples) push_back(s);
}

SampleList::Where SampleList::append(const std::string& packed) {
  std::string length;  // LEB128, before the row's bytes
  put_size(length, packed.size());
  const std::size_t size = length.size() + packed.size();
  if (chunks_.empty() || chunks_.back().bytes.capacity() - chunks_.back().bytes.size() < size) {
    if (chunks_.size() >> (64 - kOffsetBits))
      throw Error(ErrorCategory::data, "a dataset is kept in at most 2^24 chunks of rows, and this one needs more");
    const std::size_t grown = chunks_.empty() ? 4096 : std::min(2 * chunks_.back().bytes.capacity(), kLargestChunk);
    chunks_.emplace_back().bytes.reserve(std::max(grown, size));
    in_memory_ += chunks_.back().bytes.capacity();
    if (in_memory_ > kept_in_memory_) spill_full_chunks();
  }
  Chunk& chunk = chunks_.back();
  const Where w = (Where(chunks_.size() - 1) << kOffsetBits) | chunk.bytes.size();
  chunk.bytes += length;  // within the reserved capacity: the chunk's bytes stay where they are
  chunk.bytes += packed;
  chunk.length = chunk.bytes.size();
  return w;
}

// Every chunk but the one being filled goes to the file, its memory with it.
void SampleList::spill_full_chunks() {
  if (!spill_) spill_ = std::make_shared<SpillFile>();
  for (std::size_t c = 0; c + 1 < chunks_.size(); ++c) {
    Chunk& chunk = chunks_[c];
    if (chunk.spilled_at) continue;
    chunk.spilled_at = spill_->append(chunk.bytes);
    in_memory_ -= chunk.bytes.capacity();
    std::string().swap(chunk.bytes);
  }
}

void SampleList::push_back(const Sample& sample) { where_.push_back(append(pack(sample))); }

// The replaced row's bytes stay unused in their chunk: datasets set a row while they are read, rarely.
void SampleList::set(std::size_t i, const Sample& sample) { where_.at(i) = append(pack(sample)); }

void SampleList::resize(std::size_t n) {
  if (n < where_.size()) where_.resize(n);
}

std::string_view SampleList::bytes(std::size_t i) const {
  const Chunk& chunk = chunks_[where_[i] >> kOffsetBits];
  const std::uint64_t offset = where_[i] & ((Where(1) << kOffsetBits) - 1);
  std::string_view from;  // starts with the row's length
  if (!chunk.spilled_at) {
    from = std::string_view(chunk.bytes).substr(offset);
  } else {
    // One read for most rows: a window that holds a short row whole, then the whole of a longer one.
    constexpr std::uint64_t kWindow = 512;
    const std::uint64_t at = *chunk.spilled_at + offset;
    from = spill_->read(at, std::min(kWindow, chunk.length - offset));
    Reader r{from};
    if (const std::size_t length = r.size(); r.at + length > from.size()) from = spill_->read(at, r.at + length);
  }
  Reader r{from};
  const std::size_t length = r.size();
  return from.substr(r.at, length);
}

const Sample SampleList::operator[](std::size_t i) const { return unpack(bytes(i)); }

const Sample SampleList::at(std::size_t i) const {
  if (i >= size()) throw std::out_of_range("sample " + std::to_string(i) + " of " + std::to_string(size()));
  return (*this)[i];
}

std::string SampleList::id(std::size_t i) const { return Reader{bytes(i)}.text(); }

}  // namespace aeval::datasets
