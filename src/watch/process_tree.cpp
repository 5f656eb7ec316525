#include <watch/process_tree.hpp>

#include <set>
#include <string>

#include <util/text.hpp>
#include <watch/proc_parse.hpp>

namespace gpudoctor::watch {
namespace {

// nullopt when the children files are not there (kernel without CONFIG_PROC_CHILDREN).
std::optional<std::vector<int>> children_of(const sys::FileSystem& fs, int pid) {
  std::string base = "/proc/" + std::to_string(pid) + "/task";
  auto tasks = fs.list_dir(base);
  if (!tasks) return std::vector<int>{};  // gone
  std::vector<int> out;
  for (const auto& t : *tasks) {
    std::string task = base + "/" + t.name;
    auto text = fs.read_text(task + "/children");
    if (!text) {
      // A thread that exited meanwhile has no directory either; one that is there without the file
      // means the kernel does not provide it.
      if (text.error().code == sys::ErrorCode::not_found && fs.exists(task)) return std::nullopt;
      continue;
    }
    for (auto word : util::split_ws(util::trim(*text))) {
      if (auto n = util::parse_uint(word)) out.push_back(static_cast<int>(*n));
    }
  }
  return out;
}

std::map<int, int> scan_parents(const sys::FileSystem& fs) {
  std::map<int, int> parent_of;
  auto entries = fs.list_dir("/proc");
  if (!entries) return parent_of;
  for (const auto& e : *entries) {
    auto pid = util::parse_uint(e.name);
    if (!pid) continue;
    auto text = fs.read_text("/proc/" + e.name + "/stat", 4096);
    if (!text) continue;
    if (auto st = parse_stat(*text)) parent_of[static_cast<int>(*pid)] = st->ppid;
  }
  return parent_of;
}

}  // namespace

std::vector<int> tree_from_parents(const std::map<int, int>& parent_of, int root) {
  std::vector<int> out;
  if (!parent_of.count(root)) return out;
  std::map<int, std::vector<int>> kids;
  for (const auto& [pid, ppid] : parent_of) kids[ppid].push_back(pid);
  std::set<int> seen;
  out.push_back(root);
  seen.insert(root);
  for (std::size_t i = 0; i < out.size(); ++i) {
    for (int c : kids[out[i]]) {
      if (seen.insert(c).second) out.push_back(c);
    }
  }
  return out;
}

std::vector<int> process_tree(const sys::FileSystem& fs, int root) {
  std::vector<int> out;
  if (!fs.exists("/proc/" + std::to_string(root) + "/stat")) return out;
  std::set<int> seen{root};
  out.push_back(root);
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto kids = children_of(fs, out[i]);
    if (!kids) return tree_from_parents(scan_parents(fs), root);
    for (int c : *kids) {
      if (seen.insert(c).second) out.push_back(c);
    }
  }
  return out;
}

}  // namespace gpudoctor::watch
