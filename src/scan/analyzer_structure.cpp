// The rules about a module's structure (what __init__ registers, what forward() builds) and about
// where tensors made inside functions live: the device bugs that projects' issue threads report
// most (tests/scan/real_bugs/). Each is read at its statement in program order, like the others.
#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include <scan/analyzer_impl.hpp>
#include <util/text.hpp>

namespace gpudoctor::scan {
namespace {

// torch.nn layers that hold parameters or buffers: built in forward(), they are new and on the CPU
// at every call. Stateless ones (ReLU, Dropout, pooling, losses) are harmless there.
bool has_weights(std::string_view layer) {
  for (std::string_view p : {"Linear", "Bilinear", "LazyLinear", "Conv", "LazyConv", "BatchNorm", "LazyBatchNorm",
                             "SyncBatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm", "LazyInstanceNorm", "RMSNorm",
                             "Embedding", "LSTM", "GRU", "RNN", "MultiheadAttention", "Transformer", "PReLU"}) {
    if (layer.starts_with(p)) return true;
  }
  return false;
}

// Factories that make a tensor from sizes (not from data): where it lands is only what device= says.
bool sized_factory(std::string_view name) {
  for (std::string_view f : {"zeros", "ones", "empty", "full", "rand", "randn", "randint", "arange", "linspace", "eye",
                             "randperm", "normal", "FloatTensor", "LongTensor", "Tensor", "ByteTensor", "BoolTensor",
                             "IntTensor", "DoubleTensor", "HalfTensor", "logspace", "triu_indices", "tril_indices",
                             "hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"}) {
    if (name == f) return true;
  }
  return false;
}

// Functions whose tensors are meant for the host: a Dataset's items, a collate function, weight
// initialisation, data preparation.
bool host_side_function(std::string_view name, std::string_view cls) {
  // init_hidden / init_state build what the module runs on at every step, not its weights.
  bool run_state = name.find("hidden") != std::string_view::npos || name.find("state") != std::string_view::npos ||
                   name.find("memory") != std::string_view::npos || name.find("cache") != std::string_view::npos;
  if (run_state && name.find("state_dict") == std::string_view::npos) return false;
  for (std::string_view w : {"getitem", "collate", "__len__", "init", "reset_parameters", "load", "prepare", "preprocess",
                             "transform", "augment", "__iter__", "__next__", "sample", "make_dataset", "build_dataset",
                             "register", "schedule", "setup", "checkpoint", "convert", "filter", "state_dict"}) {
    if (name.find(w) != std::string_view::npos) return true;
  }
  return host_side_class(cls);
}

// The name of the def nearest above byte `at` of `text`: the method a line is in (methods are not
// nested in the modules the rules judge). "" when none is.
std::string_view def_name_above(std::string_view text, std::size_t at) {
  for (std::size_t d = text.rfind("def ", at); d != std::string_view::npos; d = d == 0 ? std::string_view::npos : text.rfind("def ", d - 1)) {
    if (d > 0 && text[d - 1] != ' ' && text[d - 1] != '\t' && text[d - 1] != '\n') continue;
    std::size_t b = d + 4, e = b;
    while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) != 0 || text[e] == '_')) ++e;
    return text.substr(b, e - b);
  }
  return {};
}

}  // namespace

bool Analyzer::unplaced_sized_factory(Node call, std::string_view q) const {
  if (!is_torch_function(q) || keyword(call, "device").valid() || has_splat(call)) return false;
  if (sized_factory(last_component(q))) return true;
  // torch.tensor(range(n)), torch.tensor([a, b, c]), torch.as_tensor(list(...)): a sequence made a
  // tensor is 1-D or more, and unlike a 0-d scalar it does not mix with a GPU tensor.
  auto name = last_component(q);
  if (name != "tensor" && name != "as_tensor") return false;
  Node args = call.field(Field::arguments);
  Node first = args.valid() && args.named_count() > 0 ? args.named(0) : Node();
  if (first.is(NodeKind::list)) return first.named_count() >= 2;
  if (first.type() == "list_comprehension") return true;
  if (first.is(NodeKind::call)) {
    auto f = first.field(Field::function).text();
    return f == "range" || f == "list";
  }
  return false;
}

bool Analyzer::mentions_parameter(Node expr) {
  bool found = false;
  int budget = 128;
  for_each_node(expr, [&](Node n) {
    if (found || --budget < 0) return Descend::no;
    if (n.is(NodeKind::identifier) && n.text() != "self") {
      // Only the name itself counts, not the attribute after a dot (`x.shape`: x; `self.n`: no).
      Node p = n.parent();
      if (p.is(NodeKind::attribute) && p.field(Field::attribute) == n) return Descend::no;
      if (p.is(NodeKind::keyword_argument) && p.field(Field::name) == n) return Descend::no;
      const Symbol* s = lookup(n.text());
      if (s != nullptr && (s->is_parameter || s->from_param) && !s->scalar && s->kind != Kind::module &&
          s->kind != Kind::device) {
        found = true;
      }
    }
    return Descend::yes;
  });
  return found;
}

// A sized torch factory without device= written inline in an expression, under the reshapes and
// casts that keep it where it is (`torch.arange(n)[None, :]`, `torch.ones(n).bool()`); not one moved
// (`.to(...)`, `.cuda()`, `.type_as(x)`).
Node Analyzer::inline_host_factory(Node e) {
  for (int guard = 0; guard < 8 && e.valid(); ++guard) {
    if (e.is(NodeKind::parenthesized_expression) && e.named_count() == 1) {
      e = e.named(0);
    } else if (e.is(NodeKind::subscript)) {
      e = e.field(Field::value);
    } else if (e.is(NodeKind::call) && e.field(Field::function).is(NodeKind::attribute)) {
      Node fn = e.field(Field::function);
      std::string q = qualified_callee(e);
      if (is_torch_function(q)) {
        if (!unplaced_sized_factory(e, q)) return Node();
        if (m_function_nodes.empty() || in_host_side_function()) return Node();
        return e;
      }
      auto m = fn.field(Field::attribute).text();
      bool keeps = m == "float" || m == "long" || m == "bool" || m == "int" || m == "half" || m == "double" ||
                   m == "unsqueeze" || m == "view" || m == "reshape" || m == "expand" || m == "repeat" || m == "t" ||
                   m == "flip" || m == "tril" || m == "triu";
      if (!keeps) return Node();
      e = fn.field(Field::object);
    } else {
      return Node();
    }
  }
  return Node();
}

// `torch.tensor(self.quantiles).unsqueeze(0)`, `torch.tensor(lengths)[:, None]`, `torch.tensor([0.5, 2.0])`:
// host data made into a tensor inline, without device=, that has at least one dimension (a list
// written out, or a reshape that adds one). A 0-dim CPU tensor mixes with CUDA tensors; these do not.
Node Analyzer::inline_host_data_factory(Node e) {
  bool dims = false;
  for (int guard = 0; guard < 8 && e.valid(); ++guard) {
    if (e.is(NodeKind::parenthesized_expression) && e.named_count() == 1) {
      e = e.named(0);
    } else if (e.is(NodeKind::subscript)) {
      auto index = e.text().substr(e.field(Field::value).text().size());
      dims = dims || index.find("None") != std::string_view::npos || index.find(':') != std::string_view::npos;
      e = e.field(Field::value);
    } else if (e.is(NodeKind::call) && e.field(Field::function).is(NodeKind::attribute)) {
      Node fn = e.field(Field::function);
      std::string q = qualified_callee(e);
      if (is_torch_function(q)) {
        auto last = last_component(q);
        if ((last != "tensor" && last != "as_tensor") || keyword(e, "device").valid() || has_splat(e)) return Node();
        Node data = positional(e, 0);
        if (!data.valid()) return Node();
        const bool written_out = data.is(NodeKind::list) || data.is(NodeKind::tuple) ||
                                 data.is(NodeKind::list_comprehension);
        if (!dims && !written_out) return Node();
        if (m_function_nodes.empty() || in_host_side_function()) return Node();
        return e;
      }
      auto m = fn.field(Field::attribute).text();
      const bool adds = m == "unsqueeze" || m == "view" || m == "reshape" || m == "expand" || m == "repeat";
      const bool keeps = m == "float" || m == "long" || m == "bool" || m == "int" || m == "half" || m == "double";
      if (!adds && !keeps) return Node();
      dims = dims || adds;
      e = fn.field(Field::object);
    } else {
      return Node();
    }
  }
  return Node();
}

// A method of a module, other than forward(), whose tensors meet the module's: one named for the
// state a step runs on (init_hidden, init_state), or one the class's forward() calls as
// `self.NAME(...)` without moving its result on that line or the next. Not when the method itself
// moves something after the factory (`pe.to(x.device)` at its end), nor for a placeholder of size 0
// or a value read back at once (`.item()`, `int(...)`).
// The function moves something after `call` (`pe.to(x.device)` at its end, device= on a later line).
bool Analyzer::moves_after(Node call) const {
  if (m_function_nodes.empty()) return false;
  Node fn = m_function_nodes.back();
  // The offset in the function of the last move in its code, found once per function: a function
  // with thousands of factories is not read again for each.
  if (m_last_move.first != fn.start_byte()) {
    auto body = fn.text();
    std::size_t last = 0;
    // Code only, line by line: a comment that mentions a device moves nothing.
    for (std::string_view line : util::lines(body)) {
      const auto offset = static_cast<std::size_t>(line.data() - body.data());
      auto code = line.substr(0, line.find('#'));
      for (std::string_view w : {".to(", ".cuda(", "type_as(", "device=", ".to_device("}) {
        auto at = code.rfind(w);
        if (at != std::string_view::npos) last = std::max(last, offset + at + 1);
      }
    }
    m_last_move = {fn.start_byte(), last};
  }
  return call.end_byte() - fn.start_byte() < m_last_move.second;
}

// The name `call` is bound to meets a tensor parameter of the function on a later line
// (`idx = torch.tensor(range(a, b))` ... `torch.index_select(x, 1, idx)` with x a parameter): what
// the function was handed, from a module on the device, meets what it made on the host.
bool Analyzer::joined_with_parameter(Node call) {
  // At most 256 factories a file are followed (each reads up to 200 lines): a generated file stays linear.
  if (++m_joined_with_parameter_checks > 256) return false;
  Node p = call.parent();
  for (int guard = 0; guard < 8 && p.valid() && !p.is(NodeKind::assignment); ++guard) {
    if (p.is(NodeKind::expression_statement) || p.is(NodeKind::block)) return false;
    p = p.parent();
  }
  if (!p.is(NodeKind::assignment) || !p.field(Field::left).is(NodeKind::identifier) || m_function_nodes.empty()) {
    return false;
  }
  const auto name = p.field(Field::left).text();
  Node fn = m_function_nodes.back();
  auto body = fn.text();
  auto after = body.substr(std::min<std::size_t>(body.size(), p.end_byte() - fn.start_byte()));
  auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  int lines = 0;
  for (std::string_view line : util::lines(after)) {
    if (++lines > 200) break;
    line = line.substr(0, line.find('#'));
    bool names_it = false, names_parameter = false;
    for (std::size_t i = 0; i < line.size();) {
      if (!word_char(line[i]) || (i > 0 && line[i - 1] == '.')) {
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < line.size() && word_char(line[j])) ++j;
      auto word = line.substr(i, j - i);
      if (word == name) names_it = true;
      else if (const Symbol* s = lookup(word); s != nullptr && s->is_parameter && !s->scalar && s->kind != Kind::module) {
        names_parameter = true;
      }
      i = j;
    }
    if (names_it && names_parameter) return true;
  }
  return false;
}

// `torch.zeros(n).uniform_(0, 1) < p`: booleans drawn on the host for Python to branch on (which
// layers to drop), not a tensor that meets the module's.
bool Analyzer::compared_on_host(Node call) const {
  for (Node up = call.parent(); up.valid() && !up.is(NodeKind::expression_statement) && !up.is(NodeKind::assignment);
       up = up.parent()) {
    if (up.is(NodeKind::comparison_operator)) return true;
  }
  return false;
}

bool Analyzer::runtime_helper(Node call) {
  auto name = function_name();
  if (name.empty() || name.starts_with("__") || m_function_nodes.empty()) return false;
  if (moves_after(call)) return false;
  Node args = call.field(Field::arguments);
  if (args.valid() && args.named_count() == 1 && (args.named(0).text() == "0" || args.named(0).text() == "(0,)")) return false;
  Node up = call.parent();
  if (up.is(NodeKind::attribute)) {
    auto m = up.field(Field::attribute).text();
    if (m == "item" || m == "tolist" || m == "numpy") return false;
  }
  if (up.is(NodeKind::argument_list)) {
    auto outer = up.parent().field(Field::function).text();
    if (outer == "int" || outer == "float" || outer == "bool") return false;
  }
  bool run_state = name.find("hidden") != std::string_view::npos || name.find("_state") != std::string_view::npos ||
                   name.find("memory") != std::string_view::npos;
  if (run_state && name.find("state_dict") == std::string_view::npos) return true;
  return forward_moves_result(name) == false;
}

