// The search order and its details follow glibc elf/dl-load.c (_dl_map_object, open_path, open_verify,
// fillin_rpath) and elf/get-dynamic-info.h; each step below names the part of glibc it mirrors. Not
// modelled: LD_PRELOAD and /etc/ld.so.preload, secure-execution (set-uid) restrictions, the legacy
// hwcaps subdirectories (tls/, x86_64/, haswell/: removed in glibc 2.37) and dlmopen namespaces.
#include <probe/loader/resolver.hpp>

#include <elf.h>

#include <deque>
#include <map>
#include <set>

#include <probe/elf/elf_file.hpp>
#include <util/path.hpp>

namespace gpudoctor::probe::loader {
namespace {

using facts::Resolution;
using facts::SearchRule;
using facts::TriedPath;

enum class Verdict { accept, skip, fatal };

struct Check {
  Verdict verdict;
  std::string why;
};

// open_verify: a file of another class or machine is skipped and the search goes on ("found other
// class"); a file that exists but is not a loadable ELF object ends the search with an error.
Check check_candidate(const sys::FileSystem& fs, const std::string& path, const ElfInfo& requester) {
  auto st = fs.stat(path);
  if (!st) return {Verdict::skip, st.error().code == sys::ErrorCode::not_found ? "no such file" : st.error().message};
  if (st->type != sys::FileType::regular) return {Verdict::skip, "not a regular file"};
  auto head = fs.read_range(path, 0, sizeof(Elf64_Ehdr));
  if (!head) return {Verdict::skip, head.error().message};
  auto is64 = elf::elf_ident_is_64(*head);
  if (!is64) return {Verdict::fatal, "invalid ELF header (" + is64.error().message + "): the loader stops with an error"};
  ElfClass cls = *is64 ? ElfClass::elf64 : ElfClass::elf32;
  if (cls != requester.elf_class) return {Verdict::skip, "wrong ELF class: " + class_name(cls)};
  if (head->size() < 20) return {Verdict::fatal, "file too short: the loader stops with an error"};
  auto p = reinterpret_cast<const unsigned char*>(head->data());
  bool little = p[EI_DATA] == ELFDATA2LSB;
  auto type = static_cast<std::uint16_t>(little ? (p[16] | p[17] << 8) : (p[16] << 8 | p[17]));
  auto machine = static_cast<std::uint16_t>(little ? (p[18] | p[19] << 8) : (p[18] << 8 | p[19]));
  if (machine != requester.machine) return {Verdict::skip, "wrong machine: " + machine_name(machine)};
  if (type != ET_DYN && type != ET_EXEC) return {Verdict::fatal, "only ET_DYN and ET_EXEC can be loaded"};
  return {Verdict::accept, {}};
}

// fillin_rpath: trailing slashes are dropped and one is added; an empty entry is the working directory.
std::string candidate_path(std::string_view dir, std::string_view soname, const LoaderContext& ctx) {
  std::string d(dir);
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  if (d.empty()) d = ctx.cwd;
  if (d.front() != '/') d = util::join_path(ctx.cwd, d);
  if (d.back() != '/') d += '/';
  return d + std::string(soname);
}

struct Search {
  const sys::FileSystem& fs;
  const ElfInfo& requester;
  const LoaderContext& ctx;
  Resolution& out;
  bool done = false;

  // open_path over one list of directories. Returns true when the search is over (found or fatal).
  bool try_dirs(const std::vector<std::string>& dirs, SearchRule rule, const std::string& detail) {
    for (const auto& dir : dirs) {
      for (const auto& sub : ctx.hwcaps_subdirs) {
        std::string hw = candidate_path(dir, "glibc-hwcaps/" + sub, ctx);
        auto st = fs.stat(hw);
        if (st && st->type == sys::FileType::directory && try_file(hw + "/" + out.soname, rule, detail)) return true;
      }
      if (try_file(candidate_path(dir, out.soname, ctx), rule, detail)) return true;
    }
    return false;
  }

