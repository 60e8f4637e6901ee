// Parquet through DuckDB's C API: the schema, rows streamed in order, audio
// bytes of a struct<bytes, path> column read back byte-identical, and clear
// errors for files that are not (or no longer) Parquet.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aeval/error.hpp"
#include "datasets/table_reader.hpp"
#include "support/asterisk.hpp"
#include "support/parquet_writer.hpp"
#include "support/temp_dir.hpp"

namespace {

using aeval::datasets::TableRow;
using aeval::datasets::TableReader;
using aeval::testing::kAsteriskSounds;
using aeval::testing::read_bytes;
using aeval::testing::TempDir;
using aeval::testing::write_parquet;

std::string data_error(const std::filesystem::path& file) {
  try {
    auto table = TableReader::parquet({file});
    table.row_count();
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::data) << e.what();
    return e.what();
  }
  return "<read>";
}

TEST(TableReader, AudioStructBytesComeBackByteIdentical) {
  AEVAL_SKIP_WITHOUT_ASTERISK_SOUNDS();
  TempDir dir;
  // The Hub's audio layout: a struct of the file's bytes and its name; two rows per row group.
  const std::string sounds = (kAsteriskSounds / "digits" / "*.g722").string();
  write_parquet("SELECT replace(parse_filename(filename), '.g722', '') AS id, "
                "{'bytes': content, 'path': parse_filename(filename)} AS audio, size AS bytes_long "
                "FROM read_blob(" + TableReader::literal(sounds) + ") ORDER BY filename",
                dir / "digits.parquet", 2);
  auto table = TableReader::parquet({dir / "digits.parquet"});
  ASSERT_EQ(table.columns().size(), 3u);
  EXPECT_EQ(table.columns()[0].name, "id");
  EXPECT_EQ(table.columns()[1].type, "STRUCT(bytes BLOB, path VARCHAR)");
  EXPECT_EQ(table.columns()[2].type, "BIGINT");
  EXPECT_EQ(table.column("audio"), &table.columns()[1]);
  EXPECT_EQ(table.column("text"), nullptr);

  std::vector<std::string> ids;
  table.scan({"id", "audio.bytes", "audio.path", "CAST(bytes_long AS VARCHAR)"}, [&](TableRow& row) {
    ASSERT_TRUE(row[0] && row[1] && row[2] && row[3]);
    ids.push_back(*row[0]);
    const std::string file_bytes = read_bytes(kAsteriskSounds / "digits" / *row[2]);
    EXPECT_EQ(*row[1], file_bytes) << *row[0];
    EXPECT_EQ(std::stoul(*row[3]), file_bytes.size());
  });
  EXPECT_EQ(ids.size(), table.row_count());
  EXPECT_GE(ids.size(), 10u);
  EXPECT_TRUE(std::is_sorted(ids.begin(), ids.end()));  // file order, across row groups
}

TEST(TableReader, NullsAndFiltersAndManyFilesAsOneTable) {
  TempDir dir;
  write_parquet("SELECT i AS n, CASE WHEN i % 3 = 0 THEN NULL ELSE 'row ' || i END AS text FROM range(5000) t(i)",
                dir / "a.parquet", 1000);
  write_parquet("SELECT i AS n, 'more ' || i AS text FROM range(5000, 5010) t(i)", dir / "b.parquet");
  auto table = TableReader::parquet({dir / "a.parquet", dir / "b.parquet"});
  EXPECT_EQ(table.row_count(), 5010u);
  std::size_t rows = 0, nulls = 0;
  std::string last;
  table.scan({TableReader::quoted("text")}, [&](TableRow& row) {
    ++rows;
    nulls += !row[0];
    if (row[0]) last = *row[0];
  });
  EXPECT_EQ(rows, 5010u);
  EXPECT_EQ(nulls, 1667u);
  EXPECT_EQ(last, "more 5009");
  rows = 0;
  table.scan({"CAST(n AS VARCHAR)"}, [&](TableRow&) { ++rows; }, "n >= 4990");
  EXPECT_EQ(rows, 20u);
}

TEST(TableReader, FilesThatAreNotParquetSayWhich) {
  TempDir dir;
  aeval::testing::write_bytes(dir / "text.parquet", "id,text\n1,hello\n");
  EXPECT_NE(data_error(dir / "text.parquet").find((dir / "text.parquet").string()), std::string::npos);
  write_parquet("SELECT i, 'x' || i AS t FROM range(1000) t(i)", dir / "whole.parquet");
  const std::string whole = read_bytes(dir / "whole.parquet");
  aeval::testing::write_bytes(dir / "cut.parquet", whole.substr(0, whole.size() / 2));
  EXPECT_NE(data_error(dir / "cut.parquet").find("cannot read Parquet"), std::string::npos);
  EXPECT_NE(data_error(dir / "missing.parquet").find("no such file"), std::string::npos);
}

TEST(TableReader, ScanResultsMustBeTextOrBytes) {
  TempDir dir;
  write_parquet("SELECT 1 AS n", dir / "n.parquet");
  auto table = TableReader::parquet({dir / "n.parquet"});
  EXPECT_THROW(table.scan({"n"}, [](TableRow&) {}), aeval::Error);
}

}  // namespace
