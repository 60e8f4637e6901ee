// Archives unpacked once into the cache: every format, byte-identical real
// audio, re-extraction only when the archive's content changes, and hostile
// or damaged archives refused with nothing left behind. The archives are
// written here with libarchive's writer (and tar), hostile entries included.
#include "datasets/archive_extract.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "aeval/error.hpp"
#include "support/pocketsphinx_testdata.hpp"
#include "support/temp_dir.hpp"
#include "util/sha256.hpp"

namespace {

namespace fs = std::filesystem;
using aeval::datasets::extract_archive;
using aeval::testing::read_bytes;
using aeval::testing::TempDir;
using aeval::testing::write_bytes;

const fs::path kCards = aeval::testing::kPocketsphinxTestData / "cards";

struct Entry {
  Entry(std::string name, std::string content, int type = AE_IFREG, std::string link = "", std::string hardlink = "")
      : name(std::move(name)),
        content(std::move(content)),
        type(type),
        link(std::move(link)),
        hardlink(std::move(hardlink)) {}
  std::string name;
  std::string content;   // a file's bytes
  int type;              // AE_IFREG, AE_IFDIR, AE_IFLNK, AE_IFIFO, AE_IFCHR
  std::string link;      // symlink target
  std::string hardlink;  // hard link target
};

enum class Format { tar, tar_gz, tar_bz2, zip };

void write_archive(const fs::path& path, Format format, const std::vector<Entry>& entries) {
  archive* a = archive_write_new();
  if (format == Format::zip) {
    archive_write_set_format_zip(a);
  } else {
    archive_write_set_format_pax_restricted(a);
    if (format == Format::tar_gz) archive_write_add_filter_gzip(a);
    if (format == Format::tar_bz2) archive_write_add_filter_bzip2(a);
  }
  ASSERT_EQ(archive_write_open_filename(a, path.c_str()), ARCHIVE_OK) << archive_error_string(a);
  for (const auto& e : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, e.name.c_str());
    archive_entry_set_filetype(entry, e.type);
    archive_entry_set_perm(entry, e.type == AE_IFDIR ? 0755 : 0644);
    if (!e.link.empty()) archive_entry_set_symlink(entry, e.link.c_str());
    if (!e.hardlink.empty()) archive_entry_set_hardlink(entry, e.hardlink.c_str());
    archive_entry_set_size(entry, e.type == AE_IFREG && e.hardlink.empty() ? la_int64_t(e.content.size()) : 0);
    ASSERT_EQ(archive_write_header(a, entry), ARCHIVE_OK) << e.name << ": " << archive_error_string(a);
    if (e.type == AE_IFREG && !e.content.empty()) archive_write_data(a, e.content.data(), e.content.size());
    archive_entry_free(entry);
  }
  archive_write_close(a);
  archive_write_free(a);
}

std::string data_error(const fs::path& archive, const fs::path& destination) {
  try {
    extract_archive(archive, destination);
  } catch (const aeval::Error& e) {
    EXPECT_EQ(e.category(), aeval::ErrorCategory::data) << e.what();
    return e.what();
  }
  return "<extracted>";
}

// Nothing under `root` but `keep`: no destination, no temporary folder.
void expect_only(const fs::path& root, const fs::path& keep) {
  for (const auto& item : fs::directory_iterator(root))
    EXPECT_EQ(item.path().filename(), keep.filename()) << "left behind: " << item.path();
}

TEST(ArchiveExtract, EveryFormatUnpacksRealAudioByteIdentical) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  const std::string wav = read_bytes(kCards / "001.wav"), transcript = read_bytes(kCards / "cards.transcription");
  for (const auto& [format, name] : std::vector<std::pair<Format, std::string>>{{Format::tar, "a.tar"},
                                                                                {Format::tar_gz, "a.tar.gz"},
                                                                                {Format::tar_gz, "a.tgz"},
                                                                                {Format::tar_bz2, "a.tar.bz2"},
                                                                                {Format::zip, "a.zip"}}) {
    TempDir dir;
    ASSERT_TRUE(aeval::datasets::is_archive(dir / name)) << name;
    write_archive(dir / name, format,
                  {{"cards/", "", AE_IFDIR}, {"cards/001.wav", wav}, {"./cards/sub/cards.transcription", transcript}});
    const fs::path out = extract_archive(dir / name, dir / "out");
    EXPECT_EQ(out, dir / "out");
    EXPECT_EQ(read_bytes(out / "cards" / "001.wav"), wav) << name;
    EXPECT_EQ(read_bytes(out / "cards" / "sub" / "cards.transcription"), transcript) << name;
  }
  EXPECT_FALSE(aeval::datasets::is_archive("list.tsv"));
  EXPECT_FALSE(aeval::datasets::is_archive(".tar"));
}