// Whether the class's forward() moves what `self.NAME(...)` returns where it calls it (the call's
// line or the next one moves it or names a device): true when every call does, false when one does
// not, nullopt when forward() does not call it.
std::optional<bool> Analyzer::forward_moves_result(std::string_view name, bool own_line_only) const {
  // The class's forward(): the class node holds the method.
  Node cls = enclosing_class();
  if (!cls.valid()) return std::nullopt;
  std::optional<bool> all_moved;
  Node block = cls.field(Field::body);
  for (std::uint32_t i = 0; block.valid() && i < block.named_count(); ++i) {
    Node m = block.named(i);
    if (!m.is(NodeKind::function_definition) && m.named_count() > 0) m = m.named(m.named_count() - 1);  // decorated
    if (!m.is(NodeKind::function_definition) || m.field(Field::name).text() != "forward") continue;
    auto fwd = m.text();
    std::string needle = "self." + std::string(name) + "(";
    for (auto at = fwd.find(needle); at != std::string_view::npos; at = fwd.find(needle, at + 1)) {
      auto eol = fwd.find('\n', at);
      auto next = eol == std::string_view::npos || own_line_only ? eol : fwd.find('\n', eol + 1);
      if (own_line_only) {
        // A call under a test (`if self.table is None: self._extend(n)`) does not run at every step.
        const auto bol = fwd.rfind('\n', at);
        const std::size_t line_start = bol == std::string_view::npos ? 0 : bol + 1;
        auto own = util::trim(fwd.substr(line_start, at - line_start));
        auto above = fwd.substr(0, line_start == 0 ? 0 : line_start - 1);
        const auto above_start = above.rfind('\n');
        auto previous = util::trim(above.substr(above_start == std::string_view::npos ? 0 : above_start + 1));
        if ((previous.starts_with("if ") || previous.starts_with("elif ") || previous.starts_with("else")) && previous.ends_with(":")) {
          return std::nullopt;
        }
        if (own.starts_with("if ") || own.starts_with("elif ")) return std::nullopt;
      }
      std::string lines(fwd.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
      // Code only: a comment that mentions a device moves nothing.
      for (auto hash = lines.find('#'); hash != std::string::npos; hash = lines.find('#', hash)) {
        auto eol_at = lines.find('\n', hash);
        lines.erase(hash, eol_at == std::string::npos ? std::string::npos : eol_at - hash);
      }
      bool moved = lines.find(".to(") != std::string_view::npos || lines.find(".cuda(") != std::string_view::npos ||
                   lines.find("type_as(") != std::string_view::npos || lines.find("device") != std::string_view::npos;
      all_moved = all_moved.value_or(true) && moved;
    }
  }
  return all_moved;
}

// `chars = torch.LongTensor(ids)` and, later in the same function, `chars.cuda()`,
// `chars.to(device)` or `Variable(chars).cuda()`: the tensor is moved before it meets the module's
// (a host copy of list data cannot be avoided). Any later use of the name moved that way counts.
// The uses of every name of the function (whole words, not attributes), indexed once per function:
// a function with thirty thousand factories is not searched once per factory.
void Analyzer::index_name_uses(Node fn) const {
  if (m_name_uses_function == fn.start_byte()) return;
  auto body = fn.text();
  m_name_uses_function = fn.start_byte();
  m_name_uses.clear();
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  for (std::size_t i = 0; i < body.size();) {
    if (!word(body[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < body.size() && word(body[j])) ++j;
    if (i == 0 || body[i - 1] != '.') m_name_uses[body.substr(i, j - i)].push_back(j);
    i = j;
  }
}

bool Analyzer::joined_later(Node call) const {
  // The statement that binds it, through arithmetic (`rhs = torch.ones(lhs.shape) * -big`).
  Node value = call, p = call.parent();
  for (int guard = 0; guard < 8 && (p.is(NodeKind::binary_operator) || p.is(NodeKind::parenthesized_expression) ||
                                    p.is(NodeKind::unary_operator));
       ++guard) {
    value = p;
    p = p.parent();
  }
  if (!p.is(NodeKind::assignment) || p.field(Field::right) != value || m_function_nodes.empty()) return false;
  Node left = p.field(Field::left);
  if (!left.is(NodeKind::identifier)) return false;
  const auto name = left.text();
  Node fn = m_function_nodes.back();
  index_name_uses(fn);
  auto body = fn.text();
  const std::size_t from = std::min<std::size_t>(body.size(), call.end_byte() - fn.start_byte());
  auto uses = m_name_uses.find(name);
  if (uses == m_name_uses.end()) return false;
  for (auto it = std::lower_bound(uses->second.begin(), uses->second.end(), from + name.size()); it != uses->second.end(); ++it) {
    const std::size_t end = *it, start = end - name.size();
    std::size_t bol = body.rfind('\n', start);
    bol = bol == std::string_view::npos ? 0 : bol + 1;
    auto before = body.substr(bol, start - bol);
    auto rest = body.substr(end, body.find('\n', end) == std::string_view::npos ? std::string_view::npos : body.find('\n', end) - end);
    // Rebound: later uses are of another value.
    auto trimmed = util::trim(rest);
    if (util::trim(before).empty() && trimmed.starts_with("=") && !trimmed.starts_with("==")) return false;
    if ((before.find("torch.cat(") != std::string_view::npos || before.find("torch.stack(") != std::string_view::npos) &&
        before.find('[') != std::string_view::npos) {
      return true;
    }
    // `self.emb(token)`: a layer of the module, on the module's device.
    auto b = util::trim(before);
    if (b.ends_with("(")) {
      auto head = b.substr(0, b.size() - 1);
      auto dot = head.rfind("self.");
      if (dot != std::string_view::npos && head.substr(dot + 5).find_first_not_of(
                                                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
                                                std::string_view::npos) {
        return true;
      }
    }
  }
  return false;
}

bool Analyzer::moved_later_by_name(Node call) const {
  Node p = call.parent();
  if (!p.is(NodeKind::assignment) || p.field(Field::right) != call || m_function_nodes.empty()) return false;
  Node left = p.field(Field::left);
  if (!left.is(NodeKind::identifier)) return false;
  const auto name = left.text();
  Node fn = m_function_nodes.back();
  auto body = fn.text();
  const std::size_t from = std::min<std::size_t>(body.size(), call.end_byte() - fn.start_byte());
  index_name_uses(fn);
  auto uses = m_name_uses.find(name);
  if (uses == m_name_uses.end()) return false;
  for (auto it = std::lower_bound(uses->second.begin(), uses->second.end(), from + name.size()); it != uses->second.end(); ++it) {
    auto rest = body.substr(*it);
    if (rest.starts_with(")")) rest.remove_prefix(1);  // the only argument of a wrapper: Variable(x).cuda()
    for (std::string_view m : {".to(", ".cuda(", ".type_as("}) {
      if (rest.starts_with(m)) return true;
    }
  }
  return false;
}

std::string_view def_body(std::string_view text, std::size_t def_at) {
  std::size_t bol = text.rfind('\n', def_at);
  bol = bol == std::string_view::npos ? 0 : bol + 1;
  const std::size_t indent = def_at - bol;
  std::size_t next = text.find('\n', def_at);
  while (next != std::string_view::npos) {
    std::size_t k = next + 1, depth = 0;
    while (k < text.size() && (text[k] == ' ' || text[k] == '\t')) ++k, ++depth;
    if (k < text.size() && text[k] != '\n' && text[k] != '#' && depth <= indent) break;
    next = text.find('\n', next + 1);
  }
  return text.substr(def_at, next == std::string_view::npos ? std::string_view::npos : next - def_at);
}

// `self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")` that nothing reads, and a
// model built beside it in the same class (function, file) where nothing is ever placed on a device:
// the device was chosen and forgotten, and the model runs on the CPU.
void Analyzer::check_model_beside_unused_device(Node left, Node right, const Symbol& value) {
  // A module, or what a module class of this file's from_pretrained() returns.
  Node fn = right.is(NodeKind::call) ? right.field(Field::function) : Node();
  const bool loaded = fn.is(NodeKind::attribute) && fn.field(Field::attribute).text() == "from_pretrained" &&
                      m_ff.module_classes.count(std::string(fn.field(Field::object).text())) > 0;
  if ((value.kind != Kind::module && value.kind != Kind::hf_model && !loaded) || value.is_loss || value.is_parameter ||
      value.placement == Placement::accelerator || value.weightless) {
    return;
  }
  if (!left.is(NodeKind::identifier) && !(left.is(NodeKind::attribute) && left.text().starts_with("self."))) return;
  std::string_view scope = m_src.text;
  if (left.text().starts_with("self.")) {
    if (m_class_nodes.empty()) return;
    scope = m_class_nodes.back().text();
  } else if (!m_function_nodes.empty()) {
    scope = m_function_nodes.back().text();
  }
  // The scope is read once: its forgotten device choice, or "" (a class of thousands of layers assigns
  // a module at each line).
  auto [cached, first] = m_unused_device.try_emplace(scope.data() - m_src.text.data());
  std::string& chosen = cached->second;
  if (first) {
    // Nothing in the scope is placed anywhere.
    for (std::string_view placed : {".to(", ".cuda(", "device=", "device_map", ".to_device(", "set_device("}) {
      if (scope.find(placed) != std::string_view::npos) return;
    }
    static const RE2 k_choice(
        R"re(((?:self\.)?\w+)\s*=\s*(?:torch\.device\(\s*)?["']cuda(?::\d+)?["']\s+if\s+[^\n]*?is_available\(\))re");
    if (!RE2::PartialMatch(scope, k_choice, &chosen)) return;
    int uses = 0;
    util::for_each_name_use(scope, chosen, [&](std::string_view) { ++uses; });
    if (uses != 1) chosen.clear();  // read somewhere: not forgotten
  }
  if (chosen.empty()) return;
  const std::string device = std::move(chosen);  // reported once per scope
  chosen.clear();
  emit(RuleId::model_not_moved, left,
       fmt::format("`{}` is built on the CPU and never moved: `{}` chooses the GPU when there is one, but nothing "
                   "reads it, and nothing here is placed on a device, so the model and its inputs stay on the CPU",
                   left.text(), device),
       {fmt::format("`{}` is set and never used", device)}, fmt::format("{}.to({}), and move its inputs too", left.text(), device));
}

bool name_moved_in(std::string_view text, std::string_view name, bool device_word) {
  bool moved = false;
  util::for_each_name_use(text, name, [&](std::string_view rest) {
    for (std::string_view m : {".to(", ".cuda("}) moved = moved || rest.starts_with(m);
    auto line = rest.substr(0, rest.find('\n'));
    auto eq = line.find_first_not_of(' ');
    if (eq != std::string_view::npos && line[eq] == '=' && eq + 1 < line.size() && line[eq + 1] != '=' &&
        (line.find(".cuda(") != std::string_view::npos || line.find(".to(") != std::string_view::npos ||
         (device_word && line.find("device") != std::string_view::npos))) {
      moved = true;
    }
  });
  return moved;
}

bool Analyzer::moved_as_made(Node call) {
  Node p = call.parent();
  for (int guard = 0; guard < 8 && (p.is(NodeKind::attribute) || p.is(NodeKind::subscript)); ++guard) {
    if (p.is(NodeKind::subscript)) {  // `torch.LongTensor(v)[None].to(device)`
      p = p.parent();
      continue;
    }
    auto m = p.field(Field::attribute).text();
    if (m == "to" || m == "cuda" || m == "type_as" || m == "to_device") return true;
    p = p.parent().is(NodeKind::call) ? p.parent().parent() : Node();
  }
  Node in_args = call.parent();
  return in_args.is(NodeKind::argument_list) && in_args.text().find("device") != std::string_view::npos;
}

std::pair<int, int> Analyzer::position_of(std::size_t byte) const {
  const std::string_view text = m_src.text;
  byte = std::min(byte, text.size());
  int row = 0;
  std::size_t bol = 0;
  for (std::size_t at = text.find('\n'); at != std::string_view::npos && at < byte; at = text.find('\n', at + 1)) {
    ++row;
    bol = at + 1;
  }
  return {row, static_cast<int>(byte - bol)};
}

std::string_view Analyzer::row_text(int row) const {
  const std::string_view text = m_src.text;
  std::size_t bol = 0;
  for (int r = 0; r < row && bol != std::string_view::npos; ++r) {
    bol = text.find('\n', bol);
    if (bol != std::string_view::npos) ++bol;
  }
  if (bol == std::string_view::npos) return {};
  return text.substr(bol, text.find('\n', bol) - bol);
}

bool Analyzer::in_host_side_function() const {
  // A module's sample() that runs the module is not a dataset's sample().
  return host_side_function(function_name(), m_classes.empty() ? std::string_view() : std::string_view(m_classes.back())) &&
         !runs_own_forward();
}

bool Analyzer::gpu_project() const { return m_ff.project != nullptr && m_ff.project->uses_gpu(); }

bool Analyzer::state_method() const {
  return !m_class_nodes.empty() && !m_function_nodes.empty() && !in_module_method() && function_name() != "__init__" &&
         m_function_nodes.back().parent().parent() == m_class_nodes.back();
}

bool Analyzer::called_from_forward() const {
  return m_classes.empty() && m_function_nodes.size() == 1 && m_ff.called_per_step.count(std::string(function_name())) > 0;
}

bool Analyzer::forward_helper() const {
  return m_classes.empty() && m_function_nodes.size() == 1 &&
         m_ff.forward_helpers_unmoved.count(std::string(function_name())) > 0;
}

bool Analyzer::runs_own_forward() const {
  if (!in_module_method() || in_forward() || function_name() == "__init__") return false;
  // Read once per method: rules ask at every factory.
  Node fn = m_function_nodes.back();
  if (m_runs_own_forward.first == fn.start_byte()) return m_runs_own_forward.second;
  auto body = fn.field(Field::body).text();
  bool runs = body.find("self.forward(") != std::string_view::npos;
  util::for_each_name_use(body, "self", [&](std::string_view rest) { runs = runs || rest.starts_with("("); });
  // Run by an __init__ (`self.seq_len = self.sequence_length()`, `self.tokenizer.sequence_length()` in
  // the model's): on a dummy input, before the module moves.
  if (runs) {
    const std::string needle = "." + std::string(function_name()) + "(";
    const std::string_view text = m_src.text;
    for (auto at = text.find(needle); runs && at != std::string_view::npos; at = text.find(needle, at + 1)) {
      runs = def_name_above(text, at) != "__init__";
    }
  }
  m_runs_own_forward = {fn.start_byte(), runs};
  return runs;
}

bool Analyzer::class_holds_device() const {
  if (m_class_nodes.empty()) return false;
  auto cls = m_class_nodes.back().text();
  return cls.find("self.device =") != std::string_view::npos || cls.find("self._device =") != std::string_view::npos;
}

// Code that runs on a GPU when there is one: the file or its project places work on a device, or
// a framework that moves the model and batches itself (Lightning, Accelerate) drives it.
bool Analyzer::gpu_code() const { return m_ff.uses_device || gpu_project() || m_ff.framework_moves_batches; }

bool Analyzer::registers_by_hand(Node at) {
  // detectron2's idiom: self.add_module(name, layer) then append the same layer to a list. Read
  // once per function.
  for (Node p = at.parent(); p.valid(); p = p.parent()) {
    if (!p.is(NodeKind::function_definition)) continue;
    auto [it, inserted] = m_registers_by_hand.try_emplace(p.start_byte(), false);
    if (inserted) {
      auto body = p.text();
      it->second = body.find("add_module(") != std::string_view::npos || body.find("setattr(self") != std::string_view::npos;
    }
    return it->second;
  }
  return false;
}

bool Analyzer::mentions_input_shape(Node expr) {
  bool found = false;
  int budget = 128;
  auto input = [&](Node x) {
    if (!x.is(NodeKind::identifier) && !x.is(NodeKind::attribute)) return false;
    const Symbol* s = lookup(x.text());
    return s != nullptr && (s->is_parameter || s->from_param) && s->kind != Kind::module && s->kind != Kind::device;
  };
  for_each_node(expr, [&](Node n) {
    if (found || --budget < 0) return Descend::no;
    if (n.is(NodeKind::attribute) && n.field(Field::attribute).text() == "shape" && input(n.field(Field::object))) found = true;
    if (n.is(NodeKind::call)) {
      Node fn = n.field(Field::function);
      if (fn.is(NodeKind::attribute)) {
        auto m = fn.field(Field::attribute).text();
        if ((m == "size" || m == "numel" || m == "dim") && input(fn.field(Field::object))) found = true;
      }
    }
    if (n.is(NodeKind::identifier)) {
      const Symbol* s = lookup(n.text());
      if (s != nullptr && s->from_shape) found = true;
    }
    return Descend::yes;
  });
  return found;
}

namespace {

// A literal a factory may be given: a number, a bool, a negated number, or a list or tuple of them.
bool literal_value(Node e, int depth = 0) {
  if (e.is(NodeKind::integer) || e.is(NodeKind::float_) || e.is(NodeKind::true_) || e.is(NodeKind::false_)) return true;
  if (e.is(NodeKind::unary_operator)) return e.named_count() == 1 && literal_value(e.named(0), depth + 1);
  if ((e.is(NodeKind::list) || e.is(NodeKind::tuple)) && depth < 3) {
    for (std::uint32_t i = 0; i < e.named_count(); ++i) {
      if (!literal_value(e.named(i), depth + 1)) return false;
    }
    return true;
  }
  return false;
}

}  // namespace

Node Analyzer::host_constant(Node e) const {
  for (int guard = 0; guard < 4 && e.valid(); ++guard) {
    if (e.is(NodeKind::parenthesized_expression) && e.named_count() == 1) {
      e = e.named(0);
      continue;
    }
    if (!e.is(NodeKind::call)) return Node();
    Node fn = e.field(Field::function);
    if (!fn.is(NodeKind::attribute)) break;
    auto m = fn.field(Field::attribute).text();
    if (m != "float" && m != "long" && m != "int" && m != "double" && m != "half" && m != "bool" && m != "squeeze" &&
        m != "unsqueeze") {
      break;
    }
    e = fn.field(Field::object);
  }
  if (!e.is(NodeKind::call)) return Node();
  std::string q = qualified_callee(e);
  if (!is_torch_function(q)) return Node();
  auto name = last_component(q);
  if (name != "tensor" && name != "as_tensor" && name != "scalar_tensor" && name != "zeros" && name != "ones" &&
      name != "full" && name != "empty" && name != "Tensor" && name != "FloatTensor" && name != "LongTensor") {
    return Node();
  }
  if (keyword(e, "device").valid() || has_splat(e)) return Node();
  Node args = e.field(Field::arguments);
  if (!args.valid() || args.named_count() == 0) return Node();
  for (std::uint32_t i = 0; i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (a.is(NodeKind::keyword_argument)) {
      auto k = a.field(Field::name).text();
      if (k == "dtype" || k == "requires_grad") continue;
      return Node();
    }
    if (!literal_value(a)) return Node();
  }
  return e;
}

void Analyzer::note_constant_binding(Node name, Node value, const Symbol& symbol) {
  if (m_function_nodes.empty()) return;
  std::pair<std::uint32_t, std::string> key{m_function_nodes.back().start_byte(), std::string(name.text())};
  if (Node c = host_constant(value); c.valid()) {
    m_constant_bound.try_emplace(key, c);
    return;
  }
  // A value from the inputs, not one that grows the name itself (`total = total + x`: a sum that
  // started as a constant ends where x is).
  if (!symbol.from_param || symbol.made_on_host() || symbol.kind == Kind::module) return;
  bool self_reference = false;
  util::for_each_name_use(value.text(), name.text(), [&](std::string_view) { self_reference = true; });
  if (!self_reference) m_input_bound.insert(std::move(key));
}

void Analyzer::check_return_feed(Node value) {
  if (m_function_nodes.empty() || in_host_side_function() || under_version_guard(value)) return;
  const bool module_code = in_module_method() || called_from_forward() ||
                           (m_classes.empty() && m_function_nodes.size() == 1 &&
                            m_ff.called_by_modules.count(std::string(function_name())) > 0);
  if (!gpu_code() && !module_code) return;
  const std::uint32_t fn = m_function_nodes.back().start_byte();
  std::vector<Node> parts;
  if (value.is(NodeKind::expression_list) || value.is(NodeKind::tuple)) {
    for (std::uint32_t i = 0; i < value.named_count() && i < 8; ++i) parts.push_back(value.named(i));
  } else {
    parts.push_back(value);
  }
  auto& feed = m_return_feeds[fn];
  for (std::size_t i = 0; i < parts.size(); ++i) {
    Node e = parts[i];
    Node host = host_constant(e);
    bool input = false;
    if (!host.valid() && e.is(NodeKind::identifier)) {
      std::pair<std::uint32_t, std::string> key{fn, std::string(e.text())};
      if (auto it = m_constant_bound.find(key); it != m_constant_bound.end()) host = it->second;
      input = m_input_bound.count(key) > 0;
    }
    if (!host.valid() && !input) {
      Symbol s = infer(e);
      input = s.kind != Kind::module && !s.made_on_host() && s.placement != Placement::host && mentions_parameter(e);
    }
    if (host.valid() && !feed.host.valid()) {
      feed.host = host;
      feed.host_position = static_cast<int>(i);
    }
    if (input) feed.input_positions.insert(static_cast<int>(i));
  }
  if (feed.reported || !feed.host.valid() || feed.input_positions.count(feed.host_position) == 0) return;
  feed.reported = true;
  Node c = feed.host;
  if (m_inline_reported.count(c.start_byte()) > 0) return;
  // A function that tests the device (`if x.is_cuda: return ...` then `return torch.tensor(0.)`):
  // its CPU constant is the CPU branch.
  bool device_test = false;
  int budget = 4096;
  for_each_node(m_function_nodes.back(), [&](Node n) {
    if (device_test || --budget < 0) return Descend::no;
    Node test;
    if (n.is(NodeKind::if_statement) || n.is(NodeKind::elif_clause)) test = n.field(Field::condition);
    if (n.is(NodeKind::conditional_expression)) test = n.named(1);
    if (test.valid()) {
      auto t = test.text();
      device_test = t.find("cuda") != std::string_view::npos || t.find("device") != std::string_view::npos ||
                    t.find("cpu") != std::string_view::npos || t.find("gpu") != std::string_view::npos;
    }
    return Descend::yes;
  });
  if (device_test) return;
  m_inline_reported.insert(c.start_byte());
  std::string q = qualified_callee(c);
  // In a module's code the inputs are where the module is; elsewhere (a helper of a training
  // script, a distribution class) the mix is latent, and often harmless: advice.
  auto& f = emit(RuleId::tensor_created_without_device, c,
       fmt::format("{}() of {} returns `{}`, made on the CPU, where its other returns are computed from its inputs: "
                   "when they are on the GPU the function gives tensors on two devices, and the caller that stacks, "
                   "indexes or logs them together fails (\"Expected all tensors to be on the same device\")",
                   function_name(), m_classes.empty() ? "this file" : m_classes.back(), snippet(c, 50)),
       {snippet(c, 80)}, fmt::format("{}(..., device=x.device) for an input x, or x.new_tensor(...)", q));
  if (!module_code) f.severity = facts::Severity::info;
}

void Analyzer::on_return(Node n) {
  if (m_function_nodes.empty() || n.named_count() != 1) return;
  if (in_module_method()) check_plain_parameters(n.named(0), "");
  check_return_feed(n.named(0));
  check_return_of_mapped_load(n.named(0));
  check_host_return_in_placing_class(n.named(0));
  Symbol s = infer(n.named(0));
  // A dict this function filled with host tensors made from data: returned like a tokenizer's output.
  if (n.named(0).is(NodeKind::identifier)) {
    if (const Symbol* d = lookup(n.named(0).text()); d != nullptr && d->dict_literal && d->holds_host_tensors) {
      s.kind = Kind::encoding;
      s.placement = Placement::host;
      s.made_here = true;
    }
  }
  // A module, a tensor the function makes on the host from sizes (a helper that builds a mask), or
  // a tokenizer's encoding (a method that encodes the prompt). Methods are known as `self.name`.
  // A factory sized by the function's arguments (`torch.zeros(n, h, w)`) is on the host whatever
  // they are.
  // A helper that turns host data into the model's input (`return torch.as_tensor(frame).permute(2, 0,
  // 1) / 255`) returns a host tensor too: what calls it must move it.
  bool host_tensor = s.made_on_host() && (s.sized || !s.maybe_number);
  bool encoding = s.kind == Kind::encoding && s.placement == Placement::host;
  // A helper that prepares an input and returns it moved (`return img.unsqueeze(0).to(device)`),
  // when every return of it does.
  bool device_tensor = s.placement == Placement::accelerator &&
                       (s.kind == Kind::tensor || (s.kind == Kind::unknown && n.named(0).is(NodeKind::call) &&
                                                   !util::contains_icase(n.named(0).text(), "model")));
  const bool method = !m_classes.empty();
  std::string name = (method ? "self." : "") + std::string(function_name());
  // forward() / __call__() of a module class of the file that makes what it returns on the host.
  if (method && host_tensor && (function_name() == "forward" || function_name() == "__call__") &&
      m_ff.module_classes.count(m_classes.back()) > 0 && m_class_host_returns.count(m_classes.back()) == 0) {
    // Reported at the first factory of the method that made a host tensor (`position = torch.arange(n)`),
    // else at the return.
    int row = static_cast<int>(n.named(0).row()), column = static_cast<int>(n.named(0).column());
    if (!m_scopes.empty() && m_scopes.back().is_function) {
      for (const auto& [sym_name, sym] : m_scopes.back().symbols) {
        if (sym.made_on_host() && sym.sized && sym.row >= 0 && (sym.row < row || (sym.row == row && sym.column < column))) {
          row = sym.row;
          column = sym.column;
        }
      }
    }
    m_class_host_returns.try_emplace(m_classes.back(), row, column);
  }
  m_return_kinds[name] |= s.kind == Kind::tensor ? k_returns_tensor : k_returns_nontensor;
  if ((s.kind != Kind::module || s.submodule) && !host_tensor && !encoding && !device_tensor) {
    m_returns_other.insert(name);
    if (auto it = m_returns.find(name); it != m_returns.end() && it->second.kind != Kind::module &&
                                        it->second.placement == Placement::accelerator) {
      it->second.placement = Placement::unknown;
    }
    return;
  }
  if (device_tensor && m_returns_other.count(name) > 0) s.placement = Placement::unknown;
  if (method && s.kind == Kind::module) return;  // a method returning a layer builds it for __init__
  if (s.row < 0) {  // `return torch.cat(...)`: made in the return itself
    s.row = static_cast<int>(n.named(0).row());
    s.column = static_cast<int>(n.named(0).column());
  }
  auto [it, inserted] = m_returns.try_emplace(name, s);
  // Several returns that disagree on placement: unknown.
  if (!inserted && it->second.placement != s.placement) it->second.placement = Placement::unknown;
  // Also by class (`VecEnv.reset`): what `env.reset()` returns for an instance of that class.
  if (method) {
    auto [cit, cinserted] = m_returns.try_emplace(m_classes.back() + "." + std::string(function_name()), s);
    if (!cinserted && cit->second.placement != s.placement) cit->second.placement = Placement::unknown;
  }
}

// nn.Parameter(...) made inside a plain list or dict (a literal or a comprehension) that a module keeps
// or returns: the parameters are not registered, so they are not moved, trained or saved with it.
bool Analyzer::check_plain_parameters(Node container, std::string_view name) {
  const bool dict = container.is(NodeKind::dictionary) || container.type() == "dictionary_comprehension";
  if (!dict && !container.is(NodeKind::list) && !container.is(NodeKind::list_comprehension)) return false;
  bool parameters = false;
  int budget = 64;
  for_each_node(container, [&](Node n) {
    if (parameters || --budget < 0) return Descend::no;
    if (n.is(NodeKind::call)) {
      const std::string q = qualified_callee(n);
      if (q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter") parameters = true;
      return Descend::no;
    }
    return Descend::yes;
  });
  if (!parameters) return false;
  emit(RuleId::module_not_registered, container,
       fmt::format("{} makes nn.Parameter objects inside a plain Python {}: the module does not register them, so "
                   ".to(device) leaves them on the CPU, the optimizer built from .parameters() never sees them and "
                   "state_dict() does not save them",
                   name.empty() ? std::string("This") : fmt::format("`{}`", name), dict ? "dict" : "list"),
       {snippet(container, 80)},
       fmt::format("nn.{}({})", dict ? "ParameterDict" : "ParameterList", snippet(container, 50)));
  return true;
}

// `self.heads[k] = Head(...)` into a plain dict or list that __init__ made: the layer is not registered.
void Analyzer::check_store_into_plain_container(Node left, Node right) {
  if (!left.is(NodeKind::subscript) || function_name() != "__init__" || !in_module_method()) return;
  // `self.d[k] = name = build(...)`: the value of the innermost assignment.
  for (int guard = 0; guard < 4 && right.is(NodeKind::assignment); ++guard) right = right.field(Field::right);
  Node target = left.field(Field::value);
  auto it = m_plain_lists.find(std::string(target.text()));
  if (it == m_plain_lists.end() || !right.is(NodeKind::call) || infer(right).kind != Kind::module) return;
  emit(RuleId::module_not_registered, it->second,
       fmt::format("`{}` is a plain Python container, and a layer is stored into it at {}: the module does not "
                   "register it, so .to(device) leaves it on the CPU and the optimizer never sees its weights",
                   it->first, where(left.row())),
       {snippet(left.parent(), 80)}, fmt::format("{} = nn.ModuleDict() (or nn.ModuleList())", it->first));
  m_plain_lists.erase(it);
}

// `self.weight = UninitializedParameter()` (or nn.Parameter(torch.empty(n))) in a method that runs after
// construction (a vocabulary grown, a layer resized): made without device=, the new parameter is on the
// CPU while the module and its other weights may already be on the GPU.
bool Analyzer::check_parameter_made_after_init(Node left, Node right) {
  if (!right.is(NodeKind::call)) return false;
  const std::string q = qualified_callee(right);
  const std::string_view kind = last_component(q);
  const bool lazy = kind == "UninitializedParameter" || kind == "UninitializedBuffer";
  if (!lazy && q != "torch.nn.Parameter" && q != "torch.nn.parameter.Parameter") return false;
  const std::string_view fname = function_name();
  if (fname.find("init") != std::string_view::npos || fname.find("build") != std::string_view::npos ||
      fname.find("setup") != std::string_view::npos || fname.find("reset") != std::string_view::npos ||
      fname.starts_with("_load") || fname == "load_state_dict") {
    return false;
  }
  if (keyword(right, "device").valid()) return false;
  if (!lazy) {
    // nn.Parameter(<factory>(...)) with a factory that names no device, not nn.Parameter(old.new_zeros(...)).
    Node made = positional(right, 0);
    const std::string made_q = made.is(NodeKind::call) ? qualified_callee(made) : std::string();
    if (!made.is(NodeKind::call) || !is_torch_function(made_q) || keyword(made, "device").valid()) return false;
    const std::string_view factory = last_component(made_q);
    static constexpr std::string_view k_factories[] = {"zeros", "ones", "empty", "full", "rand", "randn", "eye"};
    if (std::find(std::begin(k_factories), std::end(k_factories), factory) == std::end(k_factories)) return false;
  }
  emit(RuleId::tensor_created_without_device, right,
       fmt::format("`{}` gets a new parameter in {}(), after construction, made without device=: when the module is "
                   "already on the GPU the new weight is on the CPU, apart from the module's other weights and its "
                   "inputs",
                   left.text(), fname),
       {snippet(right, 80)},
       fmt::format("make it where the module is: {}(device=<an existing weight>.device)", snippet(right.field(Field::function), 40)));
  return true;
}

void Analyzer::check_module_attribute(Node left, Node right, Symbol& value) {
  std::string name(left.text());
  if (!name.starts_with("self.") || !in_module_method()) return;
  // State set up outside __init__ (`def init_hidden(self, b): self.h = torch.zeros(...)`) is the
  // same plain attribute.
  if (function_name() != "__init__") {
    if (check_parameter_made_after_init(left, right)) return;
    check_tensor_attribute(left, right, value);
    return;
  }
  // A submodule assigned after self.cuda(): the move is over, it stays on the CPU.
  if (value.kind == Kind::module && m_self_moved_row >= 0 && !m_self_move_reported) {
    m_self_move_reported = true;
    emit_at(RuleId::model_not_moved, m_self_moved_row, 0,
            fmt::format("The module is moved to the device here, before `{}` is assigned at {}: submodules assigned "
                        "after the move stay on the CPU",
                        name, where(left.row())),
            {snippet(left.parent(), 80)}, "Assign every submodule first and move the module last (or let the caller move it)");
  }
  // Layers in a plain list or dict: invisible to .to(), state_dict() and parameters().
  if (right.is(NodeKind::list) || right.is(NodeKind::list_comprehension) || right.is(NodeKind::dictionary)) {
    if (right.named_count() == 0) {
      m_plain_lists[name] = left;
      return;
    }
    bool layers = false;
    int budget = 64;
    for_each_node(right, [&](Node n) {
      if (layers || --budget < 0) return Descend::no;
      if (n.is(NodeKind::call) && infer(n).kind == Kind::module) layers = true;
      return n.is(NodeKind::call) ? Descend::no : Descend::yes;
    });
    if (layers && !registers_by_hand(left)) {
      bool dict = right.is(NodeKind::dictionary) || right.type() == "dictionary_comprehension";
      emit(RuleId::module_not_registered, left,
           fmt::format("`{}` keeps layers in a plain Python {}: the module does not register them, so .to(device) "
                       "leaves them on the CPU and the optimizer never sees their weights",
                       name, dict ? "dict" : "list"),
           {snippet(right, 80)}, fmt::format("{} = nn.{}({})", name, dict ? "ModuleDict" : "ModuleList", snippet(right, 50)));
      return;
    }
    if (check_plain_parameters(right, name)) return;
    // A plain container that holds no layer yet: one stored into it later (`self.d[k] = Encoder(...)`) is
    // as unregistered as one appended.
    if (!registers_by_hand(left)) m_plain_lists[name] = left;
    return;
  }
  // nn.Parameter(...).cuda(): the move returns a plain tensor, which is not registered.
  if (right.is(NodeKind::call)) {
    Node fn = right.field(Field::function);
    if (fn.is(NodeKind::attribute)) {
      std::string_view method = fn.field(Field::attribute).text();
      Node object = fn.field(Field::object);
      if ((method == "cuda" || method == "to") && object.is(NodeKind::call)) {
        std::string q = qualified_callee(object);
        if (q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter") {
          emit(RuleId::module_not_registered, left,
               fmt::format("`{}` = nn.Parameter(...).{}(): the move returns a plain tensor, so `{}` is no parameter "
                           "of the module (not trained, not saved, not moved with it)",
                           name, method, name),
               {snippet(right, 80)}, fmt::format("{} = nn.Parameter(...) and move the whole module", name));
          return;
        }
      }
    }
  }
  check_tensor_attribute(left, right, value);
}

void Analyzer::check_tensor_attribute(Node left, Node right, const Symbol& value) {
  std::string name(left.text());
  // `self.keys = torch.randn(L, c).to("cuda")` in __init__: a plain attribute pinned to the first GPU.
  // model.to(device), .cpu() and DDP on another GPU leave it there, and state_dict() does not save it.
  if (function_name() == "__init__" && right.is(NodeKind::call) && right.field(Field::function).is(NodeKind::attribute)) {
    const std::string_view method = right.field(Field::function).field(Field::attribute).text();
    Node made_by = right.field(Field::function).field(Field::object);
    const auto target = string_value(positional(right, 0));
    const bool pinned = (method == "cuda" && !positional(right, 0).valid() && !keyword(right, "device").valid()) ||
                        (method == "to" && target && (*target == "cuda" || target->starts_with("cuda:")));
    if (pinned && made_by.is(NodeKind::call) && is_torch_function(qualified_callee(made_by)) &&
        m_attribute_reported.insert(name + "@pinned").second) {
      emit(RuleId::tensor_attribute_not_buffer, left,
           fmt::format("`{}` is a plain tensor attribute put on the first GPU by hand: the module does not register "
                       "it, so model.to(device), .cpu() or a replica on another GPU leave it on cuda:0, and "
                       "state_dict() does not save it",
                       name),
           {snippet(left.parent(), 80)},
           fmt::format("self.register_buffer(\"{}\", {})", name.substr(5), snippet(made_by, 50)));
      return;
    }
    // `self.mean = torch.tensor(cfg.mean)`, then `self.mean = self.mean.cuda()` under a flag: the same
    // plain attribute pinned by hand, reported where it is made.
    if (pinned && made_by.text() == name && name.starts_with("self.") && !m_function_nodes.empty()) {
      const Node fn = m_function_nodes.back();
      const std::string_view body = fn.text();
      const std::string made_at = name + " = torch.";
      const auto at = body.find(made_at);
      const std::string attr = name.substr(5);
      const bool registered = m_src.text.find("register_buffer(\"" + attr + "\"") != std::string::npos ||
                              m_src.text.find("register_buffer('" + attr + "'") != std::string::npos ||
                              m_src.text.find("def _apply(") != std::string::npos;
      if (at != std::string_view::npos && at + fn.start_byte() < right.start_byte() && !registered &&
          m_attribute_reported.insert(name + "@pinned").second) {
        const std::size_t offset = fn.start_byte() + at;
        const std::string_view before = std::string_view(m_src.text).substr(0, offset);
        const auto bol = before.rfind('\n');
        const int row = static_cast<int>(util::count_byte(before, '\n'));
        const int column = static_cast<int>(bol == std::string_view::npos ? offset : offset - bol - 1);
        emit_at(RuleId::tensor_attribute_not_buffer, row, column,
                fmt::format("`{}` is a plain tensor attribute, put on the first GPU by hand at {}: the module does not "
                            "register it, so model.to(device), .cpu() or a replica on another GPU leave it where it "
                            "was put, and state_dict() does not save it",
                            name, where(right.row())),
                {snippet(left.parent(), 80)},
                fmt::format("self.register_buffer(\"{}\", <the tensor>, persistent=False) and drop the .{}()", attr,
                            method));
        return;
      }
    }
  }
  // `torch.linspace(0, pi, n)[None, :]`: an index of a tensor made here is made here too.
  Symbol made = value;
  // `torch.tensor(mean) if mean is not None else torch.zeros(1)`: both branches made here on the
  // host; the sized factory speaks for both (torch.tensor of a name may be a number).
  if (right.is(NodeKind::conditional_expression) && right.named_count() == 3) {
    Node a = right.named(0), b = right.named(2);
    Symbol sa = infer(a), sb = infer(b);
    if (a.is(NodeKind::call) && b.is(NodeKind::call) && sa.made_on_host() && sb.made_on_host()) {
      const bool a_of_value = last_component(qualified_callee(a)) == "tensor";
      right = a_of_value ? b : a;
      made = a_of_value ? sb : sa;
    }
  }
  bool new_axis = false;  // `[None]`: at least one dimension, whatever the factory was given
  for (int guard = 0; guard < 4 && right.is(NodeKind::subscript); ++guard) {
    new_axis = new_axis || right.text().substr(right.field(Field::value).text().size()).find("None") != std::string_view::npos;
    right = right.field(Field::value);
    if (right.is(NodeKind::call)) made = infer(right);
  }
  // `self.mean = mean`, where mean was bound to a tensor made here on the host (`mean =
  // torch.tensor(mean)[None]` under an isinstance test): the same plain attribute.
  const bool by_name = right.is(NodeKind::identifier) && made.made_on_host() && !made.maybe_number && !made.zero_dim;
  // A tensor made right here and kept as an attribute: model.to(device) does not move it.
  if (made.made_on_host() && (right.is(NodeKind::call) || by_name)) {
    // torch.tensor(x) of anything but a list is most often a number: a 0-dim tensor mixes with
    // tensors on any device.
    if (right.is(NodeKind::call) && !new_axis && last_component(qualified_callee(right)) == "tensor") {
      Node first = positional(right, 0);
      // Or a field of a file's contents (`blob = json.load(f)` ... `torch.tensor(blob["mean"])`):
      // statistics stored as lists.
      bool loaded_field = false;
      if (first.is(NodeKind::subscript) && first.field(Field::value).is(NodeKind::identifier)) {
        auto body = m_function_nodes.back().text();
        const std::string bound = std::string(first.field(Field::value).text()) + " = ";
        for (std::string_view loader : {"json.load(", "yaml.safe_load(", "yaml.load(", "np.load(", "numpy.load("}) {
          loaded_field = loaded_field || body.find(bound + std::string(loader)) != std::string_view::npos;
        }
      }
      if (!first.is(NodeKind::list) && !first.is(NodeKind::tuple) && !first.is(NodeKind::list_comprehension) &&
          !loaded_field) {
        return;
      }
    }
    std::string_view text = m_src.text;
    std::string attr(std::string_view(name).substr(5));
    // The module moves it itself: an _apply override, register_buffer, or a line that moves it
    // or reads a device beside it (`self.table[t].to(x.device)`).
    // Each name's lines are read once per file, and at most k_max_attribute_searches names are
    // (a generated file with a hundred thousand attributes must not cost a hundred thousand passes).
    constexpr std::size_t k_max_attribute_searches = 256;
    auto cached = m_attribute_moved.find(name);
    if (cached == m_attribute_moved.end()) {
      if (m_attribute_moved.size() >= k_max_attribute_searches) return;
      bool handled = text.find("def _apply(") != std::string_view::npos ||
                     text.find("register_buffer(\"" + attr + "\"") != std::string_view::npos ||
                     text.find("register_buffer('" + attr + "'") != std::string_view::npos;
      // Where a line moves it: in the method that made it (moved once, as it is built), or in
      // another (forward() copying it to its input's device).
      Node fn = m_function_nodes.back();
      AttributeMove move = handled ? AttributeMove::handled : AttributeMove::never;
      bool rebound_elsewhere = false;
      for (std::size_t at = text.find(name); at != std::string_view::npos && move != AttributeMove::handled;
           at = text.find(name, at + 1)) {
        std::size_t end = at + name.size();
        if (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_')) continue;
        std::size_t bol = text.rfind('\n', at);
        bol = bol == std::string_view::npos ? 0 : bol + 1;
        std::size_t eol = text.find('\n', at);
        auto line = text.substr(bol, eol == std::string_view::npos ? std::string_view::npos : eol - bol);
        bool moved = false;
        for (std::string_view w : {".to(", ".cuda(", "device", ".type_as("}) moved = moved || line.find(w) != std::string_view::npos;
        bool here = at >= fn.start_byte() && at < fn.end_byte();
        if (!moved) {
          // Bound again in another method to data converted to a tensor (`self.state =
          // torch.FloatTensor(obs)` at each step): state the code keeps, not a constant of the module.
          std::size_t k = end;
          while (k < text.size() && text[k] == ' ') ++k;
          bool in_comment = line.substr(0, at - bol).find('#') != std::string_view::npos;
          if (!here && !in_comment && k + 1 < text.size() && text[k] == '=' && text[k + 1] != '=') {
            std::size_t v = k + 1;
            while (v < text.size() && text[v] == ' ') ++v;
            auto rhs = text.substr(v, 40);
            for (std::string_view conv : {"torch.FloatTensor(", "torch.LongTensor(", "torch.Tensor(", "torch.tensor(",
                                          "torch.from_numpy(", "torch.as_tensor("}) {
              if (rhs.starts_with(conv)) rebound_elsewhere = true;
            }
          }
          continue;
        }
        // Moved in the module's own to()/cuda()/_apply() override: it moves with the module.
        if (auto m = def_name_above(text, at); m == "to" || m == "cuda" || m == "_apply") {
          move = AttributeMove::handled;
          continue;
        }
        // A copy of it elsewhere (`self.table.to(x.device)`), not a line that only reads its device.
        auto rest = text.substr(end, line.size() - (at - bol) - name.size());
        bool copied = rest.find(".to(") != std::string_view::npos || rest.find(".cuda(") != std::string_view::npos ||
                      rest.find(".type_as(") != std::string_view::npos;
        move = here || !copied ? AttributeMove::handled : AttributeMove::at_run_time;
        if (!here && m_attribute_move_row.count(name) == 0) {
          m_attribute_move_row[name] = static_cast<int>(util::count_byte(text.substr(0, at), '\n'));
        }
      }
      if (rebound_elsewhere) move = AttributeMove::handled;
      cached = m_attribute_moved.emplace(name, move).first;
    }
    if (cached->second == AttributeMove::handled) return;
    // `self._future_mask = torch.empty(0)`: a placeholder for a cache built later, where it is used.
    Node args = right.field(Field::arguments);
    if (args.valid() && args.named_count() == 1 && args.named(0).text() == "0") return;
    if (cached->second == AttributeMove::at_run_time) {
      if (!m_attribute_reported.insert(name).second) return;
      emit(RuleId::tensor_attribute_not_buffer, left,
           fmt::format("`{}` is a plain tensor attribute, copied to the input's device at run time ({}): model.to() "
                       "and .half() leave it behind, and each call checks or copies it again; a buffer moves with the "
                       "module",
                       name, where(m_attribute_move_row[name])),
           {snippet(left.parent(), 80)},
           fmt::format("self.register_buffer(\"{}\", {}, persistent=False)", attr, snippet(right, 50)));
      return;
    }
    emit(RuleId::tensor_attribute_not_buffer, left,
         fmt::format("`{}` is a plain tensor attribute: model.to(device) moves parameters and buffers only, so it stays "
                     "on the CPU while the module's inputs move",
                     name),
         {snippet(left.parent(), 80)},
         fmt::format("self.register_buffer(\"{}\", {}, persistent=False)", attr, snippet(right, 50)));
  }
}

// `MBConv(args)(x)` in a method of a module: an nn.Module class of this file built and called at
// once, so every call makes a new module with fresh random weights, on the CPU after the model was
// moved, never registered and never trained (the module meant is in self.blocks). Not in __init__,
// where running a throwaway module once can size a layer.
void Analyzer::check_local_module_called_at_once(Node call, std::string_view q) {
  if (q.empty() || q.find('.') != std::string_view::npos) return;
  const std::string cls(q);
  if (m_ff.module_classes.count(cls) == 0 || m_ff.weightless_classes.count(cls) > 0) return;
  Node p = call.parent();
  if (!p.is(NodeKind::call) || p.field(Field::function) != call) return;
  if (!in_module_method() || function_name() == "__init__") return;
  emit(RuleId::module_built_in_forward, call,
       fmt::format("`{}`, a module class of this file, is built and called at once in {}(): a new module with fresh "
                   "random weights at every call, on the CPU after the model was moved, never registered, never "
                   "trained",
                   q, function_name()),
       {snippet(p, 80)},
       fmt::format("build it once in __init__ (self.blocks = nn.ModuleList([{}(...), ...])) and call the registered "
                   "module here",
                   q));
}

void Analyzer::check_module_ctor(Node call, std::string_view q) {
  if (!starts_with_package(q, "torch.nn") || starts_with_package(q, "torch.nn.functional")) return;
  std::string_view layer = last_component(q);
  if (m_inline_reported.count(call.start_byte()) > 0) return;  // a layer of a container reported whole
  // `self.head = nn.Sequential(nn.Linear(...), ...)` in forward(): reported once, at the container.
  if ((layer == "Sequential" || layer == "ModuleList" || layer == "ModuleDict") && in_forward() && in_module_method()) {
    std::vector<std::uint32_t> layers;
    int budget = 256;
    for_each_node(call.field(Field::arguments), [&](Node n) {
      if (--budget < 0) return Descend::no;
      if (n.is(NodeKind::call)) {
        std::string inner = qualified_callee(n);
        if (starts_with_package(inner, "torch.nn") && !starts_with_package(inner, "torch.nn.functional") &&
            has_weights(last_component(inner))) {
          layers.push_back(n.start_byte());
        }
      }
      return Descend::yes;
    });
    if (layers.empty()) return;
    for (auto b : layers) m_inline_reported.insert(b);
    emit(RuleId::module_built_in_forward, call,
         fmt::format("nn.{} of layers is built in forward(): new layers with fresh random weights at every call, on the "
                     "CPU after the module was moved, never trained",
                     layer),
         {snippet(call, 80)}, fmt::format("self.head = nn.{}(...) in __init__, then self.head(x) here", layer));
    return;
  }
  // `nn.Dropout(p)(x)` in forward(): no weights, but a module built at each call is never in eval
  // mode, so model.eval() does not turn this dropout off and inference stays random.
  if (!has_weights(layer)) {
    const bool dropout = layer == "Dropout" || layer == "Dropout1d" || layer == "Dropout2d" || layer == "Dropout3d" ||
                         layer == "AlphaDropout" || layer == "FeatureAlphaDropout";
    Node p = call.parent();
    if (dropout && in_forward() && in_module_method() && p.is(NodeKind::call) && p.field(Field::function) == call) {
      auto& f = emit(RuleId::module_built_in_forward, call,
           fmt::format("nn.{} is built and called at once in {}(): a module made at each call is always in training "
                       "mode, so model.eval() does not turn this dropout off and evaluation stays random",
                       layer, function_name()),
           {snippet(p, 80)},
           fmt::format("self.drop = nn.{}(...) in __init__, then self.drop(x); or F.dropout(x, p, training=self.training)",
                       layer));
      f.severity = facts::Severity::warning;  // not a device error: wrong results in evaluation
    }
    return;
  }
  // Called the moment it is built (`nn.Conv2d(...)(x)`), anywhere: a layer with fresh random
  // weights used once and thrown away. Otherwise only forward() of a module is judged (a method
  // that returns layers builds them for __init__).
  const bool called_at_once = call.parent().is(NodeKind::call) && call.parent().field(Field::function) == call;
  if (!called_at_once && (!in_forward() || !in_module_method())) return;
  // `self.head = nn.Linear(...)` in forward is lazy construction: registered, but built after the
  // module was moved. Still on the CPU: reported too, with its own words.
  Node p = call.parent();
  bool to_self = p.is(NodeKind::assignment) && p.field(Field::left).text().starts_with("self.");
  if (called_at_once && !in_forward()) {
    emit(RuleId::module_built_in_forward, call,
         fmt::format("nn.{} is built and called at once in {}(): a new layer with fresh random weights at every call, "
                     "on the CPU, never registered, never trained",
                     layer, function_name().empty() ? "module-level code" : function_name()),
         {snippet(call.parent(), 80)}, fmt::format("self.layer = nn.{}(...) in __init__, then self.layer(x) here", layer));
    return;
  }
  emit(RuleId::module_built_in_forward, call,
       to_self ? fmt::format("nn.{} is built in forward(): it is created on the CPU after the module was moved, and "
                             "again at every call",
                             layer)
               : fmt::format("nn.{} is built in forward(): a new layer with fresh random weights at every call, on the "
                             "CPU, never registered, never trained",
                             layer),
       {snippet(call, 80)}, fmt::format("self.layer = nn.{}(...) in __init__, then self.layer(x) here", layer));
}

namespace {

// The fix for a factory sized from an input x: Tensor has new_zeros/new_ones/new_empty/new_full/
// new_tensor, and torch has rand_like/randn_like/randint_like; the others take device=.
std::string shaped_factory_fix(std::string_view q) {
  auto f = last_component(q);
  if (f == "zeros" || f == "ones" || f == "empty" || f == "full" || f == "tensor") {
    return fmt::format("{}(..., device=x.device), or x.new_{}(...)", q, f);
  }
  if (f == "rand" || f == "randn" || f == "randint") {
    return fmt::format("{}(..., device=x.device), or torch.{}_like(x)", q, f);
  }
  return fmt::format("{}(..., device=x.device)", q);
}

}  // namespace

void Analyzer::check_forward_input_to_host(Node left, Node right) {
  // A module's (or an autograd Function's) forward() that rebinds its input to a host copy, maybe cast
  // (`x = x.cpu().to(torch.float32)`): on a GPU model every call copies the activations to the host,
  // and what it hands on is on the CPU.
  if (!left.is(NodeKind::identifier) || m_classes.empty() || m_function_nodes.empty() || function_name() != "forward" ||
      !right.is(NodeKind::call)) {
    return;
  }
  const Symbol* s = lookup(left.text());
  if (s == nullptr || !s->is_parameter) return;
  const std::string name(left.text());
  const auto text = right.text();
  if (!text.starts_with(name + ".cpu()") && !text.starts_with(name + ".detach().cpu()")) return;
  if (text.find("device") != std::string_view::npos || text.find(".cuda(") != std::string_view::npos) return;
  // Host work on purpose: NumPy, Python values.
  const auto body = m_function_nodes.back().text();
  for (std::string_view host : {".numpy()", ".tolist()", ".item()", "np.", "numpy.", "scipy"}) {
    if (body.find(host) != std::string_view::npos) return;
  }
  if (moved_later_by_name(right)) return;  // moved back: a round trip, but on purpose
  emit(RuleId::hardcoded_cpu, right,
       fmt::format("forward() rebinds its input `{}` to a CPU copy: on a GPU model every call copies the activations to "
                   "the host, and what follows runs on the CPU (or fails against the module's CUDA parameters)",
                   name),
       {snippet(right, 80)}, fmt::format("keep `{}` where it is: drop .cpu(), or use {}.to(dtype) for a cast", name, name));
}

void Analyzer::check_rebound_to_host(Node left, Node right, const Symbol* old, const Symbol& value) {
  if (old == nullptr || !left.is(NodeKind::identifier) || !in_loop() || m_function_nodes.empty() ||
      !right.is(NodeKind::call) || old->kind != Kind::tensor || old->placement == Placement::host || old->row < 0 ||
      old->reported || !value.made_on_host() || in_host_side_function()) {
    return;
  }
  // It was made on a device: the line that bound it gives one (`device=device`, `.to(device)`, `.cuda()`).
  const auto bound = row_text(old->row);
  if (bound.find("device") == std::string_view::npos && bound.find(".cuda(") == std::string_view::npos) return;
  if (bound.find("cpu") != std::string_view::npos || moved_later_by_name(right)) return;
  // Read again in the loop (the next iteration's call), not only after it.
  const std::string name(left.text());
  Node loop = right.parent();
  while (loop.valid() && !loop.is(NodeKind::for_statement) && !loop.is(NodeKind::while_statement) &&
         !loop.is(NodeKind::function_definition)) {
    loop = loop.parent();
  }
  if (!loop.valid() || loop.is(NodeKind::function_definition)) return;
  // Made on the device before the loop (a placement carried from one iteration to the next), and
  // not rebound in the CPU branch of a device test (`if use_gpu: ....cuda() else: ...`).
  if (old->row >= static_cast<int>(loop.row())) return;
  for (Node up = right.parent(); up.valid() && up != loop; up = up.parent()) {
    Node test;
    if (up.is(NodeKind::if_statement) || up.is(NodeKind::elif_clause)) test = up.field(Field::condition);
    if (up.is(NodeKind::conditional_expression)) test = up.named(1);
    if (up.is(NodeKind::else_clause) && up.parent().is(NodeKind::if_statement)) test = up.parent().field(Field::condition);
    if (!test.valid()) continue;
    auto t = test.text();
    if (util::contains_icase(t, "cuda") || util::contains_icase(t, "gpu") || t.find("device") != std::string_view::npos ||
        util::contains_icase(t, "cpu")) {
      return;
    }
  }
  const auto body = loop.text();
  if (body.find(name + ")") == std::string_view::npos && body.find(name + ",") == std::string_view::npos) return;
  Symbol* s = lookup(left.text());
  if (s != nullptr) s->reported = true;
  emit(RuleId::tensor_created_without_device, right,
       fmt::format("`{}` was made on the device ({}) and is rebound here, in a loop, to a tensor made on the CPU: from "
                   "the next iteration on, what reads `{}` gets a CPU tensor",
                   name, where(old->row), name),
       {snippet(right, 80)}, fmt::format("make it on the same device: {}.to(device), or device= in the factory", snippet(right, 40)));
}

void Analyzer::check_multi_gpu_only_move(Node call) {
  Node fn = call.field(Field::function);
  if (m_function_nodes.empty() || !fn.is(NodeKind::attribute)) return;
  const auto method = fn.field(Field::attribute).text();
  if (method != "cuda" && method != "to") return;
  Node object = fn.field(Field::object);
  if (!object.is(NodeKind::identifier) && !(object.is(NodeKind::attribute) && object.text().starts_with("self."))) return;
  if (method == "to" && !moves_to_accelerator(call, method)) return;
  if (infer(object).kind != Kind::module) return;
  // The nearest if whose test counts GPUs and asks for more than one, with no else.
  Node branch;
  for (Node up = call.parent(); up.valid() && !up.is(NodeKind::function_definition); up = up.parent()) {
    if (!up.is(NodeKind::if_statement)) continue;
    auto t = up.field(Field::condition).text();
    static const RE2 k_more_than_one(R"(device_count\(\)\s*(?:>\s*1|>=\s*2)|(?:1\s*<|2\s*<=)\s*(?:torch\.cuda\.)?device_count\(\)|(?:n_?gpus?|num_gpus?|gpu_count|ngpu)\s*(?:>\s*1|>=\s*2))");
    if (RE2::PartialMatch(t, k_more_than_one)) branch = up;
    break;
  }
  if (!branch.valid() || branch.field(Field::alternative).valid()) return;
  // Moved anywhere else in the function (before the if, or after it for one GPU): not this.
  const std::string name(object.text());
  const auto body = m_function_nodes.back().text();
  const auto before = body.substr(0, branch.start_byte() - m_function_nodes.back().start_byte());
  const auto after = body.substr(branch.end_byte() - m_function_nodes.back().start_byte());
  if (name_moved_in(before, name, false) || name_moved_in(after, name, false)) return;
  emit(RuleId::model_not_moved, call,
       fmt::format("`{}` is moved to the GPU only when more than one GPU is visible (the branch of `{}`): on a machine "
                   "with one GPU it stays on the CPU while its inputs may be moved",
                   name, snippet(branch.field(Field::condition), 50)),
       {snippet(call, 60)},
       fmt::format("move `{}` whenever a GPU is available (`if torch.cuda.is_available(): {}.cuda()`), and wrap it in "
                   "DataParallel only when there are several",
                   name, name));
}

void Analyzer::check_hand_fetched_batch(Node left, Node source) {
  if (!left.is(NodeKind::identifier) || m_function_nodes.empty() || !m_ff.framework_moves_batches ||
      !in_module_method() || function_name().ends_with("_step") || function_name() == "forward") {
    return;
  }
  Node bases = m_class_nodes.empty() ? Node() : m_class_nodes.back().field(Field::superclasses);
  if (!bases.valid() || bases.text().find("LightningModule") == std::string_view::npos) return;
  const std::string name(left.text());
  Node fn = m_function_nodes.back();
  const auto body = fn.text();
  const std::size_t from = left.end_byte() - fn.start_byte();
  const auto after = body.substr(std::min(from, body.size()));
  // Moved by hand (`batch.to(self.device)`, Lightning's transfer or move helpers): fine.
  for (std::string_view mover : {"transfer_batch_to_device", "move_data_to_device", "apply_to_collection", ".to(self.device",
                                 "to(device", ".cuda("}) {
    if (after.find(mover) != std::string_view::npos) return;
  }
  // The first call that is handed the batch (`self.compute_metrics(batch, 0)`, `self(batch)`).
  std::size_t use = std::string_view::npos;
  for (std::string_view open : {"(" + name + ",", "(" + name + ")", "(" + name + "["}) {
    use = std::min(use, after.find(open));
  }
  if (use == std::string_view::npos) return;
  const auto [row, column] = position_of(fn.start_byte() + from + use);
  emit_at(RuleId::inputs_not_moved, row, column,
          fmt::format("`{}` is fetched by hand from {} in {}(): Lightning moves the batches it hands to the *_step "
                      "methods, not this one, so it reaches the model on the CPU",
                      name, snippet(source, 40), function_name()),
          {fmt::format("`{}` bound at {}", name, where(left.row()))},
          fmt::format("{} = self.transfer_batch_to_device({}, self.device, 0) (or move its tensors with .to(self.device))",
                      name, name));
}

void Analyzer::check_optimizer_state_factory(Node call, std::string_view q) {
  if (m_class_nodes.empty() || m_function_nodes.empty() || function_name() == "__init__") return;
  Node bases = m_class_nodes.back().field(Field::superclasses);
  if (!bases.valid() || bases.text().find("Optimizer") == std::string_view::npos) return;
  if (!unplaced_sized_factory(call, q)) return;
  if (m_inline_reported.count(call.start_byte()) > 0) return;
  if (moved_as_made(call) || moved_later_by_name(call)) return;
  m_inline_reported.insert(call.start_byte());
  emit(RuleId::tensor_created_without_device, call,
       fmt::format("{}(...) in {}() of the optimizer {} has no device=: optimizer state made on the CPU meets "
                   "parameters and gradients that are on the GPU when the model is (\"Expected all tensors to be "
                   "on the same device\")",
                   q, function_name(), m_classes.back()),
       {snippet(call, 80)}, fmt::format("{}(..., device=p.device), or torch.zeros_like(p) for a state shaped like p", q));
}

void Analyzer::check_dtype_without_device(Node call, std::string_view q) {
  if (m_function_nodes.empty() || !is_torch_function(q)) return;
  auto last = last_component(q);
  if (!sized_factory(last) && last != "tensor" && last != "as_tensor") return;
  if (keyword(call, "device").valid() || has_splat(call)) return;
  // `dtype=preds.dtype`: the dtype of a tensor the function was given.
  Node dtype = keyword(call, "dtype");
  if (dtype.valid()) dtype = dtype.field(Field::value);
  if (!dtype.valid() || !dtype.is(NodeKind::attribute) || dtype.field(Field::attribute).text() != "dtype") return;
  Node source = dtype.field(Field::object);
  if (!source.is(NodeKind::identifier) || !mentions_parameter(source)) return;
  if (moved_as_made(call) || in_host_side_function() || m_inline_reported.count(call.start_byte()) > 0) return;
  // Moved under its name later in the function (`w = torch.tensor(v, dtype=x.dtype); w = w.to(x.device)`).
  if (moved_later_by_name(call)) return;
  m_inline_reported.insert(call.start_byte());
  emit(RuleId::tensor_created_without_device, call,
       fmt::format("{}(...) copies `{}`'s dtype but not its device: it is made on the CPU while `{}` may be on the "
                   "GPU (\"Expected all tensors to be on the same device\", or a copy at every call)",
                   q, source.text(), source.text()),
       {snippet(call, 80)}, fmt::format("add device={}.device next to dtype={}.dtype", source.text(), source.text()));
}

void Analyzer::check_host_factory(Node call, std::string_view q) {
  // A module's forward() is judged even in a file that places nothing itself (model.py): whoever
  // uses the module moves it.
  if (m_function_nodes.empty() || (!m_ff.uses_device && !m_ff.framework_moves_batches && !in_module_method() &&
                                    !called_from_forward() && !forward_helper())) {
    return;
  }
  if (!unplaced_sized_factory(call, q)) return;
  // Moved right away, maybe after a reshape (`torch.arange(n).view(-1, 1).to(device)`):
  // tensor_created_then_moved's business.
  if (moved_as_made(call)) return;
  if (in_host_side_function() || m_inline_reported.count(call.start_byte()) > 0) return;
  // One branch of a device test (`if use_cuda: ....cuda() else: torch.zeros(...)`): the CPU one.
  for (Node up = call.parent(); up.valid() && !up.is(NodeKind::function_definition); up = up.parent()) {
    Node test;
    if (up.is(NodeKind::if_statement) || up.is(NodeKind::elif_clause)) test = up.field(Field::condition);
    if (up.is(NodeKind::conditional_expression)) test = up.named(1);
    if (!test.valid()) continue;
    auto t = test.text();
    if (t.find("cuda") != std::string_view::npos || t.find("gpu") != std::string_view::npos ||
        t.find("device") != std::string_view::npos || t.find("cpu") != std::string_view::npos) {
      return;
    }
  }
  Node args = call.field(Field::arguments);
  // In a module's forward() the inputs are where the module is: any tensor made there without a
  // device is on the CPU while they may not be (the message says whether its size is an input's).
  // The same holds in a helper that builds what forward() runs on (init_hidden, a mask helper
  // forward() calls), unless its result is moved afterwards. Elsewhere only a size read off an
  // input counts: a positional argument or a size keyword.
  // A function forward() runs and whose result its caller uses as made counts as forward() too, and
  // so does a method that runs the module itself (sample(), generate()).
  const bool helper = !in_module_method() && forward_helper() && !moves_after(call) && !compared_on_host(call) &&
                      joined_with_parameter(call);
  const bool in_module_forward =
      (in_module_method() && (in_forward() || runtime_helper(call) || runs_own_forward())) || helper;
  // A method whose result forward() copies to the device where it calls it
  // (`self.positions(n).to(x.device)`): a host allocation and a copy at every call.
  if (!in_module_forward && in_module_method() && !in_forward() && gpu_code() && sized_factory(last_component(q)) &&
      !runs_once_per_loop(call) && forward_moves_result(function_name(), true) == true && !moved_later_by_name(call)) {
    m_inline_reported.insert(call.start_byte());
    emit(RuleId::tensor_created_then_moved, call,
         fmt::format("{}(...) is made on the CPU in {}(), which forward() calls at every step and whose result it then "
                     "copies to the device: a host allocation and a copy at every call",
                     q, function_name()),
         {snippet(call, 80)},
         fmt::format("{}(..., device=<the input's device>) in {}(), or a buffer made once in __init__", q,
                     function_name()));
    return;
  }
  if (in_module_forward && moved_later_by_name(call)) return;
  // `self.state = torch.FloatTensor(obs)`, and the method moves `self.state` before it runs the module.
  if (in_module_forward) {
    Node p = call.parent();
    while (p.valid() && (p.is(NodeKind::attribute) || p.is(NodeKind::call) || p.is(NodeKind::argument_list))) p = p.parent();
    if (p.is(NodeKind::assignment) && p.field(Field::left).is(NodeKind::attribute)) {
      const std::string target(p.field(Field::left).text());
      auto body = m_function_nodes.back().text();
      if (body.find(target + ".to(") != std::string_view::npos || body.find(target + ".cuda(") != std::string_view::npos) {
        return;
      }
    }
  }
  bool shape = false;
  for (std::uint32_t i = 0; args.valid() && i < args.named_count() && !shape; ++i) {
    Node a = args.named(i);
    if (!in_module_forward && a.is(NodeKind::keyword_argument)) {
      auto k = a.field(Field::name).text();
      if (k != "size" && k != "end" && k != "start" && k != "n" && k != "high" && k != "low") continue;
    }
    shape = mentions_input_shape(a);
  }
  if (!in_module_forward && !shape) return;
  m_inline_reported.insert(call.start_byte());
  // In a file (and project) that never names a GPU, a latent bug: advice until the module moves.
  const bool gpu = gpu_code();
  if (!shape) {
    auto& f = emit(RuleId::tensor_created_without_device, call,
         helper ? fmt::format("{}(...) is made without device= in {}(), which a module's forward() runs and whose "
                              "result it uses as made: it is on the CPU while the module and its inputs may be on "
                              "the GPU",
                              q, function_name())
                : fmt::format("{}(...) is made in {}() of a module without device=: it is on the CPU while the module "
                              "and its inputs may be on the GPU",
                              q, function_name()),
         {snippet(call, 80)}, fmt::format("{}(..., device=x.device) for an input x", q));
    // Joined with what forward() computes from its inputs: on a GPU that fails, whether or not this file
    // names one.
    if (!gpu && !joined_later(call)) f.severity = facts::Severity::info;
    if (helper) {
      Node fn = m_function_nodes.back();
      m_helper_route_findings.emplace_back(m_out.findings.size() - 1, fn.row(),
                                           fn.row() + static_cast<int>(util::count_byte(fn.text(), '\n')));
    }
    return;
  }
  // Shaped like an input and computed with in arithmetic (`mu + sigma * torch.randn(mu.shape)`):
  // on a GPU that line fails, whether or not this file names one; a module is written to be moved.
  bool in_arithmetic = false;
  if (in_module_method() && function_name() != "__init__") {
    Node up = call.parent();
    for (int guard = 0; guard < 16 && up.valid(); ++guard, up = up.parent()) {
      if (up.is(NodeKind::binary_operator)) {
        auto op = up.child(1).text();
        if (op == "+" || op == "-" || op == "*" || op == "/" || op == "@") in_arithmetic = true;
        continue;
      }
      if (up.is(NodeKind::parenthesized_expression) || up.is(NodeKind::unary_operator)) continue;
      break;
    }
    // `(torch.randn(x.shape) * 0.1).to(x.device)`: moved once made.
    if (in_arithmetic && up.is(NodeKind::attribute)) {
      auto m = up.field(Field::attribute).text();
      if (m == "to" || m == "cuda" || m == "type_as") {
        return;
      }
    }
  }
  auto& f = emit(RuleId::tensor_created_without_device, call,
       fmt::format("{}(...) takes its size from an input tensor's shape but no device: it is made on the CPU while "
                   "that input may be on the GPU (\"Expected all tensors to be on the same device\", or a silent copy)",
                   q),
       {snippet(call, 80)}, shaped_factory_fix(q));
  if (!gpu && !in_arithmetic && !joined_later(call)) f.severity = facts::Severity::info;
}

void Analyzer::note_list_append(Node call) {
  // `losses.append(torch.tensor(0.0))` in one branch, `losses.append(<from the inputs>)` in another,
  // then torch.stack(losses): stack and cat take tensors of one device only.
  if ((!gpu_code() && !called_from_forward()) || m_function_nodes.empty() || in_host_side_function()) return;
  Node fn = call.field(Field::function);
  if (!fn.is(NodeKind::attribute) || fn.field(Field::attribute).text() != "append") return;
  Node list = fn.field(Field::object);
  if (!list.is(NodeKind::identifier)) return;
  Node args = call.field(Field::arguments);
  if (!args.valid() || args.named_count() != 1) return;
  Node v = args.named(0);
  auto& feed = m_list_feeds[{m_function_nodes.back().start_byte(), std::string(list.text())}];
  // The factory may be followed by casts (`torch.tensor(0).float()`), never by a move.
  Node factory = v;
  for (int guard = 0; guard < 4 && factory.is(NodeKind::call); ++guard) {
    Node f = factory.field(Field::function);
    if (!f.is(NodeKind::attribute)) break;
    auto m = f.field(Field::attribute).text();
    if (m != "float" && m != "long" && m != "int" && m != "double" && m != "half" && m != "bool") break;
    factory = f.field(Field::object);
  }
  if (factory.is(NodeKind::call) && !keyword(factory, "device").valid()) {
    std::string fq = qualified_callee(factory);
    auto last = last_component(fq);
    if (is_torch_function(fq) && (sized_factory(last) || last == "tensor")) {
      if (feed.host_row < 0) feed.note_host(factory.start_byte(), factory.row(), factory.column(), std::string(snippet(factory, 40)));
      return;
    }
  }
  Symbol s = infer(v);
  // `one = torch.ones(1)` made earlier and appended by name.
  if (v.is(NodeKind::identifier) && s.made_on_host() && s.sized && !s.zero_dim && s.row >= 0) {
    // No factory node here: a byte that matches none in m_inline_reported.
    if (feed.host_row < 0) feed.note_host(0xffffffffu, s.row, s.column, fmt::format("`{}`", v.text()));
    return;
  }
  if (s.placement == Placement::accelerator || (s.placement != Placement::host && mentions_parameter(v))) feed.input = true;
}

void Analyzer::check_joined(Node call, std::string_view q) {
  // torch.cat / torch.stack of a list that joins a tensor made here without a device with a value
  // computed from the function's inputs.
  if ((!gpu_code() && !in_module_method() && !class_holds_device() && !called_from_forward()) || m_function_nodes.empty()) {
    return;
  }
  if (q != "torch.cat" && q != "torch.stack" && q != "torch.concat" && q != "torch.hstack" && q != "torch.vstack") return;
  Node list = positional(call, 0);
  if (list.is(NodeKind::identifier)) {
    auto it = m_list_feeds.find({m_function_nodes.back().start_byte(), std::string(list.text())});
    if (it == m_list_feeds.end() || it->second.host_row < 0 || !it->second.input || it->second.reported ||
        m_inline_reported.count(it->second.host_byte) > 0) {
      return;
    }
    it->second.reported = true;
    m_inline_reported.insert(it->second.host_byte);
    emit_at(RuleId::tensor_created_without_device, it->second.host_row, it->second.host_column,
            fmt::format("{} is made on the CPU (no device=) and appended to `{}`, which also holds tensors computed "
                        "from the function's input; {}() at {} takes tensors of one device only (\"Expected all "
                        "tensors to be on the same device\")",
                        it->second.host_text, list.text(), last_component(q), where(call.row())),
            {snippet(call, 80)}, "create it with device=<input>.device, or <input>.new_zeros(())");
    return;
  }
  if (!list.is(NodeKind::list) && !list.is(NodeKind::tuple)) return;
  if (in_host_side_function()) return;
  Symbol* host = nullptr;
  Node host_node;
  bool input = false;
  Node inline_host;  // `torch.cat([x, torch.zeros(n)])`
  for (std::uint32_t i = 0; i < list.named_count(); ++i) {
    Node e = list.named(i);
    if (e.is(NodeKind::call) && !inline_host.valid()) {
      Symbol made = infer(e);
      if (made.made_on_host()) {
        std::string fq = qualified_callee(e);
        if (sized_factory(last_component(fq))) {
          inline_host = e;
          continue;
        }
      }
    }
    // `self.history = torch.cat([self.history, gap])`: state of a plain class grown at each call.
    if (e.is(NodeKind::identifier) || (e.is(NodeKind::attribute) && e.text().starts_with("self.") && state_method())) {
      Symbol* s = lookup(e.text());
      // A function's host tensor stays on the host whatever it was given (`coord_channels(x.shape)`).
      if (s != nullptr && s->made_on_host() && (!s->from_param || s->built_row >= 0)) {
        host = s;
        host_node = e;
        continue;
      }
    }
    Symbol es = infer(e);
    if ((mentions_parameter(e) && !es.made_on_host()) || es.placement == Placement::accelerator) input = true;
  }
  if (inline_host.valid() && input) {
    emit(RuleId::tensor_created_without_device, inline_host,
         fmt::format("{} is made on the CPU (no device=) and joined here with tensors computed from the function's "
                     "input, which may be on the GPU",
                     snippet(inline_host, 40)),
         {snippet(call, 80)}, "create it with device=<input>.device, or <input>.new_zeros(...)");
    return;
  }
  if (host == nullptr || !input || host->reported) return;
  host->reported = true;
  if (host->built_row >= 0) {  // `pos = coord_channels(img.shape)`: the helper made it on the host
    m_joined_built_rows.push_back(host->built_row);
    // The helper's own factory, reported as advice where it was made (a file that names no GPU): joined
    // here with what the function computes from its input, it is a warning there too.
    for (std::size_t i = 0; i < m_out.findings.size(); ++i) {
      auto& f = m_out.findings[i];
      if (m_positions[i].first == host->built_row && f.severity == facts::Severity::info &&
          f.id == rule(RuleId::tensor_created_without_device).info.id) {
        f.severity = facts::Severity::warning;
      }
    }
    emit(RuleId::tensor_created_without_device, call,
         fmt::format("`{}` comes from a function that makes it on the CPU (no device=, at {}) and is joined here with "
                     "tensors computed from the function's input, which may be on the GPU",
                     host_node.text(), where(host->built_row)),
         {snippet(call, 80)}, fmt::format("create it with device= in that function, or `{}.to(<input>.device)` here", host_node.text()));
    return;
  }
  emit_at(RuleId::tensor_created_without_device, host->row, host->column,
          fmt::format("`{}` is made on the CPU (no device=) and joined at {} with tensors computed from the function's "
                      "input, which may be on the GPU",
                      host_node.text(), where(call.row())),
          {snippet(call, 80)}, fmt::format("create `{}` with device=<input>.device, or <input>.new_zeros(...)", host_node.text()));
}

void Analyzer::check_accumulator(Node target, Node value, Node at) {
  // `total = torch.zeros(n)` then, in a loop, `total += out` or `total[i] = out` with `out` on the
  // device: the accumulator was made on the CPU.
  if (target.is(NodeKind::subscript)) target = target.field(Field::value);
  if (!target.is(NodeKind::identifier) && !target.is(NodeKind::attribute)) return;
  // `self.mean += delta` in a method of a plain class: state kept across calls (running statistics,
  // a history) accumulates at every call as a loop body does.
  const bool state = target.text().starts_with("self.") && state_method();
  if (!in_loop() && !state) return;
  Symbol* acc = lookup(target.text());
  if (acc == nullptr || !acc->made_on_host() || !acc->sized || acc->reported) return;
  // A value moved to the accumulator's own device (`.to(device=acc.device)`) follows it.
  if (value.text().find(std::string(target.text()) + ".device") != std::string_view::npos) return;
  Symbol v = infer(value);
  // A 0-dim accumulator (`torch.tensor(0.0)`) that takes values computed from the function's tensor
  // inputs, in a file that uses a GPU: `crps += loss(pred, target)` fails once they are on it.
  // A tensor value computed from the function's arguments (not read back to a number).
  const bool from_arguments = mentions_parameter(value) && v.kind != Kind::module &&
                              value.text().find(".item()") == std::string_view::npos && v.placement != Placement::host;
  // `self.` state grows from them too, unless the value was brought to the host.
  // In a module's method (a LightningModule's validation_epoch_end summing its steps' outputs), the
  // arguments are where the module runs.
  const bool module_inputs = in_module_method() && gpu_code() && function_name() != "__init__" && acc->sized &&
                             value.text().find(".cpu()") == std::string_view::npos && !v.made_on_host();
  const bool from_inputs =
      from_arguments && ((acc->zero_dim && gpu_code()) || module_inputs ||
                         (state && (gpu_code() || class_holds_device()) &&
                          value.text().find(".cpu()") == std::string_view::npos && !v.made_on_host()));
  if ((v.placement != Placement::accelerator && !from_inputs) || v.kind == Kind::module || v.kind == Kind::device) return;
  acc->reported = true;
  if (state && v.placement != Placement::accelerator) {
    emit_at(RuleId::tensor_created_without_device, acc->row, acc->column,
            fmt::format("`{}` is made on the CPU (no device=) and takes values computed from {}()'s tensor arguments "
                        "at {}, which may be on the GPU: \"Expected all tensors to be on the same device\"",
                        target.text(), function_name(), where(at.row())),
            {snippet(at, 80)}, fmt::format("create `{}` on the device of the values it takes (device=x.device)", target.text()));
    return;
  }
  if (module_inputs && v.placement != Placement::accelerator) {
    emit_at(RuleId::tensor_created_without_device, acc->row, acc->column,
            fmt::format("`{}` is made on the CPU (no device=) and takes values computed from {}()'s arguments at {}, "
                        "which are where the module runs: on a GPU, \"Expected all tensors to be on the same device\"",
                        target.text(), function_name(), where(at.row())),
            {snippet(at, 80)}, fmt::format("create `{}` with device=self.device (or on the device of the values it takes)", target.text()));
    return;
  }
  emit_at(RuleId::tensor_created_without_device, acc->row, acc->column,
          fmt::format("`{}` is made on the CPU (no device=) and takes values from the device at {}: \"Expected all "
                      "tensors to be on the same device\", or a copy at every step",
                      target.text(), where(at.row())),
          {snippet(at, 80)}, fmt::format("create `{}` with device=device (or accumulate a Python number)", target.text()));
}

void Analyzer::check_binary(Node op) {
  // `freqs * coords`, `total = total + loss_term`: a tensor made here without a device meets a
  // value computed from the function's input (or one on the device).
  if (m_function_nodes.empty() || op.named_count() < 2) return;
  if (!gpu_code() && !in_module_method() && !called_from_forward()) return;
  if (in_host_side_function()) return;
  Node a = op.named(0), b = op.named(op.named_count() - 1);
  // `(pred == labels)` with `pred` on the device and `labels` an unmoved part of a batch whose
  // other part was moved: the part was forgotten.
  for (int side = 0; side < 2; ++side) {
    Node part = side == 0 ? a : b, other = side == 0 ? b : a;
    if (!part.is(NodeKind::identifier)) continue;
    Symbol* s = lookup(part.text());
    if (s == nullptr || s->kind != Kind::batch || s->loop < 0 || s->reported) continue;
    const LoopState& loop = m_all_loops[static_cast<std::size_t>(s->loop)];
    if (loop.moved_row < 0 || infer(other).placement != Placement::accelerator) continue;
    s->reported = true;
    emit(RuleId::inputs_not_moved, part,
         fmt::format("`{}` from `{}` meets `{}`, a device tensor, on the CPU: another part of the same batch was moved "
                     "at {}, this one was not",
                     part.text(), loop.source, snippet(other, 30), where(loop.moved_row)),
         {fmt::format("`{}` bound at {}", part.text(), where(loop.row))},
         fmt::format("{} = {}.to(device)", part.text(), part.text()));
    return;
  }
  // `v * values[i]` where `values` got both a tensor made here on the host and values from the
  // function's inputs: its elements meet each other.
  for (Node side : {a, b}) {
    if (m_list_feeds.empty()) break;
    if (!side.is(NodeKind::subscript) || !side.field(Field::value).is(NodeKind::identifier)) continue;
    auto it = m_list_feeds.find({m_function_nodes.back().start_byte(), std::string(side.field(Field::value).text())});
    if (it == m_list_feeds.end() || it->second.host_row < 0 || !it->second.input || it->second.reported) continue;
    it->second.reported = true;
    emit_at(RuleId::tensor_created_without_device, it->second.host_row, it->second.host_column,
            fmt::format("{} is made on the CPU (no device=) and appended to `{}`, which also holds tensors computed "
                        "from the function's input; its elements meet at {} (\"Expected all tensors to be on the same "
                        "device\")",
                        it->second.host_text, side.field(Field::value).text(), where(op.row())),
            {snippet(op, 80)}, "create it with device=<input>.device, or <input>.new_ones(...)");
    return;
  }
  // `torch.arange(n)[None, :] < lengths[:, None]`: a factory written inline, maybe reshaped; or host
  // data made a tensor inline (`torch.tensor(self.quantiles).unsqueeze(0) * losses`).
  for (int side = 0; side < 2; ++side) {
    Node factory = inline_host_factory(side == 0 ? a : b), other = side == 0 ? b : a;
    bool data = false;
    if (!factory.valid()) {
      factory = inline_host_data_factory(side == 0 ? a : b);
      data = factory.valid();
    }
    if (!factory.valid() || m_inline_reported.count(factory.start_byte()) > 0) continue;
    // The other side is a tensor: on the device, or an input sliced as a tensor is (`lengths[:, None]`),
    // not a number computed from an input (`-emb`, `head_dim`).
    Symbol o = infer(other);
    bool sliced = false;
    for_each_node(other, [&](Node n) {
      if (sliced) return Descend::no;
      if (n.is(NodeKind::subscript)) {
        auto t = n.text().substr(n.field(Field::value).text().size());
        sliced = t.find(':') != std::string_view::npos || t.find("None") != std::string_view::npos;
      }
      return Descend::yes;
    });
    bool input = o.placement == Placement::accelerator || (o.kind != Kind::module && sliced && mentions_parameter(other));
    // Host data meets a tensor a module of the function computed from its inputs (`losses =
    // self.loss_fn(outputs, target)`), in a module's method.
    if (data && !input && other.is(NodeKind::identifier) && in_module_method()) {
      const Symbol* s = lookup(other.text());
      input = s != nullptr && s->from_param && !s->scalar && !s->maybe_number && !s->from_shape &&
              s->kind != Kind::module && s->row >= 0 && row_text(s->row).find("self.") != std::string_view::npos;
    }
    if (!input || o.placement == Placement::host || other.text().find(".cpu()") != std::string_view::npos ||
        inline_host_factory(other).valid() || inline_host_data_factory(other).valid()) {
      continue;
    }
    m_inline_reported.insert(factory.start_byte());
    emit(RuleId::tensor_created_without_device, factory,
         fmt::format("{} is made on the CPU (no device=) and meets `{}`, which comes from the function's input and may "
                     "be on the GPU",
                     snippet(factory, 40), snippet(other, 30)),
         {snippet(op, 80)}, "create it with device=<input>.device, or <input>.new_ones(...)");
    return;
  }
  for (int side = 0; side < 2; ++side) {
    Node host_side = side == 0 ? a : b, other = side == 0 ? b : a;
    // `window.view(1, 1, n)`: a reshape keeps the tensor where it is.
    for (int guard = 0; guard < 4 && host_side.is(NodeKind::call) && host_side.field(Field::function).is(NodeKind::attribute);
         ++guard) {
      const std::string_view m = host_side.field(Field::function).field(Field::attribute).text();
      if (m != "view" && m != "reshape" && m != "unsqueeze" && m != "expand" && m != "float" && m != "pow" &&
          m != "flip" && m != "t") {
        break;
      }
      Node inner = host_side.field(Field::function).field(Field::object);
      if (!inner.is(NodeKind::identifier) && !inner.is(NodeKind::call)) break;
      host_side = inner;
    }
    // `pixel_grid(w, h) / res + offset`: a function of this file made it on the host.
    if (!host_side.is(NodeKind::identifier)) {
      Symbol h = infer(host_side);
      if (!h.made_on_host() || !h.sized || h.zero_dim || h.built_row < 0 || h.row >= 0) continue;
      Symbol o = infer(other);
      if (o.placement != Placement::accelerator || o.kind == Kind::module) continue;
      m_joined_built_rows.push_back(h.built_row);
      emit(RuleId::tensor_created_without_device, op,
           fmt::format("`{}` is made on the CPU by a function of this file (no device=, at {}) and meets `{}`, which is "
                       "on the device",
                       snippet(host_side, 40), where(h.built_row), snippet(other, 30)),
           {snippet(op, 80)}, "create it with device= in that function, or move it to the other operand's device");
      return;
    }
    Symbol* s = lookup(host_side.text());
    if (s == nullptr || !s->made_on_host() || !s->sized || s->zero_dim || s->from_param || s->reported || s->row < 0) {
      continue;
    }
    Symbol o = infer(other);
    bool input = o.placement == Placement::accelerator || (o.kind != Kind::module && mentions_parameter(other));
    // A tensor this function computed from a tensor parameter (`frames = torch.fft.irfft(spec)`).
    if (!input && other.is(NodeKind::identifier)) {
      const Symbol* t = lookup(other.text());
      input = t != nullptr && t->from_param && !t->scalar && !t->maybe_number && !t->from_shape &&
              t->kind == Kind::tensor && !t->made_on_host();
    }
    if (!input || o.made_on_host()) continue;
    s->reported = true;
    emit_at(RuleId::tensor_created_without_device, s->row, s->column,
            fmt::format("`{}` is made on the CPU (no device=) and meets `{}` at {}, which comes from the function's "
                        "input and may be on the GPU",
                        host_side.text(), snippet(other, 30), where(op.row())),
            {snippet(op, 80)}, fmt::format("create `{}` with device=<input>.device (or start from a Python number)", host_side.text()));
    return;
  }
  check_host_factory_in_placing_function(a, b, op);
  check_host_module_output(a, b, op);
}

void Analyzer::check_lazy_cache_attribute(Node left, Node right) {
  if (left.field(Field::object).text() != "self" || !in_module_method() || function_name() == "__init__") return;
  if (!right.is(NodeKind::call)) return;
  const std::string attr(left.field(Field::attribute).text());
  const std::string name = "self." + attr;
  if (m_lazy_cache_reported.count(name) > 0) return;
  // Built under a test in this method that is about the cache (`self.mask is None`, a batch size
  // that changed), not about devices.
  Node fn = m_function_nodes.back();
  Node test;
  for (Node p = left.parent(); p.valid() && !(p == fn); p = p.parent()) {
    if (p.is(NodeKind::if_statement)) {
      test = p.field(Field::condition);
      break;
    }
  }
  if (!test.valid() || test.text().find("self.") == std::string_view::npos) return;
  if (test.text().find("device") != std::string_view::npos || test.text().find("is_cuda") != std::string_view::npos) return;
  // Made where an input is: the method names a device (`device=x.device`, `.to(device)`). Read once
  // per method.
  auto names = m_function_names_device.find(fn.start_byte());
  if (names == m_function_names_device.end()) {
    names = m_function_names_device.emplace(fn.start_byte(), fn.text().find("device") != std::string_view::npos).first;
  }
  if (!names->second) return;
  // Declared empty in __init__ of the same class, never registered, moved or overridden. Read once
  // per class and attribute, for at most k_max_lazy_searches of them (each read is a pass over the file).
  constexpr std::size_t k_max_lazy_searches = 64;
  const std::string_view text = m_src.text;
  if (!m_file_moves_by_override) {
    m_file_moves_by_override = text.find("def _apply(") != std::string_view::npos || text.find("def to(") != std::string_view::npos;
  }
  if (*m_file_moves_by_override) return;
  const std::string_view cls = m_class_nodes.back().text();
  const auto key = std::make_pair(m_class_nodes.back().start_byte(), attr);
  auto known = m_lazy_cache_declared.find(key);
  if (known == m_lazy_cache_declared.end()) {
    if (m_lazy_cache_declared.size() >= k_max_lazy_searches) return;
    std::size_t decl_at = cls.find(name + " = None");
    if (decl_at != std::string_view::npos) {
      // One pass over the uses of the name: moved by hand, or registered.
      for (std::size_t at = text.find(attr); at != std::string_view::npos; at = text.find(attr, at + 1)) {
        auto after = text.substr(at + attr.size(), 8);
        auto before = text.substr(at >= 17 ? at - 17 : 0, at >= 17 ? 17 : at);
        if (after.starts_with(".to(") || after.starts_with(".cuda(") || before.ends_with("register_buffer(\"") ||
            before.ends_with("register_buffer('")) {
          decl_at = std::string_view::npos;
          break;
        }
      }
    }
    known = m_lazy_cache_declared.emplace(key, decl_at).first;
  }
  const std::size_t decl_at = known->second;
  if (decl_at == std::string_view::npos) return;
  // The value is a tensor: a torch call, a method of this class, or a tensor method on a local.
  const std::string q = qualified_callee(right);
  Node callee = right.field(Field::function);
  const bool tensor_like = is_torch_function(q) || (callee.is(NodeKind::attribute) && callee.field(Field::object).text() == "self") ||
                           infer(right).kind == Kind::tensor ||
                           (callee.is(NodeKind::attribute) && infer(callee.field(Field::object)).kind == Kind::tensor);
  if (!tensor_like) {
    // `idx.view(...).expand(...)` of a local made on a device in this method.
    Node root = right;
    for (int guard = 0; guard < 8 && root.is(NodeKind::call) && root.field(Field::function).is(NodeKind::attribute); ++guard) {
      root = root.field(Field::function).field(Field::object);
    }
    if (!root.is(NodeKind::identifier)) return;
    Symbol* local = lookup(root.text());
    if (local == nullptr || local->kind != Kind::tensor) return;
  }
  m_lazy_cache_reported.insert(name);
  const std::size_t decl_byte = m_class_nodes.back().start_byte() + decl_at;
  auto [row, column] = position_of(decl_byte);
  emit_at(RuleId::tensor_attribute_not_buffer, row, column,
          fmt::format("`{}` caches a tensor that {}() builds on the device of the call that fills it ({}), but it is a "
                      "plain attribute: after model.to(...) (or .half()) the cache stays behind, and the next call "
                      "mixes devices; a buffer moves with the module",
                      name, function_name(), where(left.row())),
          {snippet(left.parent(), 80)}, fmt::format("self.register_buffer(\"{}\", None, persistent=False)", attr));
}

void Analyzer::check_host_indexed_by_device(Node sub) {
  // Host-side code (a sampler, a collate function) is no exception: a device index fails there too.
  if (m_function_nodes.empty()) return;
  if (!gpu_code() && !in_module_method() && !called_from_forward()) return;
  Node table = sub.field(Field::value), index = sub.field(Field::subscript);
  if (!table.is(NodeKind::identifier) || !index.valid() || index.next_named().valid()) return;  // one index
  if (!index.is(NodeKind::identifier) && !index.is(NodeKind::attribute) && !index.is(NodeKind::call)) return;
  Symbol* s = lookup(table.text());
  if (s == nullptr || !s->made_on_host() || !s->sized || s->zero_dim || s->from_param || s->reported || s->row < 0 ||
      s->row < static_cast<int>(m_function_nodes.back().row())) {
    return;
  }
  Symbol i = infer(index);
  if (i.placement != Placement::accelerator || i.kind == Kind::module) return;
  s->reported = true;
  emit_at(RuleId::tensor_created_without_device, s->row, s->column,
          fmt::format("`{}` is made on the CPU (no device=) and indexed at {} with `{}`, which is on the device: the "
                      "lookup fails (\"indices should be either on cpu or on the same device as the indexed tensor\")",
                      table.text(), where(sub.row()), snippet(index, 30)),
          {snippet(sub, 80)}, fmt::format("create `{}` with device={}.device", table.text(), snippet(index, 30)));
}

// `x + self.pos_embedder(n)` in a module's method, where pos_embedder is a module class of this file
// whose forward()/__call__() makes its result on the host (sinusoid positions from a length):
// model.to(device) moves parameters and buffers, not what a call makes.
void Analyzer::check_host_module_output(Node a, Node b, Node op) {
  if (m_class_host_returns.empty() || m_class_nodes.empty() || !in_module_method()) return;
  for (int side = 0; side < 2; ++side) {
    Node host_side = side == 0 ? a : b, other = side == 0 ? b : a;
    if (!host_side.is(NodeKind::call)) continue;
    Node fn = host_side.field(Field::function);
    if (!fn.is(NodeKind::attribute) || fn.field(Field::object).text() != "self") continue;
    // The class `self.<attr> = Cls(...)` names in this class, read once per class and attribute.
    const std::string attr(fn.field(Field::attribute).text());
    auto key = std::make_pair(m_class_nodes.back().start_byte(), attr);
    auto known = m_attribute_class.find(key);
    if (known == m_attribute_class.end()) {
      const std::string_view cls_text = m_class_nodes.back().text();
      const std::string assign = "self." + attr + " = ";
      std::string cls;
      if (auto at = cls_text.find(assign); at != std::string_view::npos) {
        auto rest = cls_text.substr(at + assign.size(), 80);
        if (auto paren = rest.find('('); paren != std::string_view::npos) cls = std::string(util::trim(rest.substr(0, paren)));
      }
      known = m_attribute_class.emplace(std::move(key), std::move(cls)).first;
    }
    if (known->second.empty()) continue;
    auto it = m_class_host_returns.find(known->second);
    if (it == m_class_host_returns.end() || it->first == m_classes.back()) continue;
    Symbol o = infer(other);
    if (o.made_on_host() || o.kind == Kind::module || plain_number(other)) continue;
    if (!m_host_output_reported.insert(it->first).second) return;
    emit_at(RuleId::tensor_created_without_device, it->second.first, it->second.second,
            fmt::format("{} makes what it returns on the CPU (no device=), where model.to(device) cannot reach it: "
                        "{}.{} combines it with `{}` at {}",
                        it->first, m_classes.back(), function_name(), snippet(other, 30), where(op.row())),
            {snippet(op, 80)}, "create it on the caller's device (pass x.device, or register the table as a buffer)");
    return;
  }
}

// `beam.unsqueeze(-1) + logits` in a function that gives its other factories a device
// (`torch.full(..., device=self.init[0].device)`): the author places tensors by hand, and `beam`, a
// factory of the same function without device=, was missed. It meets a value that is no number and
// nothing made on the host.
void Analyzer::check_host_factory_in_placing_function(Node a, Node b, Node op) {
  auto placing = m_device_factory_row.find(m_functions.back());
  if (placing == m_device_factory_row.end()) return;
  for (int side = 0; side < 2; ++side) {
    Node host_side = side == 0 ? a : b, other = side == 0 ? b : a;
    // `beam.unsqueeze(-1)`, `mask.float()`: the name under methods that keep its placement.
    Node root = host_side;
    for (int guard = 0; guard < 4 && root.is(NodeKind::call) && root.field(Field::function).is(NodeKind::attribute); ++guard) {
      auto method = root.field(Field::function).field(Field::attribute).text();
      if (method != "unsqueeze" && method != "view" && method != "reshape" && method != "expand" && method != "float" &&
          method != "long" && method != "squeeze" && method != "t" && method != "permute" && method != "flatten") {
        break;
      }
      root = root.field(Field::function).field(Field::object);
    }
    if (!root.is(NodeKind::identifier)) continue;
    Symbol* s = lookup(root.text());
    if (s == nullptr || !s->made_on_host() || !s->sized || s->zero_dim || s->reported || s->row < 0 ||
        s->row < static_cast<int>(m_function_nodes.back().row())) {
      continue;
    }
    if (!other.is(NodeKind::identifier) && !other.is(NodeKind::attribute) && !other.is(NodeKind::subscript) &&
        !other.is(NodeKind::call)) {
      continue;
    }
    Symbol o = infer(other);
    if (o.made_on_host() || o.kind == Kind::module || o.kind == Kind::device || o.is_parameter || o.scalar ||
        other.text().find(".cpu()") != std::string_view::npos || o.from_shape) {
      continue;
    }
    // Math on numbers (`math.log(n) / 2`); a name of no known kind is judged by what it says it is.
    const bool name = other.is(NodeKind::identifier) || other.is(NodeKind::attribute);
    if (!name && plain_number(other)) continue;
    // A name that says it is a size, a count or an index, not a tensor.
    if (name) {
      static const RE2 k_count(
          R"re((?:^|\.)(?:[nkijt]|idx|index|num_\w+|n_\w+|\w*_?size|\w*count|\w*len(?:gth)?\w*|steps?|epochs?|dim|\w+_dim|eps|scale|temperature|alpha|beta|gamma)$)re");
      if (RE2::PartialMatch(other.text(), k_count)) continue;
    }
    s->reported = true;
    emit_at(RuleId::tensor_created_without_device, s->row, s->column,
            fmt::format("`{}` is made on the CPU (no device=), while this function gives its other tensors a device (at "
                        "{}); it meets `{}` at {}",
                        root.text(), where(placing->second), snippet(other, 30), where(op.row())),
            {snippet(op, 80)}, fmt::format("create `{}` with the same device= as the function's other tensors", root.text()));
    return;
  }
}

void Analyzer::check_mixed_call(Node call, std::string_view q) {
  // A call that gets a device tensor and an unmoved part of a batch whose other part was moved: the
  // batch part was forgotten (a metric's labels, an eval loop's targets). Not where a framework
  // (Lightning Fabric, Accelerate) moves the batches.
  if (m_ff.framework_moves_batches) return;
  std::string_view last = last_component(q);
  if (last == "print" || last == "to" || last == "cuda" || last == "append" || last == "extend" || last == "format") return;
  Node args = call.field(Field::arguments);
  Node batch_arg;
  Symbol* batch = nullptr;
  bool device_tensor = false;
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (a.is(NodeKind::keyword_argument)) a = a.field(Field::value);
    if (!a.is(NodeKind::identifier)) continue;
    Symbol* s = lookup(a.text());
    if (s == nullptr) continue;
    if (s->kind == Kind::batch && s->loop >= 0 && !s->reported && m_all_loops[static_cast<std::size_t>(s->loop)].moved_row >= 0) {
      batch = s;
      batch_arg = a;
    } else if (s->kind == Kind::tensor && s->placement == Placement::accelerator) {
      device_tensor = true;
    }
  }
  if (batch == nullptr || !device_tensor) return;
  batch->reported = true;
  const LoopState& loop = m_all_loops[static_cast<std::size_t>(batch->loop)];
  emit(RuleId::inputs_not_moved, batch_arg,
       fmt::format("`{}` from `{}` reaches `{}(...)` on the CPU next to a device tensor: another part of the same batch "
                   "was moved at {}, this one was not",
                   batch_arg.text(), loop.source, snippet(call.field(Field::function), 30), where(loop.moved_row)),
       {fmt::format("`{}` bound by the loop at {}", batch_arg.text(), where(loop.row))},
       fmt::format("{} = {}.to(device, non_blocking=True)", batch_arg.text(), batch_arg.text()));
}

void Analyzer::check_host_operand(Node call, std::string_view q) {
  if (m_function_nodes.empty() || !is_torch_function(q)) return;
  static const std::unordered_set<std::string_view> k_two_tensor = {
      "isin", "searchsorted", "bucketize", "where", "matmul", "mm", "bmm", "eq", "ne", "maximum", "minimum",
      "cdist", "index_select", "gather", "take_along_dim", "masked_select"};
  if (k_two_tensor.count(last_component(q)) == 0) return;
  if (!in_module_method() && !called_from_forward()) return;
  if (in_host_side_function() || function_name() == "__init__") return;
  Node args = call.field(Field::arguments);
  if (!args.valid() || args.named_count() < 2) return;
  for (std::uint32_t i = 0; i < args.named_count(); ++i) {
    Node host = args.named(i);
    if (!host.is(NodeKind::identifier)) continue;
    Symbol* s = lookup(host.text());
    if (s == nullptr || !s->made_on_host() || s->zero_dim || s->maybe_number || s->from_param || s->reported ||
        s->row < static_cast<int>(m_function_nodes.back().row())) {
      continue;
    }
    for (std::uint32_t j = 0; j < args.named_count(); ++j) {
      Node other = args.named(j);
      if (j == i || other.is(NodeKind::keyword_argument)) continue;
      Symbol o = infer(other);
      if (o.made_on_host() || o.kind == Kind::module || plain_number(other)) continue;
      if (o.placement != Placement::accelerator && !mentions_parameter(other)) continue;
      s->reported = true;
      emit_at(RuleId::tensor_created_without_device, s->row, s->column,
              fmt::format("`{}` is made on the CPU (no device=) and meets `{}`, the method's input, in {}() at {}: with "
                          "the module on the GPU the call fails with \"Expected all tensors to be on the same device\"",
                          host.text(), snippet(other, 30), last_component(q), where(call.row())),
              {snippet(call, 80)}, fmt::format("create `{}` with device={}.device", host.text(), snippet(other, 30)));
      return;
    }
  }
}

// A value made on the host without a device: a sized factory written inline (under casts and
// reshapes), or torch.tensor(<numbers>) (`torch.tensor(len(x))`). Its call, or an invalid node.
Node Analyzer::host_made_value(Node v) {
  if (Node f = inline_host_factory(v); f.valid()) return f;
  for (int guard = 0; guard < 6 && v.valid(); ++guard) {
    if (v.is(NodeKind::parenthesized_expression) && v.named_count() == 1) {
      v = v.named(0);
      continue;
    }
    if (!v.is(NodeKind::call) || !v.field(Field::function).is(NodeKind::attribute)) return Node();
    std::string q = qualified_callee(v);
    if (is_torch_function(q)) {
      if (last_component(q) != "tensor" || keyword(v, "device").valid() || has_splat(v)) return Node();
      Node args = v.field(Field::arguments);
      Node data = args.valid() && args.named_count() > 0 ? args.named(0) : Node();
      if (!data.valid() || data.is(NodeKind::identifier) || infer(data).placement == Placement::accelerator) return Node();
      return v;
    }
    auto m = v.field(Field::function).field(Field::attribute).text();
    if (m != "float" && m != "long" && m != "int" && m != "bool" && m != "double" && m != "half") return Node();
    v = v.field(Field::function).field(Field::object);
  }
  return Node();
}

// A value computed from device tensors: on the device by inference, or from the function's tensor
// inputs through a tensor method or a call (`mask.sum()`, `couplings(msa1hot, w)` with msa1hot on
// the device); not a number read off them (`len(x)`, `x.size(0)`, `x.item()`).
bool Analyzer::device_side_value(Node v) {
  Symbol o = infer(v);
  if (o.kind == Kind::module || o.placement == Placement::host || o.made_on_host()) return false;
  if (o.placement == Placement::accelerator) return true;
  if (!v.is(NodeKind::call)) return false;
  Node fn = v.field(Field::function);
  auto last = fn.is(NodeKind::attribute) ? fn.field(Field::attribute).text() : fn.text();
  for (std::string_view number : {"len", "int", "float", "bool", "size", "item", "numel", "dim", "tolist", "max", "min",
                                  "cpu", "numpy", "str", "round", "sum"}) {
    if (last == number && (number != "sum" || !fn.is(NodeKind::attribute))) return false;
  }
  bool device = false;
  int budget = 128;
  for_each_node(v, [&](Node n) {
    if (device || --budget < 0) return Descend::no;
    if (n.is(NodeKind::identifier) && n.text() != "self") {
      Node p = n.parent();
      if (p.is(NodeKind::attribute) && p.field(Field::attribute) == n) return Descend::no;
      if (p.is(NodeKind::keyword_argument) && p.field(Field::name) == n) return Descend::no;
      const Symbol* s = lookup(n.text());
      if (s != nullptr && s->kind != Kind::module && s->kind != Kind::device &&
          (s->placement == Placement::accelerator || ((s->is_parameter || s->from_param) && !s->scalar))) {
        device = true;
      }
    }
    return Descend::yes;
  });
  return device;
}

// `n = mask.sum()` in one branch and `n = torch.tensor(len(x))` in the other (or the same as a
// conditional expression): the name is a device tensor one way and a CPU tensor the other, so the
// CPU branch fails where the value meets device tensors (a collective, an index, a cat). Not when
// the condition chooses the device, precision or process, nor under a version guard.
void Analyzer::check_branch_host_factory(Node n) {
  if (m_function_nodes.empty() || !gpu_code() || in_host_side_function()) return;
  static const RE2 k_choice(
      R"((?i)cpu|cuda|gpu|device|accel|avail|mps|xla|tpu|rank|dist|half|fp16|bf16|amp|quant|int8|4bit|8bit|offload|meta|numpy|np\.|torch\.is_tensor|isinstance)");
  std::vector<std::pair<Node, Node>> pairs;  // (host-made value, device-side value)
  if (n.is(NodeKind::conditional_expression)) {
    if (n.named_count() < 3) return;
    Node yes = n.named(0), cond = n.named(1), no = n.named(2);
    if (RE2::PartialMatch(cond.text(), k_choice)) return;
    pairs.emplace_back(yes, no);
    pairs.emplace_back(no, yes);
  } else {
    Node alt = n.field(Field::alternative);
    if (!alt.is(NodeKind::else_clause)) return;
    if (RE2::PartialMatch(n.field(Field::condition).text(), k_choice) || under_version_guard(n)) return;
    auto assigned = [](Node block) {
      std::map<std::string, Node, std::less<>> out;
      for (std::uint32_t i = 0; block.valid() && i < block.named_count(); ++i) {
        Node st = block.named(i);
        Node e = st.is(NodeKind::expression_statement) && st.named_count() == 1 ? st.named(0) : Node();
        if (e.is(NodeKind::assignment) && e.field(Field::left).is(NodeKind::identifier)) {
          out[std::string(e.field(Field::left).text())] = e.field(Field::right);
        }
      }
      return out;
    };
    auto yes = assigned(n.field(Field::consequence));
    auto no = assigned(alt.field(Field::body));
    for (const auto& [name, value] : yes) {
      auto other = no.find(name);
      if (other == no.end()) continue;
      pairs.emplace_back(value, other->second);
      pairs.emplace_back(other->second, value);
    }
  }
  for (const auto& [host, device] : pairs) {
    Node factory = host_made_value(host);
    if (!factory.valid() || m_inline_reported.count(factory.start_byte()) > 0 || !device_side_value(device)) continue;
    // `torch.empty(0)`: an empty placeholder for a case with nothing to compute, unless the other
    // branch makes the same start with a device (an accumulator placed one way and not the other).
    Node args = factory.field(Field::arguments);
    const bool placed_other_way = device.is(NodeKind::call) && keyword(device, "device").valid();
    if (args.valid() && args.named_count() == 1 && (args.named(0).text() == "0" || args.named(0).text() == "(0,)") &&
        !placed_other_way) {
      continue;
    }
    m_inline_reported.insert(factory.start_byte());
    emit(RuleId::tensor_created_without_device, factory,
         fmt::format("{} is made on the CPU (no device=) in one branch, while the other gives the same value `{}`, "
                     "computed from device tensors: this way it is a CPU tensor where the other way it is on the GPU",
                     snippet(factory, 40), snippet(device, 30)),
         {snippet(n, 80)}, "create it with device=<input>.device (or <input>.new_zeros(...), torch.zeros_like(...))");
  }
}

void Analyzer::check_one_branch_moved(Node if_statement) {
  if (m_function_nodes.empty()) return;
  Node alt = if_statement.field(Field::alternative);
  if (!alt.is(NodeKind::else_clause)) return;  // if/else only: an elif chain has more ways in
  // A branch taken by device, precision or process choice leaves the other on the CPU on purpose.
  static const RE2 k_choice(
      R"((?i)cpu|cuda|gpu|device|accel|avail|mps|xla|tpu|rank|dist|local|half|fp16|bf16|amp|quant|int8|4bit|8bit|offload|meta)");
  if (RE2::PartialMatch(if_statement.field(Field::condition).text(), k_choice) || under_version_guard(if_statement)) return;
  struct Branch {
    std::map<std::string, Node, std::less<>> assigned;  // name -> the value of its (last) plain assignment
    std::set<std::string, std::less<>> moved;           // names moved to a device in the branch
  };
  auto read = [&](Node block) {
    Branch b;
    for (std::uint32_t i = 0; block.valid() && i < block.named_count(); ++i) {
      Node st = block.named(i);
      Node e = st.is(NodeKind::expression_statement) && st.named_count() == 1 ? st.named(0) : Node();
      Node call = e.is(NodeKind::assignment) ? e.field(Field::right) : e;
      // `x.to(dev)`, `x = x.cuda()`, `x = Net().to(dev)`.
      std::string_view moved_name;
      if (call.is(NodeKind::call) && call.field(Field::function).is(NodeKind::attribute)) {
        Node fn = call.field(Field::function);
        auto method = fn.field(Field::attribute).text();
        if ((method == "to" || method == "cuda") && moves_to_accelerator(call, method)) {
          moved_name = e.is(NodeKind::assignment) ? e.field(Field::left).text() : fn.field(Field::object).text();
        }
      }
      if (!moved_name.empty()) b.moved.insert(std::string(moved_name));
      if (e.is(NodeKind::assignment) && e.field(Field::left).is(NodeKind::identifier)) {
        b.assigned[std::string(e.field(Field::left).text())] = e.field(Field::right);
      }
    }
    return b;
  };
  Branch yes = read(if_statement.field(Field::consequence));
  Branch no = read(alt.field(Field::body));
  auto fn_text = std::string_view(m_src.text);
  Node fn = m_function_nodes.back();
  auto after = fn_text.substr(if_statement.end_byte(), fn.end_byte() > if_statement.end_byte() ? fn.end_byte() - if_statement.end_byte() : 0);
  for (const auto& [name, value] : yes.assigned) {
    auto other = no.assigned.find(name);
    if (other == no.assigned.end()) continue;
    const bool moved_yes = yes.moved.count(name) > 0;
    const bool moved_no = no.moved.count(name) > 0;
    if (moved_yes == moved_no) continue;
    Node left_on_host = moved_yes ? other->second : value;
    // A model made by a call that says nothing of a device: a class (`Net(...)`) or a loader of
    // pretrained weights. torch.load restores tensors where they were saved; a device, device_map or
    // map_location argument places the model.
    if (!left_on_host.is(NodeKind::call)) continue;
    Node callee = left_on_host.field(Field::function);
    auto last = callee.is(NodeKind::attribute) ? callee.field(Field::attribute).text() : callee.text();
    const bool loader = last == "from_pretrained" || last == "load_from_checkpoint" || last == "from_config";
    const bool cls = !last.empty() && std::isupper(static_cast<unsigned char>(last[0])) != 0 && callee.is(NodeKind::identifier);
    if (!loader && !cls) continue;
    static const RE2 k_placed(R"(\b(?:device\w*|map_location)\s*=)");
    if (RE2::PartialMatch(left_on_host.text(), k_placed)) continue;
    // Moved (or handed on) after the branches: the branch's own move is redundant, not the bug.
    auto uses = after.find(name);
    if (uses == std::string_view::npos) continue;
    bool moved_after = false;
    for (const char* how : {".to(", ".cuda(", ".to_empty("}) moved_after = moved_after || after.find(name + how) != std::string_view::npos;
    if (moved_after) continue;
    emit_at(RuleId::model_not_moved, left_on_host.row(), left_on_host.column(),
            fmt::format("`{}` is moved to the device when the other branch of this if builds it, but not when it comes "
                        "from `{}` here, and nothing moves it after the branches: this way it stays on the CPU",
                        name, snippet(callee, 40)),
            {snippet(left_on_host.parent(), 80)}, fmt::format("move `{}` after the if/else, once for both branches", name));
  }
}

void Analyzer::check_container_mover(Node function) {
  Node params = function.field(Field::parameters);
  Node body = function.field(Field::body);
  if (!params.valid() || !body.valid() || body.named_count() < 3) return;
  // The value to move: the first parameter other than self.
  std::string_view value;
  for (std::uint32_t i = 0; i < params.named_count() && value.empty(); ++i) {
    Node p = params.named(i);
    Node id = p.is(NodeKind::identifier) ? p : p.field(Field::name);
    if (id.is(NodeKind::identifier) && id.text() != "self" && id.text() != "cls") value = id.text();
  }
  if (value.empty()) return;
  // It ends by returning that value unchanged.
  std::uint32_t end = body.named_count();
  while (end > 0 && body.named(end - 1).is(NodeKind::comment)) --end;
  if (end < 3) return;
  Node last = body.named(end - 1);
  if (!last.is(NodeKind::return_statement) || last.named_count() != 1 || last.named(0).text() != value) return;
  auto text = body.text();
  auto name = function.field(Field::name).text();
  const std::string v(value);
  // It moves a tensor (`return obj.to(self.device)`), and recurses into tuples or dicts by calling itself.
  const bool moves = text.find("return " + v + ".to(") != std::string_view::npos ||
                     text.find("return " + v + ".cuda(") != std::string_view::npos;
  const bool recurses = text.find(std::string(name) + "(") != std::string_view::npos;
  const bool containers = text.find("isinstance(" + v + ", tuple)") != std::string_view::npos ||
                          text.find("isinstance(" + v + ", dict)") != std::string_view::npos;
  if (!moves || !recurses || !containers) return;
  // Lists are handled (`isinstance(obj, (list, tuple))`, a Sequence, or anything iterable).
  static const RE2 k_lists(R"(\blist\b|\bList\b|Sequence|Iterable|__iter__|\bcollections\b|\btree_map)");
  if (RE2::PartialMatch(text, k_lists)) return;
  auto& f = emit_at(RuleId::inputs_not_moved, last.row(), last.column(),
                    fmt::format("{}() moves tensors, tuples and dicts to the device but returns a list as it is: a "
                                "batch given as a list of tensors reaches the model on the CPU",
                                name),
                    {snippet(last, 60)},
                    fmt::format("handle lists too: when isinstance({0}, (list, tuple)), rebuild it with each element moved, "
                                "as the tuple branch does",
                                value));
  f.severity = facts::Severity::warning;
}

// `return nn.Parameter(torch.zeros(1))` in a method of a module class that gives its other tensors a
// device (`torch.zeros(n, device=device)` in __init__): the class places tensors by hand, and this
// fresh one, made on the host, goes back to a caller that meets it with the module's device tensors.
void Analyzer::check_host_return_in_placing_class(Node value) {
  if (m_classes.empty() || !in_module_method() || function_name() == "__init__" || in_host_side_function()) return;
  auto placing = m_class_device_factory_row.find(m_classes.back());
  if (placing == m_class_device_factory_row.end()) return;
  Node made = value;
  if (made.is(NodeKind::call)) {
    const std::string q = qualified_callee(made);
    if (q == "torch.nn.Parameter" || q == "torch.nn.parameter.Parameter") made = positional(made, 0);
  }
  if (!made.is(NodeKind::call)) return;
  Symbol s = infer(made);
  if (!s.made_on_host() || !s.sized || s.zero_dim || m_inline_reported.count(made.start_byte()) > 0) return;
  m_inline_reported.insert(made.start_byte());
  emit(RuleId::tensor_created_without_device, made,
       fmt::format("{}() returns {}, made on the CPU (no device=), while {} gives its other tensors a device (at {}): "
                   "the caller meets it with the module's device tensors",
                   function_name(), snippet(made, 40), m_classes.back(), where(placing->second)),
       {snippet(value, 80)}, "create it with the device the class uses (device=self.device, or like a tensor it holds)");
}

}  // namespace gpudoctor::scan
