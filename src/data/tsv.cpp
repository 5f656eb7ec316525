#include <data/embedded.hpp>
#include <data/tsv.hpp>

#include <map>
#include <mutex>
#include <stdexcept>

#include <util/text.hpp>

namespace gpudoctor::data {

std::string_view find(std::string_view path) {
  for (const auto& f : embedded_files()) {
    if (f.path == path) return f.content;
  }
  return {};
}

Table Table::parse(std::string_view name, std::string_view text) {
  Table t;
  t.m_name = std::string(name);
  int line_no = 0;
  for (auto line : util::lines(text)) {
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string> fields;
    for (auto f : util::split(line, '\t')) fields.emplace_back(f);
    if (t.m_header.empty()) {
      t.m_header = std::move(fields);
      continue;
    }
    if (fields.size() != t.m_header.size()) {
      throw std::runtime_error(t.m_name + ":" + std::to_string(line_no) + ": " + std::to_string(fields.size()) +
                               " fields, header has " + std::to_string(t.m_header.size()));
    }
    t.m_rows.push_back(std::move(fields));
  }
  if (t.m_header.empty()) throw std::runtime_error(t.m_name + ": empty table");
  return t;
}

std::size_t Table::column(std::string_view name) const {
  for (std::size_t i = 0; i < m_header.size(); ++i) {
    if (m_header[i] == name) return i;
  }
  throw std::runtime_error(m_name + ": no column " + std::string(name));
}

const std::string& Table::at(std::size_t row, std::string_view col) const { return m_rows.at(row).at(column(col)); }

const Table& table(std::string_view path) {
  static std::mutex mutex;
  static std::map<std::string, Table, std::less<>> cache;
  std::lock_guard lock(mutex);
  auto it = cache.find(path);
  if (it == cache.end()) {
    auto text = find(path);
    if (text.empty()) throw std::runtime_error("no embedded table data/" + std::string(path));
    it = cache.emplace(std::string(path), Table::parse(path, text)).first;
  }
  return it->second;
}

}  // namespace gpudoctor::data
