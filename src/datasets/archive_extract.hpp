#pragma once
// Dataset archives (.tar, .tar.gz/.tgz, .tar.bz2, .tar.xz, .zip) unpacked
// once with libarchive. Entries go into a temporary sibling of the
// destination, which is renamed into place only when every entry is written,
// with a marker holding the archive's SHA-256: an unchanged archive is never
// unpacked again, a changed one is, and a failure leaves nothing half-done.
#include <filesystem>
#include <functional>
#include <string>

namespace aeval::datasets {

// Whether the file name says it is an archive this module unpacks.
bool is_archive(const std::filesystem::path& path);

// Unpacks `archive` into `destination` unless it already holds this archive's
// contents, and returns `destination`. `known_sha256`, when the caller has
// already verified the archive (a download), spares hashing it again.
// Throws aeval::Error (data) naming the archive and the entry for entries that
// would write outside the destination (absolute paths, `..`), links, devices
// and FIFOs, and for corrupt or truncated archives.
// `keep`, when given, picks the members to unpack by their name in the archive (and whether
// the member is a symbolic link, which it may skip rather than have the archive refused); the
// others are skipped unread, whatever they are.
using MemberFilter = std::function<bool(const std::string& member, bool symbolic_link)>;
std::filesystem::path extract_archive(const std::filesystem::path& archive, const std::filesystem::path& destination,
                                      const std::string& known_sha256 = "", const MemberFilter& keep = {});

}  // namespace aeval::datasets
