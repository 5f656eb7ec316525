#include <scan/file_facts.hpp>

#include <util/text.hpp>

#include <algorithm>
#include <cctype>
#include <optional>

namespace gpudoctor::scan {
namespace {

constexpr std::string_view k_dtypes[] = {"float",  "float32", "float16", "half",      "bfloat16",  "float64",
                                         "double", "int",     "int8",    "int16",     "int32",     "int64",
                                         "long",   "uint8",   "bool",    "complex64", "complex128", "cfloat",
                                         "short",  "float8_e4m3fn", "float8_e5m2"};

// Bases that make a class a torch module (after import qualification).
bool is_module_base(const std::string& qualified) {
  return starts_with_package(qualified, "torch.nn") || qualified == "pytorch_lightning.LightningModule" ||
         qualified == "lightning.LightningModule" || qualified == "lightning.pytorch.LightningModule" ||
         qualified == "transformers.PreTrainedModel" || qualified == "torchmetrics.Metric" ||
         qualified == "torchmetrics.metric.Metric";
}

// The row of the first ERROR or MISSING node in document order, found by following the children
// that carry an error. The walk above does not descend everywhere (imports, for one), so a tree
// whose error it never reached would otherwise report the root's row: "line 1".
constexpr TSSymbol k_error_symbol = static_cast<TSSymbol>(-1);  // tree_sitter/parser.h ts_builtin_sym_error

int first_error_row(Node root) {
  Node n = root;
  while (true) {
    bool deeper = false;
    for (Node c = n.child(0); c.valid(); c = c.next_sibling()) {
      if (c.is_missing() || c.symbol() == k_error_symbol) return c.row();
      if (c.has_error()) {
        n = c;
        deeper = true;
        break;
      }
    }
    if (!deeper) return n.row();
  }
}

bool any_keyword(Node call, std::string_view name, Node* value = nullptr) {
  Node args = call.field(Field::arguments);
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (a.is(NodeKind::keyword_argument) && a.field(Field::name).text() == name) {
      if (value != nullptr) *value = a.field(Field::value);
      return true;
    }
  }
  return false;
}

Node first_positional(Node call) {
  Node args = call.field(Field::arguments);
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (a.is(NodeKind::comment)) continue;
    if (a.is(NodeKind::keyword_argument) || a.is(NodeKind::dictionary_splat) || a.is(NodeKind::list_splat)) return {};
    return a;
  }
  return {};
}

// What a call returns is moved where it is made: `f(n).to(x.device)`, or the statement of the call or
// the next one moves or names a device (`m = f(n)` then `m = m.to(dev)`).
bool result_moved(Node call) {
  Node up = call.parent();
  if (up.is(NodeKind::attribute)) {
    auto m = up.field(Field::attribute).text();
    if (m == "to" || m == "cuda" || m == "type_as" || m == "to_device") return true;
  }
  Node statement = call;
  for (int guard = 0; guard < 16 && statement.valid() && !statement.is(NodeKind::expression_statement) &&
                      !statement.is(NodeKind::return_statement);
       ++guard) {
    statement = statement.parent();
  }
  if (!statement.is(NodeKind::expression_statement)) return false;
  auto moves = [](std::string_view t) {
    t = t.substr(0, t.find('#'));
    return t.find(".to(") != std::string_view::npos || t.find(".cuda(") != std::string_view::npos ||
           t.find("type_as(") != std::string_view::npos || t.find("device") != std::string_view::npos;
  };
  if (moves(statement.text())) return true;
  Node next = statement.next_named();
  return next.valid() && moves(next.text());
}

bool is_cpu_literal(Node n) {
  auto v = string_value(n);
  return v && (*v == "cpu" || *v == "CPU");
}

