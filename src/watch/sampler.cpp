#include <watch/sampler.hpp>

#include <algorithm>
#include <string>

#include <watch/proc_parse.hpp>
#include <watch/process_tree.hpp>

namespace gpudoctor::watch {
namespace {

constexpr std::size_t k_stat_limit = 4096;
// A large PyTorch process maps a few thousand files (~400 KB of maps); the bound is for hostile ones.
constexpr std::size_t k_maps_limit = 32u << 20;
// Enough for any training job's descriptors; past this the rest are not looked at.
constexpr std::size_t k_max_fds = 4096;

std::vector<std::string> gpu_devices_held(const sys::FileSystem& fs, const std::string& proc) {
  std::vector<std::string> out;
  auto fds = fs.list_dir(proc + "/fd");
  if (!fds) return out;
  std::size_t n = 0;
  for (const auto& e : *fds) {
    if (++n > k_max_fds) break;
    auto target = fs.read_link(proc + "/fd/" + e.name);
    if (!target || !is_gpu_device_path(*target)) continue;
    if (std::find(out.begin(), out.end(), *target) == out.end()) out.push_back(*target);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Sampler::Sampler(const sys::FileSystem& fs, int root_pid, GpuSource& gpu, SamplerOptions options)
    : m_fs(fs), m_root(root_pid), m_gpu(gpu), m_options(options) {}

Sample Sampler::sample(double t) {
  Sample s;
  s.t = t;
  std::vector<int> pids = process_tree(m_fs, m_root);
  std::map<int, Seen> seen_now;
  for (int pid : pids) {
    std::string proc = "/proc/" + std::to_string(pid);
    auto text = m_fs.read_text(proc + "/stat", k_stat_limit);
    if (!text) continue;  // exited since the tree was read
    auto st = parse_stat(*text);
    // A zombie has exited: it holds nothing, and a watched root that nobody reaped yet is done.
    if (!st || st->state == 'Z') continue;
    ProcessSample p;
    p.pid = pid;
    p.ppid = st->ppid;
    p.name = st->comm;
    p.threads = st->threads;
    p.rss_bytes = st->rss_pages * static_cast<std::uint64_t>(m_options.page_size);
    Seen now{st->start_time, st->utime + st->stime, t, 0, 0};
    auto it = m_seen.find(pid);
    const bool known_before = it != m_seen.end() && it->second.start_time == st->start_time;
    if (known_before && t > it->second.t) {
      double ticks = static_cast<double>(now.cpu_ticks - std::min(now.cpu_ticks, it->second.cpu_ticks));
      p.cpu_percent = 100.0 * ticks / static_cast<double>(m_options.ticks_per_second) / (t - it->second.t);
    } else {
      p.cpu_percent = Known<double>::unknown("first sample of this process");
    }
    if (!known_before) {
      auto exe = m_fs.read_link(proc + "/exe");
      if (exe && std::find(m_executables.begin(), m_executables.end(), *exe) == m_executables.end()) {
        m_executables.push_back(*exe);
      }
    }
    if (known_before && it->second.maps_vsize == st->vsize) {
      now.maps_vsize = it->second.maps_vsize;
      now.libraries = it->second.libraries;
    } else {
      auto maps = m_fs.read_text(proc + "/maps", k_maps_limit);
      now.maps_vsize = maps ? st->vsize : 0;
      // Libraries stay counted once seen: unmapping libcuda does not undo having initialised CUDA.
      now.libraries = (maps ? gpu_libraries_in_maps(*maps) : 0) | (known_before ? it->second.libraries : 0);
    }
    p.libraries = now.libraries;
    p.devices = gpu_devices_held(m_fs, proc);
    p.gpu_memory_bytes = Known<std::uint64_t>::unknown("no GPU source");
    seen_now[pid] = now;
    s.processes.push_back(std::move(p));
  }
  m_seen = std::move(seen_now);
  if (s.processes.size() > 1) {
    std::sort(s.processes.begin() + 1, s.processes.end(),
              [](const ProcessSample& a, const ProcessSample& b) { return a.pid < b.pid; });
  }
  std::vector<int> live;
  for (const auto& p : s.processes) live.push_back(p.pid);
  GpuReading r = m_gpu.read(live);
  s.gpus = std::move(r.gpus);
  const std::string why = m_gpu.description();
  for (auto& p : s.processes) {
    if (auto m = r.process_memory_bytes.find(p.pid); m != r.process_memory_bytes.end()) {
      p.gpu_memory_bytes = m->second;
    } else if (r.processes_listed) {
      p.gpu_memory_bytes = std::uint64_t{0};  // the source listed every GPU process, and not this one
    } else {
      p.gpu_memory_bytes = Known<std::uint64_t>::unknown(r.processes_unknown.empty() ? why : r.processes_unknown);
    }
    if (auto sm = r.process_sm_percent.find(p.pid); sm != r.process_sm_percent.end()) {
      p.gpu_sm_percent = sm->second;
    } else if (r.processes_listed && r.process_sm_unknown.empty()) {
      p.gpu_sm_percent = 0.0;  // NVML keeps SM samples only of processes that used the SMs
    } else if (r.processes_listed) {
      p.gpu_sm_percent = Known<double>::unknown(r.process_sm_unknown);
    } else {
      p.gpu_sm_percent = Known<double>::unknown(r.processes_unknown.empty() ? why : r.processes_unknown);
    }
  }
  return s;
}

}  // namespace gpudoctor::watch
