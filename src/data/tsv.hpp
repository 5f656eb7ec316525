// A tab-separated table with a header row, as every file in data/ is. Lines starting with '#' are
// comments; every row must have as many fields as the header. Tables are parsed once and kept.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gpudoctor::data {

class Table {
 public:
  // Throws std::runtime_error naming the line on a malformed table (data/ is reviewed, compiled-in
  // knowledge; a malformed row is a build defect that the table tests catch).
  static Table parse(std::string_view name, std::string_view text);

  const std::vector<std::string>& header() const { return m_header; }
  std::size_t size() const { return m_rows.size(); }
  // The field of row `row` in column `column` (by header name).
  const std::string& at(std::size_t row, std::string_view column) const;
  std::size_t column(std::string_view name) const;
  const std::vector<std::vector<std::string>>& rows() const { return m_rows; }

 private:
  std::string m_name;
  std::vector<std::string> m_header;
  std::vector<std::vector<std::string>> m_rows;
};

// The embedded table data/PATH, parsed once.
const Table& table(std::string_view path);

}  // namespace gpudoctor::data