// The class's __init__ assigns no `self.` attribute from a constructor (a capitalised callee, which may
// be a layer or a submodule) and names nothing that makes weights.
bool builds_no_weights(Node cls) {
  Node body = cls.field(Field::body);
  for (std::uint32_t i = 0; body.valid() && i < body.named_count(); ++i) {
    Node m = body.named(i);
    if (!m.is(NodeKind::function_definition) || m.field(Field::name).text() != "__init__") continue;
    auto text = m.text();
    for (std::string_view w : {"nn.", "torch.", "Parameter", "register_", "add_module", "setattr", "from_pretrained",
                               "load", "Module", "model", "Model", "layer", "Layer"}) {
      if (text.find(w) != std::string_view::npos) return false;
    }
    bool weights = false;
    for_each_node(m, [&](Node n) {
      if (weights) return Descend::no;
      if (!n.is(NodeKind::assignment)) return Descend::yes;
      Node right = n.field(Field::right);
      if (right.is(NodeKind::call)) {
        auto callee = right.field(Field::function).text();
        auto dot = callee.rfind('.');
        auto last = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
        if (!last.empty() && last[0] >= 'A' && last[0] <= 'Z') weights = true;
      }
      return Descend::no;
    });
    return !weights;
  }
  return false;
}

std::optional<DeviceParameter> cpu_default_device_parameter(Node fn) {
  Node params = fn.field(Field::parameters);
  Node body = fn.field(Field::body);
  if (!params.valid() || !body.valid()) return std::nullopt;
  for (std::uint32_t i = 0; i < params.named_count(); ++i) {
    Node p = params.named(i);
    std::string_view text = p.text();
    auto eq = text.find('=');
    if (eq == std::string_view::npos) continue;
    auto colon = text.find(':');
    auto name = util::trim(text.substr(0, std::min(eq, colon)));
    auto def = util::trim(text.substr(eq + 1));
    if (!names_a_device(name) || !cpu_default(def)) continue;
    // Used in the body as a word.
    bool used = false;
    auto b = body.text();
    util::for_each_name_use(b, name, [&](std::string_view) { used = true; });
    // The default must lead to the CPU: not when the function picks a GPU by itself when it gets
    // none (`device = device or ("cuda" if torch.cuda.is_available() else "cpu")`), and for None
    // only when the function names the CPU.
    for (std::string_view w : {"is_available", "device_count", "get_device", "default_device", "auto"}) {
      if (b.find(w) != std::string_view::npos) used = false;
    }
    if (def == "None" && b.find("cpu") == std::string_view::npos) used = false;
    if (used) return DeviceParameter{std::string(name), static_cast<int>(i), std::string(def)};
  }
  return std::nullopt;
}

// `optm.load_state_dict(ckpt["opt"])` where `optm` is a parameter of fn whose name says it is an
// optimizer: the state goes where the parameters are when the helper runs.
std::vector<OptimizerLoad> optimizer_loads(Node fn) {
  std::vector<OptimizerLoad> out;
  Node params = fn.field(Field::parameters);
  Node body = fn.field(Field::body);
  if (!params.valid() || !body.valid()) return out;
  for (std::uint32_t i = 0; i < params.named_count() && out.size() < 8; ++i) {
    Node p = params.named(i);
    Node id = p.is(NodeKind::identifier) ? p : p.field(Field::name);
    if (!id.valid() || !id.is(NodeKind::identifier)) continue;
    std::string name(id.text());
    if (!util::contains_icase(name, "opt")) continue;
    for_each_node(body, [&](Node n) {
      if (!n.is(NodeKind::call)) return Descend::yes;
      Node f = n.field(Field::function);
      if (f.is(NodeKind::attribute) && f.field(Field::attribute).text() == "load_state_dict" &&
          f.field(Field::object).text() == name) {
        out.push_back(OptimizerLoad{name, static_cast<int>(i), static_cast<int>(n.row()), static_cast<int>(n.column())});
        return Descend::no;
      }
      return Descend::yes;
    });
  }
  return out;
}

