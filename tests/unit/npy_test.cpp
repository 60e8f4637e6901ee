#include <gtest/gtest.h>

#include "aeval/error.hpp"
#include "aeval/npy.hpp"
#include "support/temp_dir.hpp"

namespace {

TEST(Npy, RoundTripsFloat32AndFloat64) {
  aeval::testing::TempDir dir;
  for (const char* dtype : {"f4", "f8"}) {
    const aeval::NpyArray a{{2, 3}, dtype, {0.5, -1.25, 3, 4e-3, 5, 6}};
    aeval::write_npy(dir / "a.npy", a);
    const auto b = aeval::read_npy(dir / "a.npy");
    EXPECT_EQ(b.shape, a.shape);
    EXPECT_EQ(b.dtype, dtype);
    for (std::size_t i = 0; i < a.values.size(); ++i) EXPECT_EQ(b.values[i], double(std::string(dtype) == "f4" ? float(a.values[i]) : a.values[i]));
    // numpy's header is padded so the data starts on a 64-byte boundary
    EXPECT_EQ(aeval::testing::read_bytes(dir / "a.npy").size() % 8, 0u);
  }
  aeval::write_npy(dir / "v.npy", aeval::NpyArray{{4}, "f8", {1, 2, 3, 4}});
  EXPECT_EQ(aeval::read_npy(dir / "v.npy").shape, (std::vector<std::size_t>{4}));
}

TEST(Npy, RejectsBadFiles) {
  aeval::testing::TempDir dir;
  aeval::testing::write_bytes(dir / "junk.npy", "not numpy at all");
  EXPECT_THROW(aeval::read_npy(dir / "junk.npy"), aeval::Error);
  aeval::write_npy(dir / "a.npy", aeval::NpyArray{{10, 10}, "f8", std::vector<double>(100, 1.0)});
  const std::string bytes = aeval::testing::read_bytes(dir / "a.npy");
  aeval::testing::write_bytes(dir / "cut.npy", bytes.substr(0, bytes.size() - 8));
  try {
    aeval::read_npy(dir / "cut.npy");
    FAIL();
  } catch (const aeval::Error& e) {
    EXPECT_NE(std::string(e.what()).find("truncated"), std::string::npos);
  }
}

}  // namespace
