#include <fleet/collect.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iterator>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include <unistd.h>

#include <sys/file_system.hpp>
#include <util/path.hpp>
#include <util/text.hpp>

namespace gpudoctor::fleet {
namespace {

constexpr int k_max_dir_depth = 8;
constexpr std::size_t k_max_files = 1u << 20;

bool is_label_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

// "gpu017: {" -> label "gpu017", rest "{". Labels are host names or task numbers.
bool label_of(std::string_view line, std::string_view& label, std::string_view& rest) {
  std::size_t colon = line.find(':');
  if (colon == 0 || colon == std::string_view::npos || colon > 255) return false;
  std::string_view l = line.substr(0, colon);
  // srun --label right-aligns task numbers: "  3: ".
  while (!l.empty() && l.front() == ' ') l.remove_prefix(1);
  if (l.empty() || !std::all_of(l.begin(), l.end(), is_label_char)) return false;
  label = l;
  rest = line.substr(colon + 1);
  if (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
  return true;
}

// The path made absolute and lexically normal ("a/./b", "a//b" and "a/x/../b" are "a/b"), so that one
// file named two ways is recognised as one.
std::string absolute(const std::string& path) {
  std::string abs = path;
  if (path.empty() || path[0] != '/') {
    char buf[4096];
    const char* cwd = ::getcwd(buf, sizeof buf);
    abs = util::join_path(cwd ? cwd : "/", path);
  }
  return std::filesystem::path(abs).lexically_normal().string();
}

void list_files(const sys::FileSystem& fs, const std::string& dir, int depth, std::vector<std::string>& out,
                std::vector<NodeProblem>& problems) {
  auto entries = fs.list_dir(dir);
  if (!entries) {
    problems.push_back({NodeProblem::Kind::invalid, "", dir, entries.error().message});
    return;
  }
  for (const auto& e : *entries) {
    if (e.name.empty() || e.name[0] == '.') continue;
    std::string p = util::join_path(dir, e.name);
    if (e.type == sys::FileType::regular) {
      if (out.size() < k_max_files) out.push_back(p);
    } else if (e.type == sys::FileType::directory && depth < k_max_dir_depth) {
      list_files(fs, p, depth + 1, out, problems);
    }
    // Symlinks and special files in a directory are not followed: a loop or a FIFO cannot stall the join.
  }
}

}  // namespace

std::vector<Labelled> split_labelled_lines(std::string_view text) {
  std::vector<Labelled> out;
  bool decided = false;
  std::unordered_map<std::string, std::size_t> index;
  for (auto line : util::lines(text)) {
    if (line.find_first_not_of(" \t") == std::string_view::npos) continue;
    std::string_view label;
    std::string_view rest;
    bool labelled = label_of(line, label, rest);
    if (!decided) {
      decided = true;
      if (!labelled || line.front() == '{') return {};
    }
    if (!labelled) {
      label = "";
      rest = line;  // an unlabelled line (srun's own message) stays with no node
    }
    auto [it, fresh] = index.try_emplace(std::string(label), out.size());
    if (fresh) out.push_back({std::string(label), ""});
    auto& t = out[it->second].text;
    t.append(rest);
    t.push_back('\n');
  }
  return out;
}

void read_report_stream(std::string_view text, std::string_view source, FleetInput& into, StreamPosition* at) {
  auto labelled = at != nullptr ? std::vector<Labelled>{} : split_labelled_lines(text);
  if (labelled.empty()) labelled.push_back({"", std::string(text)});
  for (const auto& l : labelled) {
    std::string where = l.label.empty() ? std::string(source) : fmt::format("{} ({})", source, l.label);
    JsonValues values = split_json_values(l.text, at != nullptr ? at->bytes : 0);
    for (const auto& g : values.garbage) into.problems.push_back({NodeProblem::Kind::invalid, l.label, where, where + ": " + g});
    std::size_t n = at != nullptr ? at->reports : 0;
    bool numbered = values.values.size() > 1 || (at != nullptr && at->piece);
    for (auto v : values.values) {
      ++n;
      if (at != nullptr) at->reports = n;
      std::string one = numbered ? fmt::format("{} report {}", where, n) : where;
      auto r = parse_node_report(v, one);
      if (!r) {
        into.problems.push_back({NodeProblem::Kind::invalid, l.label, one, r.error().message});
        continue;
      }
      // pdsh and clush label lines with the host that ran the command: that is the node's name.
      bool task_number = !l.label.empty() && std::all_of(l.label.begin(), l.label.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (!l.label.empty() && !task_number) r->node = l.label;
      into.reports.push_back(std::move(*r));
    }
    if (values.values.empty() && values.garbage.empty() && !l.label.empty())
      into.problems.push_back({NodeProblem::Kind::invalid, l.label, where, where + ": no report in its output"});
  }
}

void read_report_input(std::istream& in, std::string_view source, FleetInput& into, std::size_t chunk_bytes) {
  std::string buffer;
  std::string chunk(std::max<std::size_t>(chunk_bytes, 1), '\0');
  StreamPosition at;
  at.piece = true;
  bool decided = false;
  bool labelled = false;
  bool eof = false;
  std::size_t searched = 0;
  while (!eof) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    auto got = static_cast<std::size_t>(in.gcount());
    eof = got == 0 || !in;
    const std::size_t before = buffer.size();
    buffer.append(chunk.data(), got);
    if (!decided) {
      // The first non-blank line decides: "LABEL: ..." (pdsh, clush, srun --label) or not. Only the
      // new bytes are searched for its end.
      std::size_t first = buffer.find_first_not_of(" \t\r\n");
      std::size_t eol = first == std::string::npos ? std::string::npos : buffer.find('\n', std::max(first, before));
      if (eol == std::string::npos && !eof) continue;
      decided = true;
      labelled = first != std::string::npos && !split_labelled_lines(std::string_view(buffer).substr(first, eol == std::string::npos ? std::string::npos : eol - first + 1)).empty();
    }
    if (labelled) continue;  // read whole below: one node's lines are spread over the stream
    // Everything before the last '{' that starts a line or follows a '}' ("}{": reports written with
    // no newline between them, as `cat` joins files) is whole reports (or garbage).
    std::size_t cut = buffer.size();
    if (!eof) {
      // The buffer up to `searched` holds no such '{' (it would have been cut there): only what came
      // after it is searched, so a long report read in small chunks costs no more than once.
      std::string_view fresh = std::string_view(buffer).substr(searched);
      std::size_t found = std::string_view::npos;
      for (std::string_view boundary : {"\n{", "}{"}) {
        auto f = fresh.rfind(boundary);
        if (f != std::string_view::npos && (found == std::string_view::npos || f > found)) found = f;
      }
      cut = found == std::string_view::npos ? std::string::npos : searched + found + 1;  // at the '{'
      searched = buffer.size() - 1;
    }
    if (cut == std::string::npos) {
      if (buffer.size() <= 2 * k_max_report_bytes) continue;
      cut = buffer.size();  // one value past the limit: its parse says so, and the stream goes on
    }
    read_report_stream(std::string_view(buffer).substr(0, cut), source, into, &at);
    at.bytes += cut;
    buffer.erase(0, cut);
    searched = 0;  // the rest starts with the '{' just found, and holds no boundary after it
  }
  if (labelled) read_report_stream(buffer, source, into);
}

FleetInput read_reports(const std::vector<std::string>& paths, std::istream& standard_input) {
  FleetInput in;
  auto fs = sys::make_rooted_file_system("/");
  std::vector<std::string> files;
  for (const auto& p : paths) {
    if (p == "-") {
      read_report_input(standard_input, "stdin", in);
      continue;
    }
    std::string abs = absolute(p);
    auto st = fs->stat(abs);
    if (!st) {
      in.problems.push_back({NodeProblem::Kind::invalid, "", p, fmt::format("{}: {}", p, st.error().message)});
    } else if (st->type == sys::FileType::directory) {
      list_files(*fs, abs, 0, files, in.problems);
    } else {
      files.push_back(abs);
    }
  }

  // A file named twice (a directory and a file or subdirectory in it) is read once: it is one report,
  // not a duplicate node.
  {
    std::unordered_set<std::string> seen;
    files.erase(std::remove_if(files.begin(), files.end(), [&seen](const std::string& f) { return !seen.insert(f).second; }),
                files.end());
  }

  // Parse in parallel; each worker keeps only the summaries.
  struct Result {
    std::vector<NodeReport> reports;
    std::vector<NodeProblem> problems;
  };
  unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
  workers = std::min<unsigned>(workers, static_cast<unsigned>(std::max<std::size_t>(files.size() / 16, 1)));
  std::vector<Result> results(workers);
  std::atomic<std::size_t> next{0};
  auto work = [&](Result& out) {
    FleetInput mine;
    for (std::size_t i = next++; i < files.size(); i = next++) {
      auto text = fs->read_file(files[i], k_max_report_bytes + 1);
      if (!text) {
        mine.problems.push_back({NodeProblem::Kind::invalid, "", files[i], text.error().message});
        continue;
      }
      if (text->truncated) {
        mine.problems.push_back({NodeProblem::Kind::invalid, "", files[i],
                                 fmt::format("{}: larger than {} MB, not a check report", files[i], k_max_report_bytes >> 20)});
        continue;
      }
      read_report_stream(text->content, files[i], mine);
    }
    out.reports = std::move(mine.reports);
    out.problems = std::move(mine.problems);
  };
  std::vector<std::thread> threads;
  for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work, std::ref(results[w]));
  work(results[0]);
  for (auto& t : threads) t.join();
  for (auto& r : results) {
    std::move(r.reports.begin(), r.reports.end(), std::back_inserter(in.reports));
    std::move(r.problems.begin(), r.problems.end(), std::back_inserter(in.problems));
  }
  return in;
}

}  // namespace gpudoctor::fleet