// The indices of the parameters a function moves: `p.to(...)` / `p.cuda(...)` in its body, or `p`
// handed at a moved position to one of `movers`.
std::vector<int> moved_parameters(Node fn, const std::unordered_map<std::string, std::vector<int>>& movers) {
  std::vector<int> out;
  Node params = fn.field(Field::parameters);
  Node body = fn.field(Field::body);
  // A function longer than 32 KiB is not read: a generated file must not cost a pass per parameter.
  if (!params.valid() || !body.valid() || body.text().size() > (32u << 10)) return out;
  const std::string_view text = body.text();
  for (std::uint32_t i = 0; i < params.named_count() && i < 16; ++i) {
    Node p = params.named(i);
    Node id = p.is(NodeKind::identifier) ? p : p.field(Field::name);
    if (!id.valid() || !id.is(NodeKind::identifier)) continue;
    const std::string name(id.text());
    bool moved = false;
    util::for_each_name_use(text, name, [&](std::string_view rest) {
      moved = moved || rest.starts_with(".to(") || rest.starts_with(".cuda(");
    });
    std::size_t looked = 0;
    for (auto it = movers.begin(); !moved && it != movers.end() && looked < 16; ++it, ++looked) {
      // Calls of the mover by name (not `obj.mover(`), with `name` at a position it moves.
      util::for_each_name_use(text, it->first, [&](std::string_view rest) {
        if (moved || !rest.starts_with("(")) return;
        const auto args = call_arguments(text, static_cast<std::size_t>(rest.data() - text.data()));
        for (int j : it->second) {
          if (static_cast<std::size_t>(j) < args.size() && args[static_cast<std::size_t>(j)] == name) moved = true;
        }
      });
    }
    if (moved) out.push_back(static_cast<int>(i));
  }
  return out;
}

}  // namespace

// The arguments of the call that starts at `open` (the index of its '('), split at top-level commas;
// empty when the call does not close within the text.
std::vector<std::string_view> call_arguments(std::string_view text, std::size_t open) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = open + 1;
  for (std::size_t i = open; i < text.size() && i < open + 4096; ++i) {
    const char c = text[i];
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) {
        out.push_back(util::trim(text.substr(start, i - start)));
        return out;
      }
    }
    if (c == ',' && depth == 1) {
      out.push_back(util::trim(text.substr(start, i - start)));
      start = i + 1;
    }
  }
  return {};
}

bool names_a_device(std::string_view name) {
  return util::contains_icase(name, "device") || util::contains_icase(name, "gpu") || util::contains_icase(name, "cuda");
}

bool cpu_default(std::string_view d) {
  return d == "None" || d == "-1" || d == "False" || d == "\"cpu\"" || d == "'cpu'" || d == "[]" || d == "()";
}

bool is_dtype_expression(Node arg, const ImportTable& imports) {
  if (arg.is(NodeKind::identifier)) return arg.text() == "dtype";
  if (!arg.is(NodeKind::attribute)) return false;
  std::string q = imports.qualify(arg.text());
  std::string_view last = last_component(q);
  if (last == "dtype") return true;
  if (!starts_with_package(q, "torch") && !starts_with_package(q, "numpy")) return false;
  for (auto d : k_dtypes) {
    if (last == d) return true;
  }
  return false;
}

// A class body with a forward() method and an __init__ that assigns torch layers to self
// (`self.head = nn.Linear(...)`).
static bool defines_forward_with_layers(Node cls) {
  Node body = cls.field(Field::body);
  bool forward = false, layers = false;
  for (std::uint32_t i = 0; body.valid() && i < body.named_count(); ++i) {
    Node d = body.named(i);
    if (!d.is(NodeKind::function_definition)) continue;
    auto name = d.field(Field::name).text();
    if (name == "forward") forward = true;
    if (name == "__init__") {
      auto text = d.text();
      for (std::string_view layer : {"= nn.", "= torch.nn.", "=nn."}) {
        for (auto at = text.find(layer); at != std::string_view::npos && !layers; at = text.find(layer, at + 1)) {
          auto rest = text.substr(at + layer.size());
          layers = !rest.empty() && std::isupper(static_cast<unsigned char>(rest.front())) != 0 &&
                   text.substr(0, at).rfind("self.") != std::string_view::npos;
        }
      }
    }
  }
  return forward && layers;
}

