#include <sys/archive.hpp>

#include <archive.h>
#include <archive_entry.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <memory>

namespace gpudoctor::sys {
namespace {

struct ArchiveDeleter {
  void operator()(archive* a) const { archive_free(a); }
};
using ArchivePtr = std::unique_ptr<archive, ArchiveDeleter>;

Error archive_error(archive* a, std::string_view what) {
  const char* msg = archive_error_string(a);
  return Error{ErrorCode::io, std::string(what) + ": " + (msg ? msg : "unknown libarchive error")};
}

bool safe_relative_path(std::string_view path) {
  if (path.empty() || path.front() == '/') return false;
  std::size_t i = 0;
  while (i <= path.size()) {
    std::size_t j = path.find('/', i);
    if (j == std::string_view::npos) j = path.size();
    if (path.substr(i, j - i) == "..") return false;
    i = j + 1;
  }
  return true;
}

// The zeros between the pieces are written out: the pax format's sparse entries did not survive a
// round trip through this libarchive, and gzip shrinks a run of zeros about a thousandfold.
Expected<bool> write_sparse_data(archive* a, const ArchiveEntry& e) {
  static const std::string zeros(1 << 16, '\0');
  std::uint64_t at = 0;
  auto put = [&](const char* data, std::size_t n) { return archive_write_data(a, data, n) >= 0; };
  auto put_zeros = [&](std::uint64_t n) {
    while (n > 0) {
      std::size_t chunk = static_cast<std::size_t>(std::min<std::uint64_t>(n, zeros.size()));
      if (!put(zeros.data(), chunk)) return false;
      n -= chunk;
    }
    return true;
  };
  for (const auto& p : e.pieces) {
    if (p.offset < at || p.offset + p.data.size() > e.sparse_size) {
      return Error{ErrorCode::invalid, "write " + e.path + ": pieces overlap or pass the end"};
    }
    if (!put_zeros(p.offset - at) || !put(p.data.data(), p.data.size())) return archive_error(a, "write " + e.path);
    at = p.offset + p.data.size();
  }
  if (!put_zeros(e.sparse_size - at)) return archive_error(a, "write " + e.path);
  return true;
}

bool all_zero(const void* buf, std::size_t size) {
  const auto* p = static_cast<const unsigned char*>(buf);
  return size == 0 || (p[0] == 0 && std::memcmp(p, p + 1, size - 1) == 0);
}

}  // namespace

Expected<bool> write_tar_gz(const std::string& file, const std::vector<ArchiveEntry>& entries) {
  ArchivePtr a(archive_write_new());
  archive_write_set_format_pax_restricted(a.get());
  archive_write_add_filter_gzip(a.get());
  if (archive_write_open_filename(a.get(), file.c_str()) != ARCHIVE_OK) return archive_error(a.get(), "open " + file);
  for (const auto& e : entries) {
    std::unique_ptr<archive_entry, decltype(&archive_entry_free)> entry(archive_entry_new(), archive_entry_free);
    archive_entry_set_pathname(entry.get(), e.path.c_str());
    archive_entry_set_perm(entry.get(), e.mode & 07777);
    archive_entry_set_uid(entry.get(), 0);
    archive_entry_set_gid(entry.get(), 0);
    const bool sparse = e.kind == ArchiveEntry::Kind::file && !e.pieces.empty();
    switch (e.kind) {
      case ArchiveEntry::Kind::file:
        archive_entry_set_filetype(entry.get(), AE_IFREG);
        archive_entry_set_size(entry.get(), static_cast<la_int64_t>(sparse ? e.sparse_size : e.content.size()));
        break;
      case ArchiveEntry::Kind::directory: archive_entry_set_filetype(entry.get(), AE_IFDIR); break;
      case ArchiveEntry::Kind::symlink:
        archive_entry_set_filetype(entry.get(), AE_IFLNK);
        archive_entry_set_symlink(entry.get(), e.content.c_str());
        break;
    }
    if (archive_write_header(a.get(), entry.get()) != ARCHIVE_OK) return archive_error(a.get(), "write " + e.path);
    if (sparse) {
      if (auto w = write_sparse_data(a.get(), e); !w) return w.error();
      continue;
    }
    if (e.kind == ArchiveEntry::Kind::file && !e.content.empty() &&
        archive_write_data(a.get(), e.content.data(), e.content.size()) < 0) {
      return archive_error(a.get(), "write " + e.path);
    }
  }
  if (archive_write_close(a.get()) != ARCHIVE_OK) return archive_error(a.get(), "close " + file);
  return true;
}

Expected<bool> extract_archive(const std::string& file, const std::string& dir, ExtractLimits limits) {
  ArchivePtr in(archive_read_new());
  archive_read_support_format_tar(in.get());
  archive_read_support_format_gnutar(in.get());
  archive_read_support_filter_gzip(in.get());
  archive_read_support_filter_xz(in.get());
  archive_read_support_filter_zstd(in.get());
  archive_read_support_filter_none(in.get());
  if (archive_read_open_filename(in.get(), file.c_str(), 64 * 1024) != ARCHIVE_OK) {
    return archive_error(in.get(), "open " + file);
  }
  ArchivePtr out(archive_write_disk_new());
  // Entry paths are checked here (relative, no ".."), then placed under `dir`; libarchive refuses
  // to write through a symlink an earlier entry made (a link pointing out of the tree).
  archive_write_disk_set_options(out.get(), ARCHIVE_EXTRACT_SECURE_NODOTDOT | ARCHIVE_EXTRACT_SECURE_SYMLINKS |
                                                ARCHIVE_EXTRACT_PERM);
  std::uint64_t total = 0;     // data bytes written
  std::uint64_t apparent = 0;  // file sizes, holes included
  std::size_t written = 0, skipped = 0;
  archive_entry* entry = nullptr;
  int rc;
  std::size_t seen = 0;
  while ((rc = archive_read_next_header(in.get(), &entry)) == ARCHIVE_OK) {
    if (++seen > limits.entries) {
      return Error{ErrorCode::too_large, file + ": more than " + std::to_string(limits.entries) + " entries"};
    }
    auto type = archive_entry_filetype(entry);
    if (type != AE_IFREG && type != AE_IFDIR && type != AE_IFLNK) continue;  // no device nodes, FIFOs
    std::string path = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
    if (!safe_relative_path(path) || archive_entry_hardlink(entry) != nullptr) {
      ++skipped;  // a hostile entry (absolute path, "..", a hard link) is skipped, not fatal
      continue;
    }
    apparent += static_cast<std::uint64_t>(std::max<la_int64_t>(0, archive_entry_size(entry)));
    if (apparent > limits.apparent_bytes) {
      return Error{ErrorCode::too_large, file + ": files of more than " + std::to_string(limits.apparent_bytes >> 20) +
                                             " MiB in all"};
    }
    archive_entry_set_pathname(entry, (dir + "/" + path).c_str());
    // No setuid, setgid or sticky bit ever comes out of an archive; a directory its owner cannot
    // write would outlive the temporary tree (remove_all cannot empty it as a non-root user).
    auto perm = archive_entry_perm(entry) & 0777;
    if (type == AE_IFDIR) perm |= 0700;
    archive_entry_set_perm(entry, perm);
    if (archive_write_header(out.get(), entry) != ARCHIVE_OK) {
      ++skipped;
      continue;
    }
    ++written;
    if (type == AE_IFREG) {
      const void* buf;
      size_t size;
      la_int64_t offset;
      int r;
      while ((r = archive_read_data_block(in.get(), &buf, &size, &offset)) == ARCHIVE_OK) {
        // A block of zeros becomes a hole (a captured library is mostly zeros between the ranges
        // that were read); the file's size is set when the entry is finished.
        if (all_zero(buf, size)) continue;
        total += size;
        if (total > limits.data_bytes) {
          return Error{ErrorCode::too_large,
                       file + ": more than " + std::to_string(limits.data_bytes >> 20) + " MiB of data unpacked"};
        }
        if (archive_write_data_block(out.get(), buf, size, offset) != ARCHIVE_OK) break;
      }
      if (r != ARCHIVE_EOF && r != ARCHIVE_OK) return archive_error(in.get(), "read " + file);
    }
    archive_write_finish_entry(out.get());
  }
  if (rc != ARCHIVE_EOF) return archive_error(in.get(), "read " + file);
  archive_write_close(out.get());
  if (written == 0) {
    return Error{ErrorCode::invalid, file + ": no usable entry in the archive (" + std::to_string(skipped) + " skipped)"};
  }
  return true;
}

Expected<TempDir> TempDir::create(std::string_view prefix) {
  const char* tmp = std::getenv("TMPDIR");
  std::string templ = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + std::string(prefix) + "XXXXXX";
  if (::mkdtemp(templ.data()) == nullptr) return error_from_errno(errno, "mkdtemp " + templ);
  return TempDir(templ);
}

TempDir::~TempDir() {
  if (m_path.empty()) return;
  std::error_code ec;
  // Directories the tree made read-only (a test, an archive from elsewhere) are opened up first:
  // as a non-root user remove_all cannot empty them. Symlinks are not followed.
  namespace fs = std::filesystem;
  fs::permissions(m_path, fs::perms::owner_all, fs::perm_options::add, ec);
  for (fs::recursive_directory_iterator it(m_path, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec) && !it->is_symlink(ec)) {
      fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
  }
  fs::remove_all(m_path, ec);
}

}  // namespace gpudoctor::sys
