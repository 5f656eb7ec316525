#include <scan/analyzer.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <re2/re2.h>

#include <scan/analyzer_impl.hpp>
#include <scan/file_parts.hpp>
#include <scan/suppression.hpp>
#include <util/text.hpp>

namespace gpudoctor::scan {
namespace {

// Iterable wrappers that yield what they wrap (enumerate adds an index in front).
bool is_passthrough_wrapper(std::string_view callee) {
  std::string_view last = last_component(callee);
  return last == "tqdm" || last == "enumerate" || last == "iter" || last == "track" || last == "progress_bar" ||
         last == "trange";
}

// `val_loader`, `self.test_dataloader`, `valid_dl`: a name that says it holds a DataLoader.
bool names_a_loader(std::string_view expr) {
  auto name = last_component(expr);
  return name.find("loader") != std::string_view::npos || name.ends_with("_dl") || name == "dl";
}

bool contains_modulo(Node cond) {
  bool found = false;
  for_each_node(cond, [&](Node n) {
    if (found) return Descend::no;
    if (n.is(NodeKind::binary_operator)) {
      Node op = n.child(1);
      if (op.text() == "%") found = true;
    }
    return Descend::yes;
  });
  return found;
}

FileAnalysis analyze_in_parts(const SourceText& source, const ProjectIndex* project,
                              const std::vector<FilePart>& parts);

}  // namespace

FileAnalysis analyze(const SourceText& source, const ProjectIndex* project) {
  // Alone, a file is its own project (as `gpudoctor scan FILE` sees it).
  ProjectIndex self;
  if (project == nullptr) {
    self.add_source(source.text);
    self.finish();
    project = &self;
  }
  if (source.cells.empty() && source.text.size() > k_parts_above_bytes) {
    auto parts = split_parts(source.text, k_part_bytes, k_max_statement_bytes);
    if (parts.size() > 1 || parts.front().too_large) return analyze_in_parts(source, project, parts);
  }
  auto tree = SyntaxTree::parse(source.text);
  if (!tree) return {{}, {source.display + ": the parser gave up; not scanned"}};
  FileFacts ff = collect_file_facts(tree->root(), project);
  return Analyzer(source, tree->root(), std::move(ff)).run();
}

namespace {

// Each part is analysed as a file of its own whose earlier lines are blank but for the imports
// (file_parts.hpp): rows, locations and imported names stay the file's. Names bound in one part are
// not followed into the next; a note says so. A statement too large to parse within the memory bound
// is not analysed, and a note says which lines. At most k_max_findings_per_rule findings of a rule
// are kept, so that the findings of a generated file cannot outgrow it; a note counts the others.
FileAnalysis analyze_in_parts(const SourceText& source, const ProjectIndex* project,
                              const std::vector<FilePart>& parts) {
  FileAnalysis out;
  std::map<std::string, std::size_t, std::less<>> per_rule;  // findings seen, kept or not
  int first_row = 0;  // the part's first row in the file
  for (const FilePart& p : parts) {
    std::string_view body = std::string_view(source.text).substr(p.begin, p.end - p.begin);
    const int rows = static_cast<int>(util::count_byte(body, '\n'));
    const int last_row = first_row + std::max(rows, 1);
    if (p.too_large) {
      out.notes.push_back(fmt::format("{}: lines {} to {} hold one top-level statement of {:.1f} MB, more than the "
                                      "{} MB one statement may have in a file analysed in parts; not scanned",
                                      source.display, first_row + 1, last_row,
                                      static_cast<double>(body.size()) / (1 << 20), k_max_statement_bytes >> 20));
      first_row += rows;
      continue;
    }
    SourceText part;
    part.display = source.display;
    part.text = imports_only_prefix(source.text, p.begin);
    part.text.append(body);
    auto tree = SyntaxTree::parse(part.text);
    if (!tree) {
      out.notes.push_back(fmt::format("{}: the parser gave up on lines {} to {}; not scanned", source.display,
                                      first_row + 1, last_row));
    } else {
      FileFacts ff = collect_file_facts(tree->root(), project);
      FileAnalysis a = Analyzer(part, tree->root(), std::move(ff)).run();
      for (auto& f : a.findings) {
        // Findings on the kept import lines belong to the part that holds those lines.
        if (f.location && f.location->line <= first_row) continue;
        if (++per_rule[f.id] <= k_max_findings_per_rule) out.findings.push_back(std::move(f));
      }
      for (auto& n : a.notes) out.notes.push_back(std::move(n));
    }
    first_row += rows;
  }
  for (const auto& [id, n] : per_rule) {
    if (n > k_max_findings_per_rule)
      out.notes.push_back(fmt::format("{}: {} more {} findings past the first {} are not listed", source.display,
                                      n - k_max_findings_per_rule, id, k_max_findings_per_rule));
  }
  out.notes.push_back(fmt::format("{}: {:.1f} MB analysed in {} parts cut at top-level statements (names bound in "
                                  "one part are not followed into the next)",
                                  source.display, static_cast<double>(source.text.size()) / (1 << 20), parts.size()));
  return out;
}

}  // namespace

FileAnalysis Analyzer::run() {
  m_scopes.push_back(Scope{});
  walk(m_root, [this](Node n) { return enter(n); }, [this](Node n) { leave(n); });
  for (const auto& m : m_src.magics) check_env_magic(m);
  finish();
  if (m_ff.has_syntax_error) {
    m_out.notes.push_back(fmt::format("{}: syntax error at {} (or a construct this Python grammar does not know); findings cover what parsed", m_src.display,
                                      where(m_ff.first_error_row)));
  }
  // Document order, and one finding per rule and line (`x.cpu().numpy()` is one sync, not two).
  std::vector<std::size_t> order(m_out.findings.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return m_positions[a] < m_positions[b]; });
  std::vector<facts::Finding> sorted;
  std::set<std::pair<int, std::string>> seen;
  const bool has_markers = m_src.text.find("gpudoctor:") != std::string::npos;
  for (auto i : order) {
    if (m_dropped.count(i)) continue;
    if (!seen.insert({m_positions[i].first, m_out.findings[i].id}).second) continue;
    if (has_markers && is_suppressed(line_of(m_positions[i].first), m_out.findings[i].id)) continue;
    sorted.push_back(std::move(m_out.findings[i]));
  }
  m_out.findings = std::move(sorted);
  return std::move(m_out);
}

