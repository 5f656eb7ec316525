// What is installed in one Python environment, from its sys.path directories: each entry is listed
// once, and that listing answers both "which distributions are here" (*.dist-info, *.egg-info) and
// "where would `import NAME` land" (CPython's PathFinder: per entry, a directory with __init__ is a
// regular package, then NAME.py / NAME.*.so modules; a directory without __init__ is only a
// namespace portion, which any regular package or module on a later entry beats).
#include <probe/python_probe.hpp>

#include <probe/frameworks/framework_probe.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace gpudoctor::probe {
namespace {

using facts::Framework;

struct FrameworkSpec {
  Framework framework;
  std::string_view module;
  std::string_view marker;  // a file inside the package every real install has
  void (*read)(const sys::FileSystem&, const frameworks::SiteContext&, facts::FrameworkBuild&);
};

constexpr std::array k_frameworks = {
    FrameworkSpec{Framework::torch, "torch", "version.py", frameworks::read_torch},
    FrameworkSpec{Framework::tensorflow, "tensorflow", "python", frameworks::read_tensorflow},
    FrameworkSpec{Framework::jax, "jax", "version.py", frameworks::read_jax},
    FrameworkSpec{Framework::onnxruntime, "onnxruntime", "capi", frameworks::read_onnxruntime},
    FrameworkSpec{Framework::paddle, "paddle", "version", frameworks::read_paddle},
    FrameworkSpec{Framework::cupy, "cupy", "_core", frameworks::read_cupy},
    FrameworkSpec{Framework::tensorrt, "tensorrt", "__init__.py", frameworks::read_tensorrt},
};

// Distributions whose METADATA is read (the directory name is enough for the rest).
constexpr std::array<std::string_view, 10> k_metadata_prefixes = {
    "torch", "tensorflow", "tf-nightly", "intel-tensorflow", "jax", "onnxruntime", "ort-nightly",
    "paddlepaddle", "cupy", "tensorrt"};

// PEP 503: lower case, runs of '-', '_' and '.' become one '-'.
std::string normalize_name(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '-' || c == '_' || c == '.') {
      if (out.empty() || out.back() != '-') out.push_back('-');
    } else {
      out.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
    }
  }
  return out;
}

struct EntryListing {
  std::string dir;
  std::map<std::string, sys::FileType, std::less<>> names;
  bool listed = false;
};

void read_metadata(const sys::FileSystem& fs, const EntryListing& entry, const std::string& dir_name,
                   facts::Distribution& d) {
  bool egg = dir_name.ends_with(".egg-info");
  auto type = entry.names.find(dir_name)->second;
  std::string path = type == sys::FileType::directory
                         ? util::join_path(d.metadata_dir, egg ? "PKG-INFO" : "METADATA")
                         : d.metadata_dir;  // an egg-info may be a single file
  auto text = fs.read_text(path, 16 * 1024);
  if (!text) return;
  for (auto line : util::lines(*text)) {
    if (line.empty()) break;  // the headers end at the first blank line
    if (line.starts_with("Name:")) d.name = normalize_name(util::trim(line.substr(5)));
    else if (line.starts_with("Version:")) d.version = std::string(util::trim(line.substr(8)));
  }
}

std::vector<facts::Distribution> distributions_in(const sys::FileSystem& fs, const EntryListing& entry) {
  std::vector<facts::Distribution> out;
  for (const auto& [name, type] : entry.names) {
    std::string_view n = name;
    std::string_view stem;
    if (n.ends_with(".dist-info")) stem = n.substr(0, n.size() - 10);
    else if (n.ends_with(".egg-info")) stem = n.substr(0, n.size() - 9);
    else continue;
    facts::Distribution d;
    auto dash = stem.find('-');
    d.name = normalize_name(stem.substr(0, dash));
    if (dash != std::string_view::npos) {
      auto rest = stem.substr(dash + 1);
      d.version = std::string(rest.substr(0, rest.find('-')));  // egg-info: "1.0-py3.11"
    }
    d.metadata_dir = util::join_path(entry.dir, name);
    if (std::any_of(k_metadata_prefixes.begin(), k_metadata_prefixes.end(),
                    [&](std::string_view p) { return d.name.starts_with(p); })) {
      read_metadata(fs, entry, name, d);
    }
    out.push_back(std::move(d));
  }
  return out;
}

enum class Found { none, package, module, namespace_dir };

struct Hit {
  Found found = Found::none;
  std::string path;
};

Hit find_in(const sys::FileSystem& fs, const EntryListing& entry, std::string_view module) {
  Hit hit;
  auto it = entry.names.find(module);
  if (it != entry.names.end() &&
      (it->second == sys::FileType::directory || it->second == sys::FileType::symlink)) {
    auto dir = util::join_path(entry.dir, module);
    if (fs.exists(util::join_path(dir, "__init__.py"))) return {Found::package, dir};
    if (it->second == sys::FileType::directory || fs.stat(dir).value_or(sys::FileStat{}).type == sys::FileType::directory) {
      hit = {Found::namespace_dir, dir};
    }
  }
  std::string prefix = std::string(module) + ".";
  for (auto m = entry.names.lower_bound(prefix); m != entry.names.end() && m->first.starts_with(prefix); ++m) {
    std::string_view rest = std::string_view(m->first).substr(prefix.size());
    if (rest == "py" || rest == "pyc" || (rest.ends_with(".so") && rest.starts_with("cpython")) || rest == "so" ||
        rest == "abi3.so") {
      return {Found::module, util::join_path(entry.dir, m->first)};
    }
  }
  return hit;
}

}  // namespace