  bool try_file(const std::string& path, SearchRule rule, const std::string& detail) {
    auto c = check_candidate(fs, path, requester);
    out.tried.push_back({path, rule, c.why});
    if (c.verdict == Verdict::skip) return false;
    if (c.verdict == Verdict::accept) {
      out.path = path;
      out.rule = rule;
      out.rule_detail = detail;
    }
    done = true;
    return true;
  }
};

std::string origin_of(const sys::FileSystem& fs, const ElfInfo& obj, const LoaderContext& ctx) {
  // The main program's origin comes from /proc/self/exe (symlinks resolved, _dl_get_origin); a
  // library's from the name it was opened under (_dl_new_object), symlinks not resolved.
  bool is_main = ctx.main_program && ctx.main_program->path == obj.path;
  std::string path = obj.path;
  if (is_main) {
    if (auto real = fs.real_path(obj.path)) path = *real;
  }
  if (!path.empty() && path.front() != '/') path = util::join_path(ctx.cwd, path);
  return std::string(util::dir_name(path));
}

std::vector<std::string> expand_all(const sys::FileSystem& fs, const std::vector<std::string>& entries, const ElfInfo& obj,
                                    const LoaderContext& ctx) {
  std::string origin = origin_of(fs, obj, ctx);
  std::vector<std::string> out;
  for (const auto& e : entries) {
    if (e.empty()) {
      out.emplace_back();  // the working directory (fillin_rpath)
      continue;
    }
    std::string x = expand_dynamic_string(e, origin, ctx);
    if (!x.empty()) out.push_back(std::move(x));  // an entry that expands to nothing is dropped
  }
  return out;
}

bool in_default_dirs(std::string_view path, const LoaderContext& ctx) {
  auto dir = util::dir_name(path);
  for (const auto& d : ctx.default_dirs) {
    if (dir == d) return true;
  }
  return false;
}

// _dl_load_cache_lookup / search_cache: an entry for this soname whose flags fit the requester's ABI;
// a glibc-hwcaps entry for a supported subdirectory wins over the plain one, by subdirectory priority.
const LdCacheEntry* cache_lookup(const LdCache& cache, std::string_view soname, const ElfInfo& requester,
                                 const LoaderContext& ctx) {
  std::int32_t want = cache_flags_for(requester.elf_class == ElfClass::elf64, requester.machine);
  const LdCacheEntry* best = nullptr;
  std::size_t best_rank = ctx.hwcaps_subdirs.size() + 1;
  for (const auto& e : cache.entries) {
    if (e.soname != soname || (e.flags != want && e.flags != 1 /* FLAG_ELF: any */)) continue;
    std::size_t rank = ctx.hwcaps_subdirs.size();
    if (!e.hwcaps.empty()) {
      rank = ctx.hwcaps_subdirs.size() + 1;
      for (std::size_t i = 0; i < ctx.hwcaps_subdirs.size(); ++i) {
        if (ctx.hwcaps_subdirs[i] == e.hwcaps) rank = i;
      }
      if (rank > ctx.hwcaps_subdirs.size()) continue;  // a subdirectory this CPU does not use
    }
    if (rank < best_rank) {
      best = &e;
      best_rank = rank;
    }
  }
  return best;
}

}  // namespace

Resolution resolve_soname(const sys::FileSystem& fs, std::string_view soname, const ElfInfo& requester,
                          const LoaderContext& ctx, const std::vector<const ElfInfo*>& loaders) {
  Resolution out;
  out.soname = std::string(soname);
  out.requested_by = requester.path;
  Search s{fs, requester, ctx, out};

  // A name with a slash is opened as it is, after DST expansion (_dl_map_object, "if (strchr (name, '/') == NULL)").
  if (soname.find('/') != std::string_view::npos) {
    std::string p = expand_dynamic_string(soname, origin_of(fs, requester, ctx), ctx);
    if (p.front() != '/') p = util::join_path(ctx.cwd, p);
    s.try_file(p, SearchRule::direct_path, "the name contains '/'");
    return out;
  }

  // 1. DT_RPATH of the requester and its loaders, then the main program; get-dynamic-info.h drops an
  //    object's DT_RPATH when it also has DT_RUNPATH, and the whole step is skipped when the
  //    requester has DT_RUNPATH.
  if (!requester.has_runpath) {
    std::vector<const ElfInfo*> chain{&requester};
    chain.insert(chain.end(), loaders.begin(), loaders.end());
    bool saw_main = false;
    for (const ElfInfo* l : chain) {
      if (ctx.main_program && l->path == ctx.main_program->path) saw_main = true;
      if (!l->has_rpath || l->has_runpath) continue;
      if (s.try_dirs(expand_all(fs, l->rpath, *l, ctx), SearchRule::rpath, "DT_RPATH of " + l->path)) return out;
    }
    const auto& main = ctx.main_program;
    if (main && !saw_main && main->has_rpath && !main->has_runpath &&
        s.try_dirs(expand_all(fs, main->rpath, *main, ctx), SearchRule::rpath, "DT_RPATH of the main program " + main->path)) {
      return out;
    }
  }

  // 2. LD_LIBRARY_PATH; its $ORIGIN is the main program's (_dl_init_paths expands it for the main map).
  if (!ctx.ld_library_path.empty()) {
    const ElfInfo& base = ctx.main_program ? *ctx.main_program : requester;
    if (s.try_dirs(expand_all(fs, ctx.ld_library_path, base, ctx), SearchRule::ld_library_path, "LD_LIBRARY_PATH")) return out;
  }

  // 3. DT_RUNPATH of the requester only.
  if (requester.has_runpath &&
      s.try_dirs(expand_all(fs, requester.runpath, requester, ctx), SearchRule::runpath, "DT_RUNPATH of " + requester.path)) {
    return out;
  }

  // 4. /etc/ld.so.cache; with DF_1_NODEFLIB, entries in the default directories are not used.
  if (ctx.cache) {
    if (const LdCacheEntry* e = cache_lookup(*ctx.cache, soname, requester, ctx)) {
      if (requester.nodeflib && in_default_dirs(e->path, ctx)) {
        out.tried.push_back({e->path, SearchRule::cache, "in a default directory, and the requester has DF_1_NODEFLIB"});
      } else if (s.try_file(e->path, SearchRule::cache, "/etc/ld.so.cache")) {
        return out;
      }
    } else {
      out.tried.push_back({std::string(k_ld_cache_path), SearchRule::cache, "no entry for this soname and ABI"});
    }
  }

  // 5. The default directories, unless DF_1_NODEFLIB.
  if (!requester.nodeflib) s.try_dirs(ctx.default_dirs, SearchRule::default_dirs, "default directories");
  return out;
}

std::vector<Resolution> resolve_needed_tree(const sys::FileSystem& fs, const ElfInfo& root, const LoaderContext& ctx_in,
                                            std::size_t max_objects) {
  LoaderContext ctx = ctx_in;
  if (!ctx.main_program) ctx.main_program = root;

  struct Node {
    ElfInfo info;
    std::vector<const ElfInfo*> loaders;  // nearest first
    int depth;
  };
  std::deque<Node> nodes;  // stable addresses: loaders point into it
  std::map<std::string, std::string, std::less<>> loaded_names;  // soname or name asked for -> path
  std::set<std::string> loaded_files;                            // real paths (the file-identity check)
  std::map<std::string, std::string> path_of_file;               // real path -> path as first loaded

  auto remember = [&](const std::string& name, const std::string& path) {
    if (!name.empty()) loaded_names.emplace(name, path);
  };
  auto real = [&](const std::string& p) { return fs.real_path(p).value_or(p); };

  nodes.push_back({root, {}, 0});
  remember(root.soname, root.path);
  loaded_files.insert(real(root.path));
  path_of_file[real(root.path)] = root.path;
  // ld.so is in the link map from the start, under its soname and its path (rtld.c).
  if (!ctx.interpreter.empty()) {
    std::string interp = root.interpreter.empty() ? ctx.interpreter : root.interpreter;
    remember(interp, interp);
    if (auto info = read_elf_info(fs, interp)) remember(info->soname, interp);
    loaded_files.insert(real(interp));
    path_of_file[real(interp)] = interp;
  }

  std::vector<Resolution> out;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    // push_back on a deque keeps references to the other elements valid.
    const Node& node = nodes[i];
    std::vector<const ElfInfo*> chain{&node.info};
    chain.insert(chain.end(), node.loaders.begin(), node.loaders.end());
    int depth = node.depth + 1;
    for (const auto& name : node.info.needed) {
      if (auto it = loaded_names.find(name); it != loaded_names.end()) {
        Resolution r;
        r.soname = name;
        r.requested_by = node.info.path;
        r.depth = depth;
        r.path = it->second;
        r.rule = SearchRule::already_loaded;
        r.rule_detail = "already loaded";
        out.push_back(std::move(r));
        continue;
      }
      Resolution r = resolve_soname(fs, name, node.info, ctx, node.loaders);
      r.depth = depth;
      if (r.found()) {
        std::string file = real(r.path);
        if (loaded_files.count(file) != 0) {
          // Same file under another name: _dl_map_object_from_fd reuses the loaded object.
          r.rule_detail += " (the same file as " + path_of_file[file] + ", already loaded)";
          remember(name, r.path);
        } else if (nodes.size() < max_objects) {
          auto info = read_elf_info(fs, r.path);
          loaded_files.insert(file);
          path_of_file[file] = r.path;
          remember(name, r.path);
          if (info) {
            remember(info->soname, r.path);
            nodes.push_back({std::move(*info), chain, depth});
          } else {
            r.rule_detail += " (its dynamic section could not be read: " + info.error().message + ")";
          }
        }
      }
      out.push_back(std::move(r));
    }
  }
  return out;
}

}  // namespace gpudoctor::probe::loader