std::string_view Analyzer::line_of(int row) const {
  std::string_view text = m_src.text;
  std::size_t pos = 0;
  for (int r = 0; r < row && pos != std::string_view::npos; ++r) {
    pos = text.find('\n', pos);
    if (pos != std::string_view::npos) ++pos;
  }
  if (pos == std::string_view::npos || pos > text.size()) return {};
  return text.substr(pos, text.find('\n', pos) - pos);
}

std::string Analyzer::where(int row) const {
  auto loc = m_src.locate(row, 0);
  return loc.cell.empty() ? fmt::format("line {}", loc.line) : fmt::format("{}, line {}", loc.cell, loc.line);
}

std::string Analyzer::snippet(Node n, std::size_t max) const {
  std::string s;
  for (char c : n.text()) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && !s.empty() && s.back() == ' ') continue;
    s += c;
    if (s.size() >= max) {
      s += "...";
      break;
    }
  }
  return util::sanitize_utf8(s);
}

facts::Finding& Analyzer::emit(RuleId id, Node at, std::string message, std::vector<std::string> evidence,
                               std::string fix) {
  return emit_at(id, at.row(), at.column(), std::move(message), std::move(evidence), std::move(fix));
}

facts::Finding& Analyzer::emit_at(RuleId id, int row, int column, std::string message,
                                  std::vector<std::string> evidence, std::string fix) {
  const auto& info = rule(id).info;
  facts::Finding f;
  f.id = std::string(info.id);
  f.layer = info.layer;
  f.severity = info.severity;
  f.message = util::sanitize_utf8(message);
  for (auto& e : evidence) e = util::sanitize_utf8(e);
  f.evidence = std::move(evidence);
  f.fix = fix.empty() ? std::string(info.fix) : util::sanitize_utf8(fix);
  f.docs = "docs/rules/" + std::string(info.id) + ".md";
  f.location = m_src.locate(row, column);
  m_out.findings.push_back(std::move(f));
  m_positions.emplace_back(row, column);
  if (id == RuleId::tensor_created_without_device && m_classes.empty() && m_function_nodes.size() == 1) {
    m_made_in_plain_function.emplace_back(m_out.findings.size() - 1, std::string(function_name()));
  }
  return m_out.findings.back();
}

Scope& Analyzer::scope_for(std::string_view name) {
  if (name.substr(0, 5) == "self.") return m_scopes.front();
  return m_scopes.back();
}

Symbol* Analyzer::lookup(std::string_view name) {
  std::string key(name);
  for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
    auto found = it->symbols.find(key);
    if (found != it->symbols.end()) return &found->second;
  }
  return nullptr;
}

bool Analyzer::in_step_loop() const {
  if (m_periodic_ifs > 0) return false;
  for (const auto& l : m_loops) {
    if (l.step) return true;
  }
  return false;
}

bool Analyzer::in_gpu_step_loop() const {
  if (!in_step_loop()) return false;
  return m_ff.device_functions.count(m_functions.empty() ? k_module_level : m_functions.back()) > 0;
}