namespace frameworks {

const facts::Distribution* find_distribution(const SiteContext& site, std::string_view name) {
  for (const auto& d : *site.distributions) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

std::vector<std::string> nvidia_wheels(const sys::FileSystem& fs, const SiteContext& site) {
  std::vector<std::string> out;
  for (const auto& d : *site.distributions) {
    if (d.name.starts_with("nvidia-")) out.push_back(d.name + " " + d.version);
  }
  if (out.empty()) {
    // Wheels installed without metadata still leave their libraries where torch's RPATH looks.
    if (auto dirs = fs.list_dir(util::join_path(site.site_dir, "nvidia"))) {
      for (const auto& e : *dirs) {
        if (fs.exists(util::join_path(util::join_path(util::join_path(site.site_dir, "nvidia"), e.name), "lib"))) {
          out.push_back("nvidia/" + e.name + "/lib");
        }
      }
    }
  }
  return out;
}

}  // namespace frameworks

void read_conda_meta(const sys::FileSystem& fs, facts::PythonEnvironment& env) {
  if (env.prefix.empty()) return;
  auto dir = util::join_path(env.prefix, "conda-meta");
  auto list = fs.list_dir(dir);
  if (!list) {
    if (list.error().code != sys::ErrorCode::not_found) {
      env.conda_meta = dir;
      env.conda_packages = facts::Known<std::vector<facts::CondaPackage>>::unknown(list.error().message);
    }
    return;
  }
  env.conda_meta = dir;
  std::vector<facts::CondaPackage> packages;
  for (const auto& e : *list) {
    std::string_view n = e.name;
    if (!n.ends_with(".json")) continue;  // "history" is conda's log, not a package
    n.remove_suffix(5);
    auto build_dash = n.rfind('-');
    if (build_dash == std::string_view::npos || build_dash == 0) continue;
    auto version_dash = n.rfind('-', build_dash - 1);
    if (version_dash == std::string_view::npos || version_dash == 0) continue;
    packages.push_back({std::string(n.substr(0, version_dash)),
                        std::string(n.substr(version_dash + 1, build_dash - version_dash - 1)),
                        std::string(n.substr(build_dash + 1))});
  }
  std::sort(packages.begin(), packages.end(),
            [](const facts::CondaPackage& a, const facts::CondaPackage& b) { return a.name < b.name; });
  env.conda_packages = std::move(packages);
}

void scan_python_environment(const sys::FileSystem& fs, const std::string& cwd, facts::PythonEnvironment& env) {
  read_conda_meta(fs, env);
  if (!env.sys_path) return;
  const auto& sys_path = *env.sys_path;
  std::vector<EntryListing> listings(sys_path.size());
  std::vector<std::vector<facts::Distribution>> dists(sys_path.size());
  std::set<std::string> seen;
  for (std::size_t i = 0; i < sys_path.size(); ++i) {
    listings[i].dir = sys_path[i];
    if (sys_path[i].empty() || sys_path[i][0] != '/' || sys_path[i].ends_with(".zip")) continue;
    if (!seen.insert(sys_path[i]).second) continue;  // a repeated entry finds nothing new
    auto list = fs.list_dir(sys_path[i]);
    if (!list) continue;
    listings[i].listed = true;
    for (auto& e : *list) listings[i].names.emplace(std::move(e.name), e.type);
    dists[i] = distributions_in(fs, listings[i]);
    env.distributions.insert(env.distributions.end(), dists[i].begin(), dists[i].end());
  }

  for (const auto& spec : k_frameworks) {
    Hit winner;
    int winner_index = -1;
    Hit first_namespace;
    bool installed = false;
    for (std::size_t i = 0; i < listings.size(); ++i) {
      if (!listings[i].listed) continue;
      Hit hit = find_in(fs, listings[i], spec.module);
      if (hit.found == Found::none) continue;
      if (hit.found == Found::namespace_dir) {
        if (first_namespace.found == Found::none) first_namespace = hit;
        continue;
      }
      if (winner.found == Found::none) {
        winner = hit;
        winner_index = static_cast<int>(i);
      }
      frameworks::SiteContext site{sys_path[i], &dists[i], &env};
      bool owned = hit.found == Found::package &&
                   (fs.exists(util::join_path(hit.path, spec.marker)) ||
                    std::any_of(dists[i].begin(), dists[i].end(),
                                [&](const facts::Distribution& d) { return d.name.starts_with(spec.module); }));
      if (!owned) continue;
      installed = true;
      facts::FrameworkBuild b;
      b.framework = spec.framework;
      b.package_dir = hit.path;
      b.sys_path_index = static_cast<int>(i);
      spec.read(fs, site, b);
      env.builds.push_back(std::move(b));
    }
    if (!installed) continue;
    bool winner_is_build = std::any_of(env.builds.begin(), env.builds.end(), [&](const facts::FrameworkBuild& b) {
      return b.framework == spec.framework && b.package_dir == winner.path;
    });
    if (!winner_is_build && winner.found != Found::none) {
      env.shadows.push_back({std::string(spec.module), winner.path, fmt::format("sys.path[{}]", winner_index)});
    }
    if (!cwd.empty()) {
      EntryListing here;
      here.dir = cwd;
      for (auto name : {std::string(spec.module), std::string(spec.module) + ".py"}) {
        auto st = fs.lstat(util::join_path(cwd, name));
        if (st) here.names.emplace(name, st->type);
      }
      Hit hit = find_in(fs, here, spec.module);
      bool same_as_build = std::any_of(env.builds.begin(), env.builds.end(),
                                       [&](const facts::FrameworkBuild& b) { return b.package_dir == hit.path; });
      if ((hit.found == Found::package || hit.found == Found::module) && !same_as_build) {
        env.shadows.push_back({std::string(spec.module), hit.path, "current directory"});
      }
    }
  }
}

}  // namespace gpudoctor::probe