TEST(ArchiveExtract, UnpacksOnceAndAgainOnlyWhenTheArchiveContentChanges) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  TempDir dir;
  const fs::path archive = dir / "cards.tar.gz";
  write_archive(archive, Format::tar_gz, {{"001.wav", read_bytes(kCards / "001.wav")}});
  extract_archive(archive, dir / "out");
  write_bytes(dir / "out" / "sentinel", "a file the extraction did not write");

  extract_archive(archive, dir / "out");
  EXPECT_TRUE(fs::exists(dir / "out" / "sentinel")) << "an unchanged archive was extracted again";

  // Touched, same bytes: hashed again, found identical, not extracted.
  fs::last_write_time(archive, fs::last_write_time(archive) + std::chrono::hours(1));
  extract_archive(archive, dir / "out");
  EXPECT_TRUE(fs::exists(dir / "out" / "sentinel")) << "an archive with the same content was extracted again";

  // The same digest from a verified download is trusted without hashing.
  extract_archive(archive, dir / "out", aeval::sha256_of_file(archive));
  EXPECT_TRUE(fs::exists(dir / "out" / "sentinel"));

  write_archive(archive, Format::tar_gz, {{"002.wav", read_bytes(kCards / "002.wav")}});
  extract_archive(archive, dir / "out");
  EXPECT_FALSE(fs::exists(dir / "out" / "sentinel")) << "a changed archive was not extracted again";
  EXPECT_FALSE(fs::exists(dir / "out" / "001.wav"));
  EXPECT_EQ(read_bytes(dir / "out" / "002.wav"), read_bytes(kCards / "002.wav"));
  for (const auto& item : fs::directory_iterator(dir.path()))
    EXPECT_EQ(item.path().filename().string().find(".partial"), std::string::npos) << "left behind: " << item.path();
}

TEST(ArchiveExtract, TemporaryFoldersOfKilledExtractionsOnThisHostAreRemoved) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  TempDir dir;
  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  // pid_max is at most 2^22 on Linux: no process has this id.
  const fs::path abandoned = dir / ("out.partial-" + std::string(host.data()) + ":999999999-0");
  const fs::path other_host = dir / "out.partial-another-machine:1-0";
  for (const auto& folder : {abandoned, other_host}) {
    fs::create_directories(folder);
    write_bytes(folder / "half.wav", "half");
  }
  ASSERT_TRUE(fs::exists(abandoned / "half.wav"));
  write_archive(dir / "a.tar", Format::tar, {{"001.wav", read_bytes(kCards / "001.wav")}});
  extract_archive(dir / "a.tar", dir / "out");
  EXPECT_FALSE(fs::exists(abandoned));
  EXPECT_TRUE(fs::exists(other_host)) << "another machine sharing the cache may still be extracting";
  EXPECT_TRUE(fs::exists(dir / "out" / "001.wav"));
}

TEST(ArchiveExtract, HostileEntriesAreRefusedNamingArchiveAndEntryAndNothingIsLeft) {
  struct Case {
    Entry entry;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {{"../escaped.txt", "x"}, "'..'"},
      {{"data/../../escaped.txt", "x"}, "'..'"},
      {{"/tmp/aeval-absolute.txt", "x"}, "absolute path '/tmp/aeval-absolute.txt'"},
      {{"data/link", "", AE_IFLNK, "/etc/passwd"}, "entry 'data/link': refusing a symbolic link"},
      {{"data/hard", "", AE_IFREG, "", "data/ok.txt"}, "entry 'data/hard': refusing a hard link"},
      {{"data/fifo", "", AE_IFIFO}, "entry 'data/fifo': refusing a FIFO"},
      {{"data/tty", "", AE_IFCHR}, "entry 'data/tty': refusing a device"},
  };
  for (const Format format : {Format::tar, Format::zip}) {
    for (const auto& c : cases) {
      if (format == Format::zip && (c.entry.type == AE_IFIFO || c.entry.type == AE_IFCHR || !c.entry.hardlink.empty()))
        continue;  // zip stores none of these
      TempDir dir;
      const fs::path archive = dir / (format == Format::zip ? "evil.zip" : "evil.tar");
      write_archive(archive, format, {{"data/ok.txt", "fine"}, c.entry});
      const std::string message = data_error(archive, dir / "out");
      EXPECT_NE(message.find(archive.string()), std::string::npos) << message;
      EXPECT_NE(message.find(c.expected), std::string::npos) << message;
      expect_only(dir.path(), archive);  // neither the destination, its temporary folder nor an escaped file
    }
  }
  EXPECT_FALSE(fs::exists("/tmp/aeval-absolute.txt"));
}

TEST(ArchiveExtract, TruncatedOrCorruptArchivesAreErrorsNamingThemAndLeaveNothing) {
  AEVAL_SKIP_WITHOUT_POCKETSPHINX_TESTDATA();
  TempDir dir;
  const fs::path whole = dir / "whole.tar.gz";
  write_archive(whole, Format::tar_gz,
                {{"001.wav", read_bytes(kCards / "001.wav")}, {"005.wav", read_bytes(kCards / "005.wav")}});
  const std::string bytes = read_bytes(whole);

  TempDir truncated_dir;
  const fs::path truncated = truncated_dir / "cut.tar.gz";
  write_bytes(truncated, bytes.substr(0, bytes.size() / 2));
  std::string message = data_error(truncated, truncated_dir / "out");
  EXPECT_NE(message.find(truncated.string()), std::string::npos) << message;
  EXPECT_NE(message.find("corrupt or truncated"), std::string::npos) << message;
  expect_only(truncated_dir.path(), truncated);

  TempDir garbage_dir;
  const fs::path garbage = garbage_dir / "noise.zip";
  write_bytes(garbage, read_bytes(kCards / "002.wav"));
  message = data_error(garbage, garbage_dir / "out");
  EXPECT_NE(message.find(garbage.string() + ": cannot open it as a tar or zip archive"), std::string::npos) << message;
  expect_only(garbage_dir.path(), garbage);

  // A corrupt replacement keeps the earlier extraction's marker from matching: it is retried, never half-used.
  extract_archive(whole, dir / "out");
  write_bytes(whole, bytes.substr(0, bytes.size() - 100));
  message = data_error(whole, dir / "out");
  EXPECT_NE(message.find("corrupt or truncated"), std::string::npos) << message;
}

}  // namespace