// Whether a class defines cpu(), cuda() or to() that returns a new object (a copy, as a tensor's do)
// rather than moving itself in place and returning self (as a module's do).
static bool defines_copying_mover(Node cls) {
  Node body = cls.field(Field::body);
  for (std::uint32_t i = 0; body.valid() && i < body.named_count(); ++i) {
    Node d = body.named(i);
    if (!d.is(NodeKind::function_definition)) continue;
    auto name = d.field(Field::name).text();
    if (name != "cpu" && name != "cuda" && name != "to") continue;
    Node fbody = d.field(Field::body);
    if (!fbody.valid() || fbody.named_count() == 0) continue;
    std::uint32_t end = fbody.named_count();
    while (end > 0 && fbody.named(end - 1).is(NodeKind::comment)) --end;
    if (end == 0) continue;
    Node last = fbody.named(end - 1);
    if (!last.is(NodeKind::return_statement) || last.named_count() != 1) continue;
    Node value = last.named(0);
    // `return self` (or `return super().to(...)`, a module's) moves in place.
    if (value.text() == "self" || value.text().starts_with("super(")) continue;
    if (d.text().find("self.") != std::string_view::npos && d.text().find(" = ") != std::string_view::npos &&
        value.is(NodeKind::identifier)) {
      continue;  // rebinds its own fields and returns something else: judge nothing
    }
    const std::string_view type = value.type();
    if (value.is(NodeKind::call) || type == "dictionary_comprehension" || type == "list_comprehension") return true;
  }
  return false;
}

bool host_side_class(std::string_view cls) {
  auto transform = cls.find("Transform");
  bool data_transform = transform != std::string_view::npos && cls.substr(transform).find("Transformer") != 0;
  return cls.find("Dataset") != std::string_view::npos || cls.find("Sampler") != std::string_view::npos ||
         cls.find("Collat") != std::string_view::npos || data_transform;
}

