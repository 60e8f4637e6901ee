// Golden editops from rapidfuzz-cpp f34fe29 (what RapidFuzz's Python wheel runs):
// builds each case from its seed, writes one JSON line per case.
#include <rapidfuzz/distance/Levenshtein.hpp>
#include <cstdint>
#include <cstdio>
#include <vector>

struct Lcg {
  uint64_t state;
  uint32_t next() { state = state * 6364136223846793005ULL + 1442695040888963407ULL; return uint32_t(state >> 33); }
};

// Reference: vocab-sized random tokens; hypothesis: the reference with an edit
// at each position with probability per_mille/1000 (substitute, delete or insert).
static void make_case(uint64_t seed, size_t length, uint32_t vocab, uint32_t per_mille,
                      std::vector<int>& a, std::vector<int>& b) {
  Lcg r{seed};
  a.clear(); b.clear();
  for (size_t k = 0; k < length; ++k) a.push_back(int(r.next() % vocab));
  for (size_t k = 0; k < length; ++k) {
    if (r.next() % 1000 < per_mille) {
      switch (r.next() % 3) {
        case 0: b.push_back(int(r.next() % vocab)); break;
        case 1: break;
        case 2: b.push_back(int(r.next() % vocab)); b.push_back(a[k]); break;
      }
    } else {
      b.push_back(a[k]);
    }
  }
}

int main() {
  const size_t lengths[] = {40, 300, 1500, 2100, 3000, 8000, 30000, 120000};
  const uint32_t vocabs[] = {2, 4, 30, 3000};
  const uint32_t rates[] = {5, 50, 250, 700};
  uint64_t seed = 1;
  std::vector<int> a, b;
  for (size_t length : lengths)
    for (uint32_t vocab : vocabs)
      for (uint32_t rate : rates) {
        make_case(seed, length, vocab, rate, a, b);
        auto ops = rapidfuzz::levenshtein_editops(a, b);
        rapidfuzz::Opcodes codes(ops);
        size_t h = 0, s = 0, d = 0, i = 0;
        for (const auto& c : codes) {
          switch (c.type) {
            case rapidfuzz::EditType::None: h += c.src_end - c.src_begin; break;
            case rapidfuzz::EditType::Replace: s += c.src_end - c.src_begin; break;
            case rapidfuzz::EditType::Delete: d += c.src_end - c.src_begin; break;
            case rapidfuzz::EditType::Insert: i += c.dest_end - c.dest_begin; break;
          }
        }
        uint64_t fnv = 1469598103934665603ULL;
        auto mix = [&](uint64_t v) { for (int k = 0; k < 8; ++k) { fnv ^= (v >> (8 * k)) & 0xff; fnv *= 1099511628211ULL; } };
        for (const auto& c : codes) { mix(uint64_t(c.type)); mix(c.src_begin); mix(c.src_end); mix(c.dest_begin); mix(c.dest_end); }
        std::printf("{\"seed\": %llu, \"length\": %zu, \"vocab\": %u, \"edits_per_mille\": %u, \"hyp_length\": %zu, "
                    "\"hits\": %zu, \"substitutions\": %zu, \"deletions\": %zu, \"insertions\": %zu, \"opcodes_fnv1a\": \"%016llx\"}\n",
                    (unsigned long long)seed, length, vocab, rate, b.size(), h, s, d, i, (unsigned long long)fnv);
        std::fflush(stdout);
        ++seed;
      }
}