namespace {

// The branch of `p` that `child` (a child of p) stands in is a choice: not an if's condition, not a
// conditional expression's test.
bool is_branch_of(Node p, Node child) {
  if (p.is(NodeKind::if_statement) || p.is(NodeKind::elif_clause)) return child != p.field(Field::condition);
  if (p.is(NodeKind::conditional_expression)) return child != p.named(1);
  return p.is(NodeKind::else_clause) || p.is(NodeKind::except_clause);
}

bool stops_structure(Node p) {
  return p.is(NodeKind::function_definition) || p.is(NodeKind::class_definition) || p.is(NodeKind::module) ||
         p.is(NodeKind::lambda);
}

bool reads_a_version(std::string_view text) {
  for (std::string_view w : {"version", "VERSION", "Version", "hasattr", "_GE_", "_LT_", "_GT_", "_LE_", "TORCH_",
                             "is_torch_", "packaging", "sys.version_info", "PY3", "PY2"}) {
    if (text.find(w) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

bool Analyzer::under_choice(Node at) const {
  Node child = at;
  for (Node p = at.parent(); p.valid() && !stops_structure(p); child = p, p = p.parent()) {
    if (is_branch_of(p, child)) return true;
  }
  return false;
}

Node Analyzer::branch_test(Node p) const {
  if (p.is(NodeKind::if_statement) || p.is(NodeKind::elif_clause)) return p.field(Field::condition);
  if (p.is(NodeKind::conditional_expression)) return p.named(1);
  // An else branch answers the if above it.
  if (p.is(NodeKind::else_clause) && p.parent().is(NodeKind::if_statement)) return p.parent().field(Field::condition);
  return Node();
}

bool Analyzer::under_version_guard(Node at) const {
  Node child = at;
  for (Node p = at.parent(); p.valid() && !stops_structure(p); child = p, p = p.parent()) {
    if (p.is(NodeKind::except_clause)) return true;
    if (!is_branch_of(p, child)) continue;
    Node test = branch_test(p);
    if (test.valid() && reads_a_version(test.text())) return true;
    if (p.is(NodeKind::elif_clause) || p.is(NodeKind::else_clause)) {
      // Any test of the chain: `if new: ... elif old: ...`.
      Node chain = p.parent();
      if (chain.is(NodeKind::if_statement) && reads_a_version(chain.field(Field::condition).text())) return true;
    }
  }
  return false;
}

bool Analyzer::runs_once_per_loop(Node at) const {
  bool in_loop = false;
  for (Node p = at.parent(); p.valid() && !p.is(NodeKind::module); p = p.parent()) {
    if (p.is(NodeKind::function_definition)) return p.field(Field::name).text() == "__init__";
    if (p.is(NodeKind::for_statement) || p.is(NodeKind::while_statement)) in_loop = true;
    if (in_loop || !p.is(NodeKind::if_statement)) continue;
    std::string_view cond = p.field(Field::condition).text();
    bool first_time = cond.find("== 0") != std::string_view::npos || cond.find("is None") != std::string_view::npos ||
                      cond.find("not in ") != std::string_view::npos || cond.starts_with("not ") ||
                      cond.find("init") != std::string_view::npos || cond.find("first") != std::string_view::npos;
    if (first_time) return true;
  }
  return false;
}

Descend Analyzer::enter(Node n) {
  switch (n.kind()) {
    case NodeKind::function_definition:
      enter_function(n);
      m_trained.emplace_back();
      break;
    case NodeKind::class_definition:
      m_classes.emplace_back(n.field(Field::name).text());
      m_class_nodes.push_back(n);
      m_class_names.insert(m_classes.back());
      m_self_model_marks.push_back(m_self_model_calls.size());
      break;
    case NodeKind::for_statement: enter_for(n); break;
    case NodeKind::while_statement:
      m_loops.push_back({n.start_byte(), n.row(), m_ff.step_loops.count(n.start_byte()) > 0, false, -1, "", -1, false});
      m_loop_index.push_back(-1);
      break;
    case NodeKind::if_statement: enter_if(n); break;
    case NodeKind::expression_statement: on_expression_statement(n); break;
    case NodeKind::call: on_call(n); break;
    case NodeKind::assert_statement:
    case NodeKind::raise_statement: collect_announced(n); break;
    case NodeKind::return_statement: on_return(n); break;
    case NodeKind::binary_operator:
    case NodeKind::comparison_operator: check_binary(n); break;
    case NodeKind::subscript: check_host_indexed_by_device(n); break;
    case NodeKind::attribute: check_is_available_not_called(n); break;
    case NodeKind::identifier: check_probe_function_not_called(n); break;
    case NodeKind::import_statement:
    case NodeKind::import_from_statement: return Descend::no;
    case NodeKind::conditional_expression:
      check_default_gpu_from_input(n);
      check_branch_host_factory(n);
      if (is_fallback_conditional(n)) {
        std::string name;
        for (Node p = n.parent(); p.valid() && !p.is(NodeKind::block) && !p.is(NodeKind::module); p = p.parent()) {
          if (p.is(NodeKind::assignment)) {
            name = std::string(p.field(Field::left).text());
            break;
          }
        }
        m_fallbacks.push_back({n, name});
      }
      break;
    default: break;
  }
  return Descend::yes;
}

void Analyzer::leave(Node n) {
  switch (n.kind()) {
    case NodeKind::class_definition:
      check_self_model_calls();
      check_class_model_unmoved();
      check_class_device_ignored();
      if (!m_classes.empty()) m_classes.pop_back();
      if (!m_class_nodes.empty()) m_class_nodes.pop_back();
      break;
    case NodeKind::function_definition:
      check_trained_together();
      if (!m_trained.empty()) m_trained.pop_back();
      if (m_scopes.size() > 1) m_scopes.pop_back();
      if (!m_functions.empty()) m_functions.pop_back();
      if (!m_function_nodes.empty()) m_function_nodes.pop_back();
      break;
    case NodeKind::for_statement:
    case NodeKind::while_statement:
      if (!m_loops.empty() && m_loops.back().start_byte == n.start_byte()) {
        // A loader feeds the GPU when the loop over it moves its batches or runs a model.
        const LoopState& done = m_loop_index.back() >= 0 ? m_all_loops[static_cast<std::size_t>(m_loop_index.back())] : m_loops.back();
        if (m_loops.back().loader >= 0 && m_ff.uses_device && (done.moved_row >= 0 || done.model_called || m_loops.back().model_called)) {
          m_loaders[static_cast<std::size_t>(m_loops.back().loader)].fed_gpu_loop = true;
        }
        if (m_loops.back().loader >= 0 && done.non_blocking) {
          m_loaders[static_cast<std::size_t>(m_loops.back().loader)].non_blocking_copies = true;
        }
        m_loops.pop_back();
        m_loop_index.pop_back();
      }
      break;
    case NodeKind::if_statement:
      if (contains_modulo(n.field(Field::condition))) --m_periodic_ifs;
      break;
    case NodeKind::assignment: on_assignment(n); break;
    case NodeKind::augmented_assignment: on_augmented_assignment(n); break;
    default: break;
  }
}

std::string_view Analyzer::function_name() const {
  return m_function_nodes.empty() ? std::string_view() : m_function_nodes.back().field(Field::name).text();
}

Node Analyzer::enclosing_class() const {
  if (m_function_nodes.empty()) return Node();
  Node cls = m_function_nodes.back().parent();
  if (cls.type() == "decorated_definition") cls = cls.parent();  // @torch.no_grad(), @staticmethod
  if (cls.is(NodeKind::block)) cls = cls.parent();
  return cls.is(NodeKind::class_definition) ? cls : Node();
}

bool Analyzer::in_module_method() const {
  if (m_classes.empty()) return false;
  Node cls = enclosing_class();
  return cls.valid() && m_ff.module_classes.count(std::string(cls.field(Field::name).text())) > 0;
}

bool Analyzer::in_forward() const {
  auto name = function_name();
  if (name == "forward") return true;
  // torch.autograd.Function's static forward/backward.
  return name == "backward" && !m_classes.empty();
}

void Analyzer::enter_function(Node n) {
  check_container_mover(n);
  m_functions.push_back(n.start_byte());
  m_function_nodes.push_back(n);
  if (n.field(Field::name).text() == "__init__") {
    m_self_moved_row = -1;
    m_self_move_reported = false;
  }
  Scope s;
  s.is_function = true;
  Node params = n.field(Field::arguments);  // "parameters" is not a field we map; fall back below
  if (!params.valid()) params = n.field(Field::parameters);
  for (std::uint32_t i = 0; params.valid() && i < params.named_count(); ++i) {
    Node p = params.named(i);
    Node name = p.is(NodeKind::identifier) ? p : p.field(Field::name);
    if (!name.is(NodeKind::identifier)) name = p.named_count() > 0 ? p.named(0) : Node();
    if (!name.is(NodeKind::identifier)) continue;
    Symbol sym;
    sym.is_parameter = true;
    sym.row = name.row();
    sym.column = name.column();
    // `n: int`, `scale=10.0`, `name: str = "x"`: no tensor, so no device to follow.
    std::string_view ptext = p.text();
    auto colon = ptext.find(':');
    auto eq = ptext.find('=');
    if (colon != std::string_view::npos) {
      auto type = util::trim(ptext.substr(colon + 1, eq == std::string_view::npos ? std::string_view::npos : eq - colon - 1));
      sym.scalar = type == "int" || type == "float" || type == "bool" || type == "str";
    }
    if (eq != std::string_view::npos && !sym.scalar) {
      auto def = util::trim(ptext.substr(eq + 1));
      sym.scalar = !def.empty() && (std::isdigit(static_cast<unsigned char>(def[0])) != 0 || def[0] == '"' || def[0] == '\'' ||
                                    def == "True" || def == "False" || (def[0] == '-' && def.size() > 1));
    }
    s.symbols[std::string(name.text())] = sym;
    if (m_classes.empty() && m_function_nodes.size() == 1 && m_plain_params.size() < 4096) {
      m_plain_params[std::string(n.field(Field::name).text())].emplace_back(name.text());
    }
  }
  m_scopes.push_back(std::move(s));
}

void Analyzer::enter_if(Node n) {
  Node cond = n.field(Field::condition);
  if (contains_modulo(cond)) ++m_periodic_ifs;
  check_one_branch_moved(n);
  check_branch_host_factory(n);
  // The statement form of the fallback: if torch.cuda.is_available(): device = "cuda" else: device = "cpu"
  if (!is_fallback_conditional(cond)) return;
  Node alt = n.field(Field::alternative);
  if (!alt.is(NodeKind::else_clause)) return;
  Node body = alt.field(Field::body);
  for (std::uint32_t i = 0; body.valid() && i < body.named_count(); ++i) {
    Node st = body.named(i);
    Node as = st.is(NodeKind::expression_statement) && st.named_count() == 1 ? st.named(0) : Node();
    if (as.is(NodeKind::assignment) && is_cpu_device(as.field(Field::right))) {
      m_fallbacks.push_back({n, std::string(as.field(Field::left).text())});
      return;
    }
  }
}

void Analyzer::bind_batch(Node name, int loop) {
  Symbol b;
  b.kind = Kind::batch;
  b.placement = Placement::host;
  b.row = name.row();
  b.column = name.column();
  b.loop = loop;
  scope_for(name.text()).symbols[std::string(name.text())] = b;
}

void Analyzer::enter_for(Node n) {
  LoopState loop{n.start_byte(), n.row(), m_ff.step_loops.count(n.start_byte()) > 0, false, -1, "", -1, false};
  Node left = n.field(Field::left), iter = n.field(Field::right);
  bool enumerated = false;
  for (int guard = 0; guard < 4 && iter.is(NodeKind::call); ++guard) {
    std::string callee = qualified_callee(iter);
    if (!is_passthrough_wrapper(callee)) break;
    enumerated = enumerated || last_component(callee) == "enumerate";
    Node first = positional(iter, 0);
    if (!first.valid()) break;
    iter = first;
  }
  loop.source = snippet(iter, 40);
  Symbol src = infer(iter);
  bool from_loader = src.kind == Kind::dataloader;
  if (from_loader && src.loader >= 0) {
    auto& rec = m_loaders[static_cast<std::size_t>(src.loader)];
    loop.loader = src.loader;
    if (rec.collate || rec.opaque) from_loader = false;  // batches may already be on the device
  }
  // A training step loop over something we cannot type (a function parameter `loader`) still
  // yields batches; a range() or a literal does not.
  const Symbol* bound = (iter.is(NodeKind::identifier) || iter.is(NodeKind::attribute)) ? lookup(iter.text()) : nullptr;
  // So does any loop over a name that says it is a loader (`val_loader`, `self.test_dataloader`).
  // And a loop over what a training step loop of the file iterates (`for batch in batches:` in
  // both an evaluation function and the training one).
  bool named_loader = names_a_loader(iter.text());
  if (!named_loader && !loop.step && !m_function_nodes.empty() &&
      (iter.is(NodeKind::identifier) || iter.is(NodeKind::attribute)) &&
      m_ff.step_loop_sources.count(std::string(iter.text())) > 0) {
    named_loader = true;
    loop.same_source_function = std::string(function_name());
  }
  // `loaders["train"]`, `self.dataloaders[phase]`: one of a dict of loaders.
  const bool loader_entry = iter.is(NodeKind::subscript) && names_a_loader(iter.field(Field::value).text());
  named_loader = named_loader || loader_entry;
  bool untyped_step_source = (loop.step || named_loader) && src.kind == Kind::unknown &&
                             (iter.is(NodeKind::identifier) || iter.is(NodeKind::attribute) || loader_entry) &&
                             (bound == nullptr || bound->is_parameter || named_loader);
  loop.binds_batches = from_loader || untyped_step_source;
  int index = -1;
  if (loop.binds_batches) {
    index = static_cast<int>(m_all_loops.size());
    m_all_loops.push_back(loop);
    std::vector<Node> targets;
    if (left.is(NodeKind::pattern_list) || left.is(NodeKind::tuple_pattern)) {
      for (std::uint32_t i = enumerated ? 1 : 0; i < left.named_count(); ++i) targets.push_back(left.named(i));
    } else if (!enumerated) {
      targets.push_back(left);
    }
    for (std::size_t k = 0; k < targets.size(); ++k) {
      Node t = targets[k];
      if (t.is(NodeKind::tuple_pattern) || t.is(NodeKind::pattern_list)) {
        for (std::uint32_t i = 0; i < t.named_count(); ++i) targets.push_back(t.named(i));
        continue;
      }
      if (t.is(NodeKind::identifier)) bind_batch(t, index);
    }
  }
  // `for p, t in zip(preds, targets)`: values drawn from the function's inputs follow their device.
  if (!loop.binds_batches && !m_function_nodes.empty() && mentions_parameter(n.field(Field::right))) {
    std::vector<Node> names{left};
    for (std::size_t k = 0; k < names.size() && k < 16; ++k) {
      Node t = names[k];
      if (t.is(NodeKind::pattern_list) || t.is(NodeKind::tuple_pattern)) {
        for (std::uint32_t i = 0; i < t.named_count(); ++i) names.push_back(t.named(i));
      } else if (t.is(NodeKind::identifier)) {
        Symbol v;
        v.from_param = true;
        v.row = t.row();
        v.column = t.column();
        scope_for(t.text()).symbols[std::string(t.text())] = v;
      }
    }
  }
  m_loops.push_back(loop);
  m_loop_index.push_back(index);
}

void Analyzer::bind(Node target, Symbol value, Node at) {
  if (!target.is(NodeKind::identifier) && !target.is(NodeKind::attribute)) return;
  std::string name(target.text());
  if (value.row < 0 || value.kind == Kind::unknown || value.kind == Kind::device) {
    value.row = at.row();
    value.column = at.column();
  }
  // The model a finding names: the first module bound outside `self.` (a layer in __init__ is not
  // the model being trained), else the first module at all.
  bool self_attr = name.substr(0, 5) == "self.";
  // A CPU device bound in a branch is one of the choices the program offers (`if args.cpu:`, the
  // else of a device test), not a pin: the device is unknown.
  if (value.kind == Kind::device && value.cpu_device && under_choice(at)) {
    value.cpu_device = false;
    value.placement = Placement::unknown;
  }
  // `device = get_device()` then `device = torch.device("cpu")` in the same scope, unconditionally: a
  // debugging pin left behind overrides the choice.
  if (value.kind == Kind::device && value.cpu_device && target.is(NodeKind::identifier)) {
    auto& symbols = scope_for(name).symbols;
    auto old = symbols.find(name);
    // A comment beside it that speaks of the CPU explains a choice ("# use CPU for the first run").
    std::size_t bol = m_src.text.rfind('\n', at.start_byte());
    std::size_t prev = bol == std::string::npos || bol == 0 ? std::string::npos : m_src.text.rfind('\n', bol - 1);
    std::size_t from = prev == std::string::npos ? 0 : prev + 1;
    std::size_t eol = m_src.text.find('\n', at.start_byte());
    std::string_view around = std::string_view(m_src.text).substr(from, (eol == std::string::npos ? m_src.text.size() : eol) - from);
    auto hash = around.find('#');
    // As words: an identifier in a comment (`# see force_cpu`) explains nothing.
    auto word_in = [](std::string_view text, std::string_view w) {
      for (std::size_t i = 0; i + w.size() <= text.size(); ++i) {
        if (!util::contains_icase(text.substr(i, w.size()), w)) continue;
        auto word_char = [&](std::size_t k) {
          return k < text.size() && (std::isalnum(static_cast<unsigned char>(text[k])) != 0 || text[k] == '_');
        };
        if ((i == 0 || !word_char(i - 1)) && !word_char(i + w.size())) return true;
      }
      return false;
    };
    bool explained = false;
    if (hash != std::string_view::npos) {
      auto comment = around.substr(hash);
      explained = word_in(comment, "cpu") || word_in(comment, "gpu") || word_in(comment, "cuda");
    }
    if (!explained && old != symbols.end() && old->second.device_choice && old->second.row >= 0 &&
        old->second.row < static_cast<int>(at.row())) {
      value.reported = true;  // one finding: this one
      emit(RuleId::hardcoded_cpu, at,
           fmt::format("`{}` is chosen at {} and overwritten here with the CPU: everything placed on `{}` runs on the "
                       "CPU, whatever the machine has",
                       name, where(old->second.row), name),
           {snippet(at.parent(), 80)}, fmt::format("Remove this line, or make it an option (--cpu)"));
    }
  }
  // `self.encoder = ...` in an nn.Module subclass is a submodule: the parent's .to() moves it.
  if (self_attr && !m_classes.empty() && m_ff.module_classes.count(m_classes.back())) value.submodule = true;
  if (value.kind == Kind::module && !value.is_loss && (m_first_module_row < 0 || (m_first_module_is_self && !self_attr))) {
    m_first_module_row = at.row();
    m_first_module = at;
    m_first_module_name = name;
    m_first_module_is_self = self_attr;
  }
  if ((value.kind == Kind::module || value.kind == Kind::hf_model) && value.placement == Placement::accelerator) {
    m_module_on_accelerator = true;
  }
  scope_for(name).symbols[name] = value;
}

void Analyzer::bind_pattern(Node pattern, const std::vector<Symbol>& values) {
  std::uint32_t n = pattern.named_count();
  for (std::uint32_t i = 0; i < n; ++i) {
    Node t = pattern.named(i);
    bind(t, values.size() == n ? values[i] : Symbol{}, t);
  }
}

void Analyzer::on_augmented_assignment(Node n) {
  Node left = n.field(Field::left), right = n.field(Field::right);
  if (left.valid() && right.valid()) check_accumulator(left, right, n);
}

void Analyzer::on_assignment(Node n) {
  Node left = n.field(Field::left), right = n.field(Field::right);
  if (!left.valid()) return;
  if (left.is(NodeKind::subscript)) {
    if (right.valid()) check_accumulator(left, right, n);
    if (right.valid()) check_store_into_plain_container(left, right);
    // `history[i] = loss.data` into a NumPy array: NumPy reads the value through np.asarray.
    if (Node array = left.field(Field::value);
        right.valid() && (array.is(NodeKind::identifier) || (array.is(NodeKind::attribute) && array.text().starts_with("self."))) &&
        numpy_array_here(array.text())) {
      check_numpy_of_device_tensor(n, right);
    }
    std::string obj = m_ff.imports.qualify(left.field(Field::value).text());
    Node key = left.field(Field::subscript);
    auto var = string_value(key);
    if ((obj == "os.environ") && var && right.valid()) check_env_assignment(*var, right, n);
    // `out["input_ids"] = torch.tensor(ids)` into a dict made here: the dict carries host tensors, as
    // a tokenizer's output does.
    if (right.valid() && left.field(Field::value).is(NodeKind::identifier)) {
      if (Symbol* d = lookup(left.field(Field::value).text()); d != nullptr && d->dict_literal) {
        Symbol v = infer(right);
        if (v.made_on_host() && (v.sized || !v.maybe_number) && !v.zero_dim) d->holds_host_tensors = true;
      }
    }
    return;
  }
  if (right.valid() && left.is(NodeKind::attribute)) check_lazy_cache_attribute(left, right);
  if (!right.valid()) {
    bind(left, Symbol{}, left);  // annotated declaration without a value
    return;
  }
  check_forward_input_to_host(left, right);
  // `params.requires_grad = True`: a leaf the optimizer will train.
  if (left.is(NodeKind::attribute) && left.field(Field::attribute).text() == "requires_grad" && right.is(NodeKind::true_)) {
    check_trainable_on_host(left.field(Field::object), n);
  }
  // `x, y = next(iter(valid_loader))`: one batch, bound like a loop's.
  if ((left.is(NodeKind::pattern_list) || left.is(NodeKind::tuple_pattern) || left.is(NodeKind::identifier)) &&
      right.is(NodeKind::call) && qualified_callee(right) == "next") {
    Node src = positional(right, 0);
    if (src.is(NodeKind::call) && qualified_callee(src) == "iter") src = positional(src, 0);
    if (src.valid() && (names_a_loader(src.text()) || infer(src).kind == Kind::dataloader)) {
      LoopState one{right.start_byte(), right.row(), false, true, -1, snippet(src, 40), -1, false};
      int index = static_cast<int>(m_all_loops.size());
      m_all_loops.push_back(one);
      std::vector<Node> targets;
      if (left.is(NodeKind::identifier)) targets.push_back(left);
      for (std::uint32_t i = 0; !left.is(NodeKind::identifier) && i < left.named_count(); ++i) targets.push_back(left.named(i));
      for (Node t : targets) {
        if (t.is(NodeKind::identifier)) bind_batch(t, index);
      }
      check_hand_fetched_batch(left, src);
      return;
    }
  }
  if (left.is(NodeKind::pattern_list) || left.is(NodeKind::tuple_pattern)) {
    // `xb, yb = batch` in a loop over a loader: the parts are the batch's, bound like the loop's own
    // targets (`for xb, yb in loader`).
    if (right.is(NodeKind::identifier)) {
      const Symbol* whole = lookup(right.text());
      if (whole != nullptr && whole->kind == Kind::batch && whole->loop >= 0 && !whole->reported) {
        const int loop = whole->loop;
        for (std::uint32_t i = 0; i < left.named_count(); ++i) {
          if (left.named(i).is(NodeKind::identifier)) bind_batch(left.named(i), loop);
        }
        return;
      }
    }
    std::vector<Symbol> values;
    if (right.is(NodeKind::expression_list) || right.is(NodeKind::tuple)) {
      for (std::uint32_t i = 0; i < right.named_count(); ++i) {
        values.push_back(infer(right.named(i)));
        values.back().model_output = from_model_output(right.named(i));
      }
      // `self.model, self.tok = model, tokenizer`
      for (std::uint32_t i = 0; i < right.named_count() && i < left.named_count(); ++i) {
        if (!left.named(i).is(NodeKind::attribute)) continue;
        note_handed_module(left.named(i), right.named(i));
        // `self.mean, self.std = mean, std`: each attribute as if assigned alone.
        check_module_attribute(left.named(i), right.named(i), values[i]);
      }
    }
    bind_pattern(left, values);
    return;
  }
  Symbol value = infer(right);
  value.model_output = from_model_output(right);
  // `envs = VecEnv(...)`: an instance of a plain class of this file, whose methods' returns are known.
  if (value.kind == Kind::unknown && right.is(NodeKind::call) && right.field(Field::function).is(NodeKind::identifier)) {
    std::string cls(right.field(Field::function).text());
    if (m_class_names.count(cls) > 0 && m_ff.module_classes.count(cls) == 0) {
      auto at = std::find(m_instance_classes.begin(), m_instance_classes.end(), cls);
      if (at == m_instance_classes.end()) at = m_instance_classes.insert(m_instance_classes.end(), cls);
      value.instance_of = static_cast<int>(at - m_instance_classes.begin());
    }
  }
  // `ids = [[vocab[w] for w in s] for s in batch]`: a list, so torch.tensor(ids) is data, not a number.
  if (value.kind == Kind::unknown && (right.is(NodeKind::list) || right.is(NodeKind::list_comprehension))) value.sequence = true;
  if (value.kind == Kind::unknown && (right.is(NodeKind::dictionary) ||
                                      (right.is(NodeKind::call) && right.field(Field::function).text() == "dict" &&
                                       right.field(Field::arguments).named_count() == 0))) {
    value.dict_literal = true;
  }

  // `s = self.states[idx][-n:]`: a slice is data (an element, `models[0]`, may be a model).
  if (value.kind == Kind::unknown && right.is(NodeKind::subscript) &&
      right.text().substr(right.field(Field::value).text().size()).find(':') != std::string_view::npos) {
    value.from_subscript = true;
  }
  if ((value.kind == Kind::device && !value.cpu_device && value.placement == Placement::accelerator) ||
      (right.is(NodeKind::call) && util::contains_icase(last_component(right.field(Field::function).text()), "device") &&
       !is_cpu_device(right))) {
    value.device_choice = true;
  }
  if (!m_function_nodes.empty() && value.kind != Kind::module && mentions_parameter(right)) {
    value.from_param = true;
    value.from_shape = mentions_input_shape(right);
  }
  if (left.is(NodeKind::identifier)) note_constant_binding(left, right, value);
  if (left.is(NodeKind::attribute)) {
    check_module_attribute(left, right, value);
    note_handed_module(left, right);
    check_submodule_swapped_after_move(n, left, right, value);
  }
  check_model_beside_unused_device(left, right, value);
  // A batch rebound from a device move: the loop that bound it now moves (part of) its batch.
  Symbol* old = lookup(left.text());
  check_rebound_to_host(left, right, old, value);
  // `batch = to_device(batch, device)`: a helper given the batch and a device moves it.
  const std::string_view handed = right.is(NodeKind::call) ? right.field(Field::arguments).text() : std::string_view();
  const bool moved_by_helper = old != nullptr && old->kind == Kind::batch &&
                               handed.find("device") != std::string_view::npos &&
                               handed.find(left.text()) != std::string_view::npos;
  if (old != nullptr && old->kind == Kind::batch && (value.placement == Placement::accelerator || moved_by_helper) &&
      old->loop >= 0) {
    m_all_loops[static_cast<std::size_t>(old->loop)].moved_row = n.row();
  }
  bind(left, value, left);
}

void Analyzer::on_expression_statement(Node n) {
  // In a notebook, a cell's last expression is displayed: `device` alone shows which device was
  // chosen, `y.cpu()` shows the values (nothing is thrown away).
  bool displayed = false;
  if (!m_src.cells.empty() && n.parent().is(NodeKind::module)) {
    Node next = n.next_named();
    displayed = !next.valid() || m_src.locate(next.row(), 0).cell != m_src.locate(n.row(), 0).cell;
    if (n.named_count() == 1 && (n.named(0).is(NodeKind::identifier) || n.named(0).is(NodeKind::attribute))) {
      m_announced.insert(std::string(n.named(0).text()));
    }
  }
  if (displayed || n.named_count() != 1 || !n.named(0).is(NodeKind::call)) return;
  Node call = n.named(0);
  Node fn = call.field(Field::function);
  if (!fn.is(NodeKind::attribute)) return;
  std::string_view method = fn.field(Field::attribute).text();
  if (method != "to" && method != "cuda" && method != "cpu") return;
  Node object = fn.field(Field::object);
  // Only a name can be believed moved; `torch.ones(1).cuda()` alone is done for its effect (CUDA init).
  // `batch[0].cuda()` names an element of a batch.
  Node named = object;
  if (object.is(NodeKind::subscript)) named = object.field(Field::value);
  if (!named.is(NodeKind::identifier) && !named.is(NodeKind::attribute)) return;
  Symbol obj = infer(named);
  // `enc["input_ids"].to(device)`: an encoding's or a dict's entry under a tensor's key is a tensor,
  // and the dict keeps the unmoved one.
  bool tensor_key = false;
  if (object.is(NodeKind::subscript)) {
    Node key = object.field(Field::subscript);
    if (auto k = string_value(key)) {
      for (std::string_view t : {"input_ids", "attention_mask", "token_type_ids", "position_ids", "pixel_values",
                                 "input_features", "input_values", "decoder_input_ids", "labels", "images", "image",
                                 "mask", "masks", "target", "targets", "label"}) {
        tensor_key = tensor_key || *k == t;
      }
    }
  }
  if (object.is(NodeKind::subscript) && obj.kind != Kind::batch && !tensor_key) return;
  // A parameter or a loop variable whose name says it is a tensor (`x`, `images`, `labels`): a
  // module would be named otherwise, and a BatchEncoding (`inputs`, `batch`) moves in place.
  bool tensor_name = false;
  if (object.is(NodeKind::identifier) && obj.kind == Kind::unknown) {
    for (std::string_view t : {"x", "y", "X", "Y", "images", "image", "imgs", "img", "labels", "label", "targets",
                               "target", "features", "feats", "tensor", "mask", "masks", "logits", "preds", "z", "t",
                               "inp", "input", "src", "tgt", "input_ids", "attention_mask", "seq", "ids"}) {
      tensor_name = tensor_name || object.text() == t;
    }
  }
  if (object.is(NodeKind::identifier) && obj.kind == Kind::unknown && obj.from_subscript) tensor_name = true;
  // Last bound to what a tensor method gave (`spect = spect.view(1, 1, f, t)`): modules have no view().
  if (object.is(NodeKind::identifier) && obj.kind == Kind::unknown && !tensor_name) {
    tensor_name = bound_by_tensor_method(object.text(), n);
  }
  // An object of a class of this file whose cpu()/cuda()/to() returns a copy (a container of tensors).
  std::string copying_class;
  if (object.is(NodeKind::identifier) && obj.kind == Kind::unknown && !m_ff.copying_movers.empty()) {
    copying_class = constructed_class(object.text(), n);
    if (!m_ff.copying_movers.contains(copying_class)) copying_class.clear();
  }
  if (!copying_class.empty()) {
    emit(RuleId::to_result_discarded, call,
         fmt::format("`{}` is a {}, whose {}() returns a moved copy: as a statement the result is thrown away and `{}` "
                     "stays where it was",
                     snippet(object, 30), copying_class, method, snippet(object, 30)),
         {fmt::format("{}.{}() ends by returning a new object, not self", copying_class, method)},
         fmt::format("{} = {}", snippet(object, 30), snippet(call, 50)));
    return;
  }
  if (obj.kind != Kind::tensor && obj.kind != Kind::batch && !tensor_name && !tensor_key) return;
  if (method == "to" && !moves_to_accelerator(call, method) && !is_cpu_device(positional(call, 0))) return;
  // A cast (`x.to(orig_dtype)`, `x.to(dtype=...)`): a lost result, but no device is involved.
  if (const std::string_view args = call.field(Field::arguments).text();
      method == "to" && obj.kind != Kind::tensor && util::contains(args, "dtype") && !util::contains(args, "device")) {
    return;
  }
  emit(RuleId::to_result_discarded, call,
       fmt::format("`{}` is a tensor and Tensor.{}() returns a moved copy: as a statement the result is thrown away "
                   "and `{}` stays where it was",
                   snippet(object, 30), method, snippet(object, 30)),
       {obj.row >= 0 ? fmt::format("`{}` holds a tensor (bound at {})", snippet(object, 30), where(obj.row))
                     : fmt::format("`{}` is named as a tensor", snippet(object, 30))},
       fmt::format("{} = {}", snippet(object, 30), snippet(call, 50)));
}

bool Analyzer::bound_by_tensor_method(std::string_view name, Node before) const {
  // The last `name = ...` in the enclosing function before `before`, and whether it calls a method only
  // tensors have (view, reshape, contiguous, unsqueeze, ...).
  if (m_function_nodes.empty()) return false;
  Node scope = m_function_nodes.back();
  std::string_view text = scope.text();
  const std::size_t base = scope.start_byte();
  if (before.start_byte() < base) return false;
  text = text.substr(0, std::min<std::size_t>(text.size(), before.start_byte() - base));
  RE2::Options options;
  options.set_log_errors(false);
  const RE2 assignment("(?m)^[ \\t]*" + RE2::QuoteMeta(std::string(name)) + "[ \\t]*=[ \\t]*([^\\n]*)$", options);
  if (!assignment.ok()) return false;
  re2::StringPiece input(text.data(), text.size());
  std::string right, last;
  while (RE2::FindAndConsume(&input, assignment, &right)) last = right;
  // The outermost call of the value: the method of its last parenthesised call (`a.b(c).view(1, d(2))`).
  std::string_view value = util::trim(last);
  if (value.empty() || value.front() == '=' || value.back() != ')') return false;
  int depth = 0;
  std::size_t open = value.size();
  while (open-- > 0) {
    if (value[open] == ')') ++depth;
    if (value[open] == '(' && --depth == 0) break;
  }
  if (depth != 0 || open == std::string_view::npos) return false;
  std::size_t begin = open;
  while (begin > 0 && (std::isalnum(static_cast<unsigned char>(value[begin - 1])) != 0 || value[begin - 1] == '_')) --begin;
  if (begin == 0 || value[begin - 1] != '.') return false;
  const std::string_view method = value.substr(begin, open - begin);
  for (std::string_view m : {"view", "reshape", "contiguous", "unsqueeze", "squeeze", "permute", "transpose", "narrow",
                             "expand", "repeat", "clone", "detach"}) {
    if (method == m) return true;
  }
  return false;
}

std::string Analyzer::constructed_class(std::string_view name, Node before) const {
  // The last `name = Cls(...)` in the enclosing function (or the module) before `before`.
  Node scope = m_function_nodes.empty() ? Node() : m_function_nodes.back();
  std::string_view text = scope.valid() ? scope.text() : m_src.text;
  const std::size_t base = scope.valid() ? scope.start_byte() : 0;
  if (before.start_byte() < base) return {};
  text = text.substr(0, std::min<std::size_t>(text.size(), before.start_byte() - base));
  RE2::Options options;
  options.set_log_errors(false);  // a name that is no valid UTF-8 makes no pattern: nothing to say
  const RE2 assignment("(?m)^\\s*" + RE2::QuoteMeta(std::string(name)) + "\\s*=\\s*([A-Za-z_][A-Za-z_0-9]*)\\(",
                       options);
  if (!assignment.ok()) return {};
  re2::StringPiece input(text.data(), text.size());
  std::string cls, last;
  while (RE2::FindAndConsume(&input, assignment, &cls)) last = cls;
  return last;
}

void Analyzer::check_env_assignment(std::string_view var, Node value, Node at) {
  auto v = string_value(value);
  if (var == "JAX_PLATFORMS" || var == "JAX_PLATFORM_NAME") {
    if (v && (*v == "cpu") && !under_choice(at)) {
      emit(RuleId::hardcoded_cpu, at, fmt::format("{}=\"cpu\" makes JAX run on the CPU even when a GPU is there", var),
           {snippet(at)}, fmt::format("Remove it; in GPU jobs set {}=cuda so a broken CUDA backend is an error", var));
    }
    return;
  }
  if (var != "CUDA_VISIBLE_DEVICES") return;
  if (v && (v->empty() || *v == "-1")) {
    // Under a test (`if args.device == "cpu":`) hiding the GPUs is the user's own choice.
    if (under_choice(at)) return;
    emit(RuleId::visible_devices_after_init, at,
         fmt::format("CUDA_VISIBLE_DEVICES=\"{}\" hides every GPU from this process: torch.cuda.is_available() is "
                     "False and the run falls back to the CPU",
                     *v),
         {snippet(at)});
    return;
  }
  const Scope& here = m_scopes.back();
  int touched = here.cuda_touch_row >= 0 ? here.cuda_touch_row : m_scopes.front().cuda_touch_row;
  if (here.is_function && here.cuda_touch_row < 0) touched = -1;  // module-level code ran earlier, maybe not
  if (touched >= 0 && touched < at.row()) {
    emit(RuleId::visible_devices_after_init, at,
         fmt::format("CUDA_VISIBLE_DEVICES is set after CUDA was initialised at {}: the device list is fixed by then "
                     "and the assignment has no effect",
                     where(touched)),
         {fmt::format("CUDA first touched at {}", where(touched)), snippet(at)});
  }
}

void Analyzer::check_env_magic(const Magic& m) {
  // `%env CUDA_VISIBLE_DEVICES=1` or `%env CUDA_VISIBLE_DEVICES 1`
  constexpr std::string_view k_var = "CUDA_VISIBLE_DEVICES";
  auto pos = m.text.find(k_var);
  if (pos == std::string::npos) return;
  std::string_view value = std::string_view(m.text).substr(pos + k_var.size());
  while (!value.empty() && (value.front() == ' ' || value.front() == '=')) value.remove_prefix(1);
  if (auto hash = value.find(" #"); hash != std::string_view::npos) value = value.substr(0, hash);
  value = util::trim(value);
  if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'')) value = value.substr(1, value.size() - 2);
  int touched = m_scopes.front().cuda_touch_row;
  std::string message;
  if (value == "-1" || value.empty()) {
    message = fmt::format("%env CUDA_VISIBLE_DEVICES={} hides every GPU from the kernel", value);
  } else if (touched >= 0 && touched < m.row) {
    message = fmt::format(
        "%env CUDA_VISIBLE_DEVICES is set after CUDA was initialised at {}: the kernel keeps the device list it "
        "started with (restart the kernel and set it first)",
        where(touched));
  } else {
    return;
  }
  emit_at(RuleId::visible_devices_after_init, m.row, 0, message, {m.text}, {});
}

// `device = "cuda" if torch.cuda.is_available else "cpu"`: the function itself, not its answer, is
// tested, and a function is always true, so every machine takes the GPU branch.
void Analyzer::check_is_available_not_called(Node attribute) {
  if (attribute.field(Field::attribute).text() != "is_available") return;
  const std::string_view owner = attribute.field(Field::object).text();
  if (!owner.ends_with("cuda") && !owner.ends_with("mps") && !owner.ends_with("xpu")) return;
  report_function_tested(attribute);
}

// `if has_mps:` with `def has_mps():` at the top of this file: the probe itself, not its answer.
void Analyzer::check_probe_function_not_called(Node identifier) {
  Node up = identifier.parent();
  // Only where it could be a truth value: the test of a branch, or under not / and / or. Most names
  // are elsewhere, so this is asked first.
  if (!up.valid() || !(up.is(NodeKind::not_operator) || up.is(NodeKind::boolean_operator) ||
                       up.is(NodeKind::parenthesized_expression) || up.is(NodeKind::if_statement) ||
                       up.is(NodeKind::elif_clause) || up.is(NodeKind::while_statement) ||
                       up.is(NodeKind::conditional_expression) || up.is(NodeKind::assert_statement))) {
    return;
  }
  const std::string_view name = identifier.text();
  if (name.size() > 64) return;
  static const RE2 k_probe(R"re((?i)cuda|gpu|mps|xpu|avail|accel)re");
  if (!RE2::PartialMatch(name, k_probe)) return;
  auto [it, fresh] = m_probe_functions.try_emplace(std::string(name), false);
  if (fresh) {
    // A function defined at the top of the file, and the name never bound to anything else.
    const std::string_view text = m_src.text;
    const std::string def = "def " + std::string(name) + "(";
    const bool defined = text.starts_with(def) || text.find("\n" + def) != std::string_view::npos;
    bool rebound = false;
    util::for_each_name_use(text, name, [&](std::string_view rest) {
      std::size_t i = 0;
      while (i < rest.size() && rest[i] == ' ') ++i;
      if (rest.substr(i).starts_with("=") && !rest.substr(i).starts_with("==")) rebound = true;
      if (rest.substr(i).starts_with(":=") || rest.substr(i).starts_with(",")) rebound = true;
    });
    rebound = rebound || text.find("global " + std::string(name)) != std::string_view::npos ||
              text.find("import " + std::string(name)) != std::string_view::npos ||
              text.find(" as " + std::string(name)) != std::string_view::npos;
    it->second = defined && !rebound;
  }
  if (!it->second) return;
  report_function_tested(identifier);
}

void Analyzer::report_function_tested(Node function) {
  Node child = function;
  Node up = function.parent();
  bool in_logic = false;  // under not / and / or: the function object is used as a truth value
  for (int guard = 0; guard < 8 && up.valid() &&
                      (up.is(NodeKind::parenthesized_expression) || up.is(NodeKind::not_operator) ||
                       up.is(NodeKind::boolean_operator));
       ++guard) {
    in_logic = in_logic || !up.is(NodeKind::parenthesized_expression);
    child = up;
    up = up.parent();
  }
  const Node test = up.is(NodeKind::while_statement) ? up.field(Field::condition) : branch_test(up);
  const bool tested = in_logic || up.is(NodeKind::assert_statement) || (test.valid() && test == child);
  if (!tested) return;
  emit(RuleId::is_available_not_called, function,
       fmt::format("`{}` is not called: a function object is always true, so this test takes the GPU branch on every "
                   "machine, and the code fails where there is no GPU",
                   function.text()),
       {snippet(up.valid() ? up : function, 80)}, fmt::format("{}()", function.text()));
}

}  // namespace gpudoctor::scan