FileFacts collect_file_facts(Node root, const ProjectIndex* project) {
  FileFacts ff;
  std::vector<std::uint32_t> loops;      // start bytes of the enclosing loops
  std::vector<std::uint32_t> functions;  // start bytes of the enclosing functions
  std::vector<std::string_view> function_names;  // their names
  std::vector<Node> top_level_functions;  // for the functions that move their parameters (at most 256)
  // Calls by name from a forward() or a plain function: (caller, callee, the result is not moved
  // where it is called).
  struct HelperCall {
    std::string_view caller, callee;
    bool unmoved;
  };
  std::vector<HelperCall> helper_calls;
  // `self.unpack(...)` inside a method of a class: (calling method, called method).
  std::vector<std::pair<std::string_view, std::string_view>> self_calls;
  std::pair<std::uint32_t, bool> pil_forward{~0u, false};  // (forward's start byte, it takes PIL images)
  auto mark_device = [&] {
    ff.uses_device = true;
    ff.device_functions.insert(functions.empty() ? k_module_level : functions.back());
  };
  std::vector<std::pair<std::string, std::vector<std::string>>> classes;
  std::vector<std::pair<std::string_view, std::uint32_t>> open_classes;
  std::unordered_set<std::string> structural_modules;  // enclosing classes: name, start byte
  std::vector<std::pair<std::string_view, std::string_view>> class_calls;  // (function called by name, class)
  walk(
      root,
      [&](Node n) {
        if (n.is_missing() && !ff.has_syntax_error) {  // tree-sitter inserted a token to recover
          ff.has_syntax_error = true;
          ff.first_error_row = n.row();
        }
        switch (n.kind()) {
          case NodeKind::error:
            if (!ff.has_syntax_error) ff.first_error_row = n.row();
            ff.has_syntax_error = true;
            break;
          case NodeKind::import_statement:
          case NodeKind::import_from_statement:
            ff.imports.add(n);
            return Descend::no;
          case NodeKind::class_definition: {
            std::vector<std::string> bases;
            Node sup = n.field(Field::superclasses);
            for (std::uint32_t i = 0; sup.valid() && i < sup.named_count(); ++i) {
              Node b = sup.named(i);
              if (b.is(NodeKind::identifier) || b.is(NodeKind::attribute)) bases.emplace_back(b.text());
            }
            if (bases.size() == 1 && (bases[0] == "nn.Module" || bases[0] == "torch.nn.Module" || bases[0] == "Module") &&
                builds_no_weights(n)) {
              ff.weightless_classes.emplace(n.field(Field::name).text());
            }
            // A class of some base defined elsewhere (a library's extractor or policy class) that has
            // forward() and builds torch layers in __init__ is a module, whatever its base is called.
            if (!bases.empty() && defines_forward_with_layers(n)) structural_modules.emplace(n.field(Field::name).text());
            if (defines_copying_mover(n)) ff.copying_movers.emplace(n.field(Field::name).text());
            if (auto body = n.text(); body.find("Parameter(") != std::string_view::npos ||
                                      body.find("register_buffer(") != std::string_view::npos) {
              ff.classes_with_own_tensors.emplace(n.field(Field::name).text());
            }
            classes.emplace_back(std::string(n.field(Field::name).text()), std::move(bases));
            open_classes.emplace_back(n.field(Field::name).text(), n.start_byte());
            break;
          }
          case NodeKind::for_statement:
          case NodeKind::while_statement:
            loops.push_back(n.start_byte());
            break;
          case NodeKind::function_definition:
            if (functions.empty() && !n.parent().parent().is(NodeKind::class_definition)) {
              if (auto dp = cpu_default_device_parameter(n)) {
                ff.cpu_default_device_parameters.emplace(std::string(n.field(Field::name).text()), std::move(*dp));
              }
              if (auto loads = optimizer_loads(n); !loads.empty()) {
                ff.optimizer_loaders.emplace(std::string(n.field(Field::name).text()), std::move(loads));
              }
              if (top_level_functions.size() < 256) top_level_functions.push_back(n);
            }
            functions.push_back(n.start_byte());
            function_names.push_back(n.field(Field::name).text());
            break;
          case NodeKind::keyword_argument: {
            std::string_view name = n.field(Field::name).text();
            Node value = n.field(Field::value);
            if (name == "device_map") mark_device();
            if (name == "device" && !is_cpu_literal(value) && !value.is(NodeKind::none)) mark_device();
            if (name == "non_blocking" && value.is(NodeKind::true_)) ff.uses_non_blocking = true;
            // Accelerate's mixed_precision="bf16", Lightning's precision="16-mixed".
            if ((name == "mixed_precision" || name == "precision") && string_value(value).value_or("no") != "no" &&
                string_value(value).value_or("32") != "32") {
              ff.uses_mixed_precision = true;
            }
            if (name == "dtype" && (value.text().find("float16") != std::string_view::npos ||
                                    value.text().find("bfloat16") != std::string_view::npos)) {
              ff.uses_mixed_precision = true;
            }
            break;
          }
          case NodeKind::attribute: {
            std::string_view attr = n.field(Field::attribute).text();
            if (attr == "autocast" || attr == "GradScaler" || attr == "half" || attr == "bfloat16" ||
                attr == "float16" || attr == "set_float32_matmul_precision" || attr == "allow_tf32") {
              ff.uses_mixed_precision = true;
            }
            break;
          }
          case NodeKind::identifier: {
            std::string_view id = n.text();
            if (id == "autocast" || id == "GradScaler") ff.uses_mixed_precision = true;
            break;
          }
          case NodeKind::call: {
            Node fn = n.field(Field::function);
            std::string_view name = fn.is(NodeKind::attribute) ? fn.field(Field::attribute).text() : fn.text();
            // A loop that reads a clock measures GPU time, which needs the synchronisation it does.
            if (!loops.empty() && (name == "perf_counter" || name == "monotonic" || name == "elapsed_time" ||
                                   fn.text() == "time.time" || name == "default_timer")) {
              ff.timed_loops.insert(loops.begin(), loops.end());
            }
            // The innermost loop around backward() is the step loop (an epoch loop only contains it).
            if (name == "backward" && !loops.empty()) ff.step_loops.insert(loops.back());
            if (fn.is(NodeKind::identifier) && !function_names.empty() &&
                (function_names.back() == "forward" || function_names.back().ends_with("_step"))) {
              ff.called_per_step.emplace(fn.text());
            }
            // (Not from the forward() of a data transform, whose helpers work on the host.)
            bool transform_forward =
                function_names.empty() || open_classes.empty() || function_names.back() != "forward" ||
                host_side_class(open_classes.back().first);
            // A forward() that takes PIL images is a data transform's, whatever its class is called.
            if (!transform_forward && fn.is(NodeKind::identifier)) {
              if (pil_forward.first != functions.back()) {
                Node def = n;
                while (def.valid() && !def.is(NodeKind::function_definition)) def = def.parent();
                auto text = def.text();
                pil_forward = {functions.back(), text.find("Image.Image") != std::string_view::npos ||
                                                     text.find("to_tensor(") != std::string_view::npos};
              }
              transform_forward = pil_forward.second;
            }
            if (fn.is(NodeKind::identifier) && !function_names.empty() && helper_calls.size() < 8192 &&
                ((function_names.back() == "forward" && !transform_forward) ||
                 (functions.size() == 1 && open_classes.empty()))) {
              helper_calls.push_back({function_names.back(), fn.text(), !result_moved(n)});
            }
            // Not a test calling its helper once per mode (`self._test_x(mode)` in `for mode in ...`).
            // A script's own loop at module level (under `if __name__ == "__main__":`) counts too.
            if (fn.is(NodeKind::attribute) && !loops.empty() && !name.starts_with("test") &&
                !name.starts_with("_test") && ff.methods_called_in_loops.size() < 4096) {
              ff.methods_called_in_loops.emplace(name);
            }
            if (fn.is(NodeKind::attribute) && fn.field(Field::object).text() == "self" && !function_names.empty() &&
                !open_classes.empty() && self_calls.size() < 8192) {
              self_calls.emplace_back(function_names.back(), name);
            }
            if (fn.is(NodeKind::identifier) && !functions.empty() && !open_classes.empty() && class_calls.size() < 4096) {
              class_calls.emplace_back(fn.text(), open_classes.back().first);
            }
            if (name == "cuda" || name == "to_device" || name == "set_default_device" || name == "set_device" ||
                name == "prepare" || name == "Accelerator" || name == "DistributedDataParallel" ||
                name == "xla_device" || last_component(name) == "Trainer" || name == "setup_module") {
              mark_device();
            }
            if (name == "xla_device") ff.uses_xla = true;
            if (name == "to" && fn.is(NodeKind::attribute)) {
              Node first = first_positional(n);
              Node device_kw;
              if (first.valid() && !is_dtype_expression(first, ff.imports) && !is_cpu_literal(first)) mark_device();
              if (any_keyword(n, "device", &device_kw) && !is_cpu_literal(device_kw)) mark_device();
            }
            break;
          }
          default:
            break;
        }
        return Descend::yes;
      },
      [&](Node n) {
        if (n.is(NodeKind::class_definition) && !open_classes.empty() && open_classes.back().second == n.start_byte()) {
          open_classes.pop_back();
        }
        if (n.is(NodeKind::function_definition) && !functions.empty() && functions.back() == n.start_byte()) {
          functions.pop_back();
          function_names.pop_back();
        }
        if ((n.is(NodeKind::for_statement) || n.is(NodeKind::while_statement)) && !loops.empty() &&
            loops.back() == n.start_byte()) {
          if (ff.step_loops.count(n.start_byte())) {
            ff.step_loop_nodes.push_back(n);
            Node iter = n.field(Field::right);
            for (int guard = 0; guard < 3 && iter.is(NodeKind::call); ++guard) {
              auto f = iter.field(Field::function).text();
              if (f != "enumerate" && f != "tqdm" && f != "tqdm.tqdm" && f != "iter") break;
              iter = first_positional(iter);
            }
            if (iter.is(NodeKind::identifier) || iter.is(NodeKind::attribute)) ff.step_loop_sources.emplace(iter.text());
          }
          loops.pop_back();
        }
      });
  if (root.has_error() && !ff.has_syntax_error) {
    ff.has_syntax_error = true;
    ff.first_error_row = first_error_row(root);
  }
  std::sort(ff.step_loop_nodes.begin(), ff.step_loop_nodes.end(),
            [](const Node& a, const Node& b) { return a.start_byte() < b.start_byte(); });
  // Functions that move their parameters, then those that hand them to such a function (three rounds:
  // `setup(model)` calling `place(model)` calling `model.to(device)`).
  // Only asked about the models of an optimizer: a file that names none does not need them.
  const bool names_optimizers = root.text().find("optim") != std::string_view::npos;
  for (int round = 0; round < 3 && names_optimizers; ++round) {
    bool grew = false;
    for (Node fn : top_level_functions) {
      const std::string name(fn.field(Field::name).text());
      auto moved = moved_parameters(fn, ff.module_movers);
      if (moved.empty()) continue;
      auto [it, fresh] = ff.module_movers.try_emplace(name, moved);
      if (!fresh && it->second.size() < moved.size()) {
        it->second = std::move(moved);
        fresh = true;
      }
      grew = grew || fresh;
    }
    if (!grew) break;
  }
  // A file of another framework's port (flax, keras) that does not import torch: its classes named
  // like the project's torch modules are that framework's.
  const bool other_framework_file =
      !ff.imports.imports("torch") && (ff.imports.imports("flax") || ff.imports.imports("jax") ||
                                       ff.imports.imports("tensorflow") || ff.imports.imports("keras") ||
                                       ff.imports.imports("mxnet") || ff.imports.imports("paddle"));
  // Module classes, following bases defined in the same file (to a fixed point).
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [name, bases] : classes) {
      if (ff.module_classes.count(name)) continue;
      for (const auto& b : bases) {
        std::string q = ff.imports.qualify(b);
        auto dot = q.rfind('.');
        // A class of the project named like the base, unless the base is another framework's
        // (flax.linen.Module, keras.Model: a project with both a torch and a JAX port names both Module).
        bool other_framework = starts_with_package(q, "flax") || starts_with_package(q, "jax") ||
                               starts_with_package(q, "haiku") || starts_with_package(q, "equinox") ||
                               starts_with_package(q, "tensorflow") || starts_with_package(q, "keras") ||
                               starts_with_package(q, "mxnet") || starts_with_package(q, "paddle");
        bool project_module = project != nullptr && !starts_with_package(q, "torch") && !other_framework &&
                              !other_framework_file &&
                              project->is_module_class(dot == std::string::npos ? q : q.substr(dot + 1));
        if (is_module_base(q) || ff.module_classes.count(b) || project_module || structural_modules.count(name) > 0) {
          ff.module_classes.insert(name);
          grew = true;
          break;
        }
      }
    }
  }
  // The plain functions forward() reaches through unmoved calls, to a fixed point (a call chain in
  // a file is short; the bound keeps a generated file's cost linear).
  for (const auto& c : helper_calls) {
    if (c.caller == "forward" && c.unmoved) ff.forward_helpers_unmoved.emplace(c.callee);
  }
  for (int round = 0, grew = 1; grew != 0 && round < 8; ++round) {
    grew = 0;
    for (const auto& c : helper_calls) {
      if (c.unmoved && c.caller != "forward" && ff.forward_helpers_unmoved.count(std::string(c.caller)) > 0 &&
          ff.forward_helpers_unmoved.emplace(c.callee).second) {
        ++grew;
      }
    }
  }
  // A method that a method called in a loop calls on self runs at each step too (`compress()` in the
  // loop calls `self.packing()`), to a fixed point.
  for (int round = 0, grew = 1; grew != 0 && round < 8; ++round) {
    grew = 0;
    for (const auto& [caller, callee] : self_calls) {
      if (ff.methods_called_in_loops.size() < 4096 && ff.methods_called_in_loops.count(std::string(caller)) > 0 &&
          !callee.starts_with("test") && ff.methods_called_in_loops.emplace(callee).second) {
        ++grew;
      }
    }
  }
  for (const auto& [function, cls] : class_calls) {
    if (ff.module_classes.count(std::string(cls)) > 0) ff.called_by_modules.emplace(function);
  }
  ff.framework_moves_batches =
      ff.imports.imports("lightning") || ff.imports.imports("pytorch_lightning") || ff.imports.imports("accelerate");
  ff.project = project;
  return ff;
}

}  // namespace gpudoctor::scan
