// What each call means to the rules, read at the call's position in program order: the symbol
// table holds what every name was bound to by the statements before it.
#include <functional>

#include <fmt/format.h>
#include <re2/re2.h>

#include <scan/analyzer_impl.hpp>
#include <util/text.hpp>

namespace gpudoctor::scan {
namespace {

// Calls whose arguments are what the program tells its user (print, logging, warnings).
bool is_announcement(std::string_view callee) {
  std::string_view last = last_component(callee);
  return last == "print" || last == "info" || last == "warning" || last == "warn" || last == "debug" ||
         last == "error" || last == "critical" || last == "log" || last == "echo" || last == "write" ||
         last == "pprint" || last == "success" || last == "set_postfix";
}

constexpr std::string_view k_sync_methods[] = {"item", "cpu", "numpy", "tolist"};

// Whether a comment in `text` says that the code fails on purpose: teaching notebooks show the
// device-mismatch error and fix it in the next cell.
bool comment_says_it_fails(std::string_view text) {
  for (std::string_view line : util::lines(text)) {
    auto hash = line.find('#');
    if (hash == std::string_view::npos) continue;
    std::string_view comment = line.substr(hash);
    for (std::string_view phrase : {"will error", "will fail", "will raise", "will throw", "this errors", "this fails",
                                    "raises an error", "expect an error", "expected to fail", "error on purpose",
                                    "intentional error", "will cause an error", "won't work", "will not work",
                                    "can't transform", "cannot transform", "can't convert", "cannot convert",
                                    "gives an error", "throws an error"}) {
      if (util::contains_icase(comment, phrase)) return true;
    }
  }
  return false;
}

// `self.X`, one attribute deep (not `self.X.Y`): an attribute a plain class keeps.
bool is_self_attribute(std::string_view name) {
  return name.starts_with("self.") && name.find('.', 5) == std::string_view::npos;
}

}  // namespace

void Analyzer::collect_announced(Node args) {
  int budget = 256;
  for_each_node(args, [&](Node n) {
    if (--budget < 0) return Descend::no;
    if (n.is(NodeKind::identifier) || n.is(NodeKind::attribute)) m_announced.insert(std::string(n.text()));
    return Descend::yes;
  });
}

void Analyzer::touch_cuda(Node at) {
  Scope& s = m_scopes.back();
  if (s.cuda_touch_row < 0) s.cuda_touch_row = at.row();
}

// In a plain function, a parameter called with another parameter as its input (`model(idx[:, -n:])`,
// `model(**batch)`): whoever calls the function with a model on the device must hand a device input.
void Analyzer::note_parameter_model_call(Node call) {
  if (!m_classes.empty() || m_function_nodes.size() != 1) return;
  Node fn = call.field(Field::function);
  const Symbol* callee = lookup(fn.text());
  if (callee == nullptr || !callee->is_parameter || callee->scalar) return;
  Node args = call.field(Field::arguments);
  Node input = args.valid() && args.named_count() > 0 ? args.named(0) : Node();
  if (input.is(NodeKind::dictionary_splat) || input.is(NodeKind::list_splat)) input = input.named(0);
  // The input's root name: `idx[:, -n:]` -> idx, `batch.input_ids` -> batch.
  for (int guard = 0; guard < 8 && (input.is(NodeKind::subscript) || input.is(NodeKind::attribute)); ++guard) {
    input = input.is(NodeKind::subscript) ? input.field(Field::value) : input.field(Field::object);
  }
  if (!input.is(NodeKind::identifier) || input.text() == fn.text()) return;
  const Symbol* in = lookup(input.text());
  if (in == nullptr || !in->is_parameter || in->scalar) return;
  auto& pairs = m_param_model_inputs[std::string(function_name())];
  std::pair<std::string, std::string> pair{std::string(fn.text()), std::string(input.text())};
  if (pairs.size() < 16 && std::find(pairs.begin(), pairs.end(), pair) == pairs.end()) pairs.push_back(std::move(pair));
}

// `model(**q)` (or `model(q)`) where the function bound q from a call of a plain name (`q =
// tokenizer([query])`) and did not move it since: judged at the end against the file's other uses
// of that callee.
void Analyzer::note_unmoved_encoding_call(Node call) {
  if (m_function_nodes.empty() || m_unmoved_encodings.size() >= 256) return;
  Node fn = call.field(Field::function);
  const Symbol* model = lookup(fn.text());
  if (model == nullptr || model->scalar || model->is_loss || model->placement == Placement::host ||
      !(model->is_parameter || model->kind == Kind::module || model->kind == Kind::hf_model)) {
    return;
  }
  // An encoding: a dict of tensors given as keyword arguments (`model(**enc)`).
  Node args = call.field(Field::arguments);
  Node input = args.valid() && args.named_count() > 0 ? args.named(0) : Node();
  if (!input.is(NodeKind::dictionary_splat)) return;
  input = input.named(0);
  if (!input.is(NodeKind::identifier) || input.text() == fn.text()) return;
  // Each check reads back through the function: at most 1,024 a file (a generated file stays linear).
  if (++m_encoding_checks > 1024) return;
  Node function = m_function_nodes.back();
  const auto body = function.text();
  const std::size_t at = call.start_byte() - function.start_byte();
  const std::string bound = std::string(input.text()) + " = ";
  std::size_t bind = body.rfind(bound, at);
  // The binding starts its line: `q = tokenizer(...)`, not `self.q = ...` or `x_q = ...`.
  while (bind != std::string_view::npos && bind > 0 && body[bind - 1] != ' ' && body[bind - 1] != '\n') {
    bind = bind == 0 ? std::string_view::npos : body.rfind(bound, bind - 1);
  }
  if (bind == std::string_view::npos) return;
  auto bol = body.rfind('\n', bind);
  if (!util::trim(body.substr(bol == std::string_view::npos ? 0 : bol + 1, bind - (bol == std::string_view::npos ? 0 : bol + 1))).empty()) return;
  std::size_t e = bind + bound.size();
  while (e < body.size() && (std::isalnum(static_cast<unsigned char>(body[e])) != 0 || body[e] == '_')) ++e;
  auto callee = body.substr(bind + bound.size(), e - bind - bound.size());
  // A tokenizer or processor object called (`tokenizer(texts)`), not a class built (`Parameter(...)`), a
  // dict, or a model whose output is where the model is.
  if (callee.empty() || e >= body.size() || body[e] != '(' || callee == "dict" ||
      std::isupper(static_cast<unsigned char>(callee[0])) != 0) {
    return;
  }
  if (const Symbol* c = lookup(callee); c != nullptr && (c->kind == Kind::module || c->kind == Kind::hf_model)) return;
  // Moved (or rebound) between the binding and the use.
  auto between = body.substr(e, at - e);
  if (between.find(std::string(input.text()) + ".to(") != std::string_view::npos ||
      between.find(std::string(input.text()) + " = ") != std::string_view::npos ||
      between.find(std::string(input.text()) + "[") != std::string_view::npos) {
    return;
  }
  m_unmoved_encodings.emplace_back(input, std::string(callee));
}

// A call `f(a, b)` of a function of this file, seen from outside it: whether each argument is a
// host value (a tensor made here without a device, a number, a string). One call with anything
// else (a batch, a parameter, a value of unknown placement) keeps the function's findings.
void Analyzer::note_plain_function_call(Node call) {
  std::string name(call.field(Field::function).text());
  if (!m_function_nodes.empty() && function_name() == name) return;  // recursion says nothing
  // A model on the device and a tensor on the host handed over together: the pairs the function
  // runs are judged at the end, when every function of the file has been read.
  {
    HandedInputs h;
    h.function = name;
    Node args = call.field(Field::arguments);
    for (std::uint32_t i = 0, position = 0; args.valid() && i < args.named_count(); ++i) {
      Node a = args.named(i);
      if (a.is(NodeKind::list_splat) || a.is(NodeKind::dictionary_splat)) break;
      const bool keyword = a.is(NodeKind::keyword_argument);
      Node value = keyword ? a.field(Field::value) : a;
      Symbol s = infer(value);
      const bool model = (s.kind == Kind::module || s.kind == Kind::hf_model) && s.placement == Placement::accelerator;
      const bool host = s.kind == Kind::tensor && s.placement == Placement::host;
      if (keyword) {
        std::string k(a.field(Field::name).text());
        if (model) h.model_keywords.emplace(k, value);
        if (host) h.host_keywords.emplace(k, value);
      } else {
        if (model) h.model_positional.emplace(static_cast<int>(position), value);
        if (host) h.host_positional.emplace(static_cast<int>(position), value);
        ++position;
      }
    }
    if ((!h.model_positional.empty() || !h.model_keywords.empty()) &&
        (!h.host_positional.empty() || !h.host_keywords.empty()) && m_handed_inputs.size() < 1024) {
      m_handed_inputs.push_back(std::move(h));
    }
  }
  // A model that certainly stays on the CPU (built or returned here, never moved) handed over.
  {
    Node args = call.field(Field::arguments);
    std::map<int, std::string> device_args;
    const std::size_t first_handed = m_handed_models.size();
    for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
      Node a = args.named(i);
      if (a.is(NodeKind::keyword_argument) || a.is(NodeKind::list_splat) || a.is(NodeKind::dictionary_splat)) break;
      Symbol s = infer(a);
      if (s.placement == Placement::accelerator && s.kind != Kind::module && s.kind != Kind::hf_model &&
          s.kind != Kind::device) {
        device_args.emplace(static_cast<int>(i), std::string(snippet(a, 30)));
      }
      // A criterion has no weights that would have to move (whatever its class is called).
      bool criterion = util::contains_icase(a.text(), "criterion") || util::contains_icase(a.text(), "loss");
      if (s.kind == Kind::module && s.placement == Placement::host && !s.is_parameter && !s.is_loss && !s.submodule &&
          !criterion) {
        int row = s.row >= 0 ? s.row : s.built_row >= 0 ? s.built_row : static_cast<int>(a.row());
        int column = s.row >= 0 ? s.column : s.built_row >= 0 ? s.built_column : static_cast<int>(a.column());
        m_handed_models.push_back({name, static_cast<int>(i), a, row, column, {}});
      }
    }
    for (std::size_t k = first_handed; k < m_handed_models.size(); ++k) m_handed_models[k].device_args = device_args;
  }
  bool host = true;
  Node args = call.field(Field::arguments);
  for (std::uint32_t i = 0; args.valid() && i < args.named_count() && host; ++i) {
    Node a = args.named(i);
    if (a.is(NodeKind::keyword_argument)) a = a.field(Field::value);
    if (a.is(NodeKind::integer) || a.is(NodeKind::float_) || a.is(NodeKind::string) || a.is(NodeKind::true_) ||
        a.is(NodeKind::false_) || a.is(NodeKind::none)) {
      continue;
    }
    Symbol s = infer(a);
    host = s.placement == Placement::host && s.kind != Kind::batch && !s.is_parameter && !s.from_param;
  }
  auto [it, inserted] = m_calls_host_only.try_emplace(name, host);
  if (!inserted) it->second = it->second && host;
}

void Analyzer::check_dropped_device_argument(Node call) {
  // `encoder = open_archive(path)` in a function that has `cuda_device=0` at hand, where
  // open_archive's own cuda_device defaults to -1: the call keeps the CPU default.
  if (m_function_nodes.empty()) return;
  auto it = m_ff.cpu_default_device_parameters.find(std::string(call.field(Field::function).text()));
  if (it == m_ff.cpu_default_device_parameters.end() || it->first == function_name()) return;
  const DeviceParameter& dp = it->second;
  Node args = call.field(Field::arguments);
  int positional_count = 0;
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (a.is(NodeKind::list_splat) || a.is(NodeKind::dictionary_splat)) return;
    if (a.is(NodeKind::keyword_argument)) {
      if (a.field(Field::name).text() == dp.name) return;
      continue;
    }
    ++positional_count;
  }
  if (positional_count > dp.index || under_choice(call)) return;  // `if args.cpu: run(x)`: a choice
  // What the caller has at hand: a device-like parameter of its own that does not default to the
  // CPU, or a device-like keyword it hands to another call.
  std::string at_hand;
  Node fn = m_function_nodes.back();
  Node params = fn.field(Field::parameters);
  for (std::uint32_t i = 0; params.valid() && i < params.named_count() && at_hand.empty(); ++i) {
    std::string_view text = params.named(i).text();
    auto eq = text.find('=');
    auto name = util::trim(text.substr(0, std::min(eq, text.find(':'))));
    auto def = eq == std::string_view::npos ? std::string_view() : util::trim(text.substr(eq + 1));
    if (names_a_device(name) && name != "self" && !cpu_default(def)) {
      at_hand = fmt::format("its parameter `{}`", name);
    }
    // A parameter of the same name, whatever its default (`def minibatch(..., use_cuda=False)` calling
    // `gpu(t)` whose `use_cuda` is the same flag): it takes the flag to hand it on.
    if (name == dp.name && at_hand.empty()) at_hand = fmt::format("its own parameter `{}`", name);
  }
  if (at_hand.empty()) {
    auto body = fn.field(Field::body).text();
    for (auto at = body.find(dp.name + "="); at != std::string_view::npos && at_hand.empty(); at = body.find(dp.name + "=", at + 1)) {
      auto value_end = body.find_first_of(",)\n", at);
      auto value = util::trim(body.substr(at + dp.name.size() + 1, value_end == std::string_view::npos ? std::string_view::npos
                                                                                                  : value_end - at - dp.name.size() - 1));
      if (value.empty() || value == "None" || value == "-1" || value == "False" || value == "\"cpu\"" || value == "'cpu'") continue;
      if (at > 0 && (std::isalnum(static_cast<unsigned char>(body[at - 1])) != 0 || body[at - 1] == '_')) continue;
      at_hand = fmt::format("`{}={}`, which it hands to another call", dp.name, value);
    }
  }
  if (at_hand.empty()) return;
  emit(RuleId::hardcoded_cpu, call,
       fmt::format("{}() is called without `{}`, so it keeps its default ({}: the CPU), although {}() has {}",
                   it->first, dp.name, dp.default_text, function_name(), at_hand),
       {snippet(call, 80)}, fmt::format("pass it on: {}(..., {}=...)", it->first, dp.name));
}

// `model.head = Head(cfg)` after `model.to(device)`: a submodule built on the CPU swapped into a model
// already moved; only the parameters that were there moved. Reported unless the model (or the new
// part) is moved again later in the function.
void Analyzer::check_submodule_swapped_after_move(Node statement, Node left, Node right, const Symbol& value) {
  Node object = left.field(Field::object);
  if (!object.is(NodeKind::identifier) || m_function_nodes.empty()) return;
  if (value.kind != Kind::module || value.placement != Placement::host || value.is_parameter || value.is_loss ||
      value.weightless) {
    return;
  }
  const Symbol* model = lookup(object.text());
  if (model == nullptr || model->kind != Kind::module || model->placement != Placement::accelerator) return;
  // Each check reads the rest of the function: a generated file with thousands of such assignments
  // is read for the first ones only.
  constexpr int k_max_swap_checks = 256;
  if (++m_swap_checks > k_max_swap_checks) return;
  Node fn = m_function_nodes.back();
  auto body = fn.text();
  const std::size_t from = std::min<std::size_t>(body.size(), statement.end_byte() - fn.start_byte());
  auto rest = body.substr(from);
  const std::string obj(object.text());
  if (name_moved_in(rest, obj, false) || name_moved_in(rest, left.text(), false) ||
      (right.is(NodeKind::identifier) && name_moved_in(rest, right.text(), false))) {
    return;
  }
  emit(RuleId::model_not_moved, left,
       fmt::format("`{}` was moved to the device at {}, and this part is built afterwards on the CPU and put in it: "
                   "model.to() moved only the modules it had, so `{}` stays behind (\"Expected all tensors to be on "
                   "the same device\")",
                   obj, where(model->moved_row), left.text()),
       {snippet(statement, 80)}, fmt::format("{}.to(device) after swapping the part in (or build it on the device)", obj));
}

// What a module on the device computed, through its fields, slices and shape methods
// (`lm(**enc).logits[:, :-1].contiguous()`), or a name bound to it.
bool Analyzer::from_model_output(Node e) {
  for (int guard = 0; guard < 16 && e.valid(); ++guard) {
    if (e.is(NodeKind::identifier)) {
      const Symbol* s = lookup(e.text());
      return s != nullptr && s->model_output;
    }
    if (e.is(NodeKind::subscript)) {
      e = e.field(Field::value);
      continue;
    }
    if (e.is(NodeKind::attribute)) {
      auto field = e.field(Field::attribute).text();
      if (field != "logits" && field != "last_hidden_state" && field != "pooler_output" && field != "hidden_states" &&
          field != "loss" && field != "T" && field != "values") {
        return false;
      }
      e = e.field(Field::object);
      continue;
    }
    if (e.is(NodeKind::parenthesized_expression) || e.is(NodeKind::unary_operator)) {
      if (e.named_count() != 1) return false;
      e = e.named(0);
      continue;
    }
    // Arithmetic keeps a model's output where it is: `-(p * torch.log(p + eps)).sum(-1)`.
    if (e.is(NodeKind::binary_operator)) {
      Node a = e.named(0), b = e.named(e.named_count() - 1);
      // One level of recursion per operator, bounded: a generated `a + a + ... + a` is not followed.
      static thread_local int t_depth = 0;
      if (t_depth >= 8) return false;
      ++t_depth;
      const bool left = from_model_output(a);
      --t_depth;
      if (left) return true;
      e = b;
      continue;
    }
    if (!e.is(NodeKind::call)) return false;
    Node fn = e.field(Field::function);
    if (fn.is(NodeKind::attribute)) {
      auto m = fn.field(Field::attribute).text();
      // torch.softmax(logits, -1), F.log_softmax(out, 1), torch.log(p): elementwise and reductions
      // placed like their first argument.
      const std::string q = qualified_callee(e);
      const std::string_view last = last_component(q);
      if ((is_torch_function(q) && (last == "softmax" || last == "log_softmax" || last == "log" || last == "exp" ||
                                    last == "sigmoid" || last == "sum" || last == "mean" || last == "argmax" ||
                                    last == "abs" || last == "sqrt")) ||
          (starts_with_package(q, "torch.nn.functional") && (last == "softmax" || last == "log_softmax" ||
                                                             last == "sigmoid" || last == "normalize"))) {
        e = positional(e, 0);
        continue;
      }
      if (m == "view" || m == "reshape" || m == "contiguous" || m == "float" || m == "half" || m == "clone" ||
          m == "squeeze" || m == "unsqueeze" || m == "permute" || m == "transpose" || m == "flatten" ||
          m == "log_softmax" || m == "softmax" || m == "detach" || m == "sum" || m == "mean" || m == "sigmoid" ||
          m == "exp" || m == "log" || m == "abs" || m == "argmax" || m == "max" || m == "min" || m == "gather") {
        e = fn.field(Field::object);
        continue;
      }
    }
    if (fn.is(NodeKind::attribute) && fn.field(Field::attribute).text() == "forward") fn = fn.field(Field::object);
    if (!fn.is(NodeKind::identifier) && !fn.is(NodeKind::attribute)) return false;
    const Symbol* callee = lookup(fn.text());
    if (callee != nullptr && (callee->kind == Kind::module || callee->kind == Kind::hf_model) && !callee->is_loss &&
        callee->placement == Placement::accelerator) {
      return true;
    }
    // A model this function was handed (`model(inp)` with `model` a parameter), fed an input on the
    // device: the model is where its input is, and so is what it computes.
    if (callee != nullptr && callee->kind != Kind::module && callee->kind != Kind::unknown) return false;
    if (callee != nullptr && callee->is_loss) return false;
    const std::string_view name = last_component(fn.text());
    if (name.find("model") == std::string_view::npos && name != "net" && name != "network" && !name.ends_with("_net")) {
      return false;
    }
    Node args = e.field(Field::arguments);
    for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
      Node a = args.named(i);
      if (a.is(NodeKind::identifier) && infer(a).placement == Placement::accelerator) return true;
    }
    // A model the function was handed, in a file that puts values on a device: a caller may hand it a
    // model on the GPU.
    if (m_ff.uses_device && fn.is(NodeKind::identifier) && !m_function_nodes.empty() &&
        (callee == nullptr || callee->placement != Placement::host)) {
      return parameter_index(m_function_nodes.back(), fn.text()) >= 0;
    }
    return false;
  }
  return false;
}

// A loss (torch.nn.functional's, or a loss module) given a model's output on the device and targets
// made here on the host, most often a field of a tokenizer's encoding whose moved copy was handed to
// the model only (`lm(**{k: v.to(dev) ...})`, then `target = enc["input_ids"]`).
void Analyzer::check_loss_operands(Node call, std::string_view q) {
  static constexpr std::string_view k_losses[] = {
      "cross_entropy", "nll_loss", "mse_loss", "l1_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits",
      "smooth_l1_loss", "huber_loss", "kl_div", "soft_margin_loss", "multilabel_soft_margin_loss"};
  bool loss = false;
  if (starts_with_package(q, "torch.nn.functional")) {
    loss = std::find(std::begin(k_losses), std::end(k_losses), last_component(q)) != std::end(k_losses);
  } else if (Node fn = call.field(Field::function); fn.is(NodeKind::identifier) || fn.is(NodeKind::attribute)) {
    const Symbol* callee = lookup(fn.text());
    loss = callee != nullptr && callee->kind == Kind::module && callee->is_loss;
  }
  if (!loss || m_ff.framework_moves_batches) return;
  Node a = positional(call, 0), b = positional(call, 1);
  if (!a.valid() || !b.valid()) return;
  Symbol sa = infer(a), sb = infer(b);
  sa.model_output = sa.model_output || from_model_output(a);
  sb.model_output = sb.model_output || from_model_output(b);
  auto on_device = [](const Symbol& s) {
    return (s.kind == Kind::tensor && s.placement == Placement::accelerator) || s.model_output;
  };
  auto on_host = [](const Symbol& s) { return s.made_on_host() && !s.zero_dim && (s.sized ? !s.from_param : !s.maybe_number); };
  Node host;
  if (on_device(sa) && on_host(sb)) host = b;
  if (on_device(sb) && on_host(sa)) host = a;
  if (!host.valid()) return;
  // The names under the fields, slices and shape methods: `target` of `target.view(-1)`.
  auto root = [](Node n) {
    while (n.valid() && !n.is(NodeKind::identifier) &&
           (n.is(NodeKind::call) || n.is(NodeKind::attribute) || n.is(NodeKind::subscript))) {
      n = n.is(NodeKind::call) ? n.field(Field::function) : n.is(NodeKind::attribute) ? n.field(Field::object) : n.field(Field::value);
    }
    return n;
  };
  Node named = root(host), other = root(host == a ? b : a);
  if (named.valid() && named.is(NodeKind::identifier)) {
    Symbol* s = lookup(named.text());
    if (s != nullptr) {
      if (s->reported) return;
      s->reported = true;
    }
  }
  const bool names = named.valid() && named.is(NodeKind::identifier) && other.valid() && other.is(NodeKind::identifier);
  emit(RuleId::inputs_not_moved, host,
       fmt::format("The loss gets `{}`, made on the CPU, with `{}`, which a model on the device computed: \"Expected all "
                   "tensors to be on the same device\"",
                   snippet(host, 40), snippet(host == a ? b : a, 40)),
       {snippet(call, 80)},
       names ? fmt::format("{0} = {0}.to({1}.device) before the loss", named.text(), other.text())
             : std::string("move the targets to the output's device before the loss"));
}

void Analyzer::on_call(Node call) {
  Node fn = call.field(Field::function);
  std::string q = qualified_callee(call);
  std::string_view last = last_component(q);
  check_loss_operands(call, q);
  // Every NumPy function reads its array arguments through np.asarray: np.isnan(logits.max()) of a
  // device tensor fails as np.array(logits) does.
  if (q.starts_with("numpy.") && !q.starts_with("numpy.random.") && positional(call, 0).valid()) {
    check_numpy_of_device_tensor(call, positional(call, 0));
  }

  if (is_announcement(q)) collect_announced(call.field(Field::arguments));
  // A factory given a device that is not the CPU: this function places its tensors by hand.
  if (!m_functions.empty() && is_torch_function(q) && keyword(call, "device").valid()) {
    Node dev = keyword(call, "device").field(Field::value);
    if (!is_cpu_device(dev) && !dev.is(NodeKind::none)) {
      m_device_factory_row.try_emplace(m_functions.back(), static_cast<int>(call.row()));
      if (!m_classes.empty()) m_class_device_factory_row.try_emplace(m_classes.back(), static_cast<int>(call.row()));
    }
  }
  if (fn.is(NodeKind::identifier)) {
    note_parameter_model_call(call);
    note_unmoved_encoding_call(call);
    note_plain_function_call(call);
    check_dropped_device_argument(call);
    check_optimizer_loaded_by_helper(call);
    check_cuda_flag_default(call, fn.text());
  }
  if (q == "torch.cuda.set_device") check_set_device_of_fallback(call);
  check_optimizer_built_before_move(call, q);
  // A collective of torch.distributed on a tensor made here on the host: NCCL, the GPU backend,
  // takes device tensors only (gloo, the CPU one, is fine).
  // The same through Lightning's strategy (`self.trainer.strategy.reduce(t)`), whose multi-GPU
  // strategies hand the tensor to NCCL as it is.
  const bool collective = last == "all_reduce" || last == "all_gather" || last == "broadcast" || last == "reduce" ||
                          last == "reduce_scatter" || last == "all_gather_into_tensor" || last == "reduce_scatter_tensor";
  const bool via_strategy = m_ff.framework_moves_batches && fn.is(NodeKind::attribute) &&
                            last_component(fn.field(Field::object).text()) == "strategy";
  if (collective && ((starts_with_package(q, "torch.distributed") && m_ff.uses_device) || via_strategy) &&
      m_src.text.find("gloo") == std::string::npos) {
    Node t = positional(call, 0);
    Symbol* s = t.is(NodeKind::identifier) ? lookup(t.text()) : nullptr;
    if (s != nullptr && s->made_on_host() && !s->reported && s->row >= 0) {
      s->reported = true;
      emit_at(RuleId::tensor_created_without_device, s->row, s->column,
              fmt::format("`{}` is made on the CPU (no device=) and handed to {}() at {}: the NCCL backend takes GPU "
                          "tensors only (\"Tensors must be CUDA and dense\")",
                          t.text(), last, where(call.row())),
              {snippet(call, 80)}, fmt::format("create `{}` with device=torch.device(\"cuda\", local_rank)", t.text()));
    }
  }
  // `Trainer(model, loader)`: a class of this file built with what its __init__ keeps.
  if (fn.is(NodeKind::identifier) && m_class_names.count(std::string(fn.text())) &&
      !m_ff.module_classes.count(std::string(fn.text()))) {
    CtorCall c;
    c.cls = std::string(fn.text());
    Node args = call.field(Field::arguments);
    for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
      Node a = args.named(i);
      auto handed = [&](Node v) {
        Node f = v.is(NodeKind::call) ? v.field(Field::function) : Node();
        std::string_view callee_last = f.valid() ? last_component(f.text()) : std::string_view();
        return Handed{infer(v), !callee_last.empty() && callee_last[0] >= 'A' && callee_last[0] <= 'Z'};
      };
      if (a.is(NodeKind::keyword_argument)) {
        c.keywords.emplace_back(std::string(a.field(Field::name).text()), handed(a.field(Field::value)));
      } else if (a.is(NodeKind::list_splat) || a.is(NodeKind::dictionary_splat)) {
        c.positional.clear();
        c.keywords.clear();
        c.cls.clear();  // *args: what goes where is unknown
        break;
      } else {
        c.positional.push_back(handed(a));
      }
    }
    if (!c.cls.empty()) m_ctor_calls.push_back(std::move(c));
  }
  check_module_ctor(call, q);
  check_local_module_called_at_once(call, q);
  check_literal_cpu_device_argument(call);
  check_factory_sized_from_sibling_argument(call, q);
  check_tensor_from_device_values(call, q);
  check_dtype_without_device(call, q);
  check_multi_gpu_only_move(call);
  check_optimizer_state_factory(call, q);
  check_host_factory(call, q);
  note_list_append(call);
  check_host_input_to_self_moved_module(call);
  note_self_model_call(call);
  if (last == "parameters" && fn.is(NodeKind::attribute) && fn.field(Field::object).is(NodeKind::identifier) &&
      !m_trained.empty() && m_trained.size() == m_function_nodes.size()) {
    m_trained.back().emplace_back(std::string(fn.field(Field::object).text()), static_cast<int>(call.row()));
  }
  check_joined(call, q);
  check_mixed_call(call, q);
  check_host_operand(call, q);
  // is_available() counts: it initialises the driver, which fixes the visible device list (P06).
  if (starts_with_package(q, "torch.cuda") && !starts_with_package(q, "torch.cuda.amp")) touch_cuda(call);

  // The public names PyTorch 2.4 deprecated (not the package's internal helpers).
  bool amp_api = last == "autocast" || last == "GradScaler" || last == "custom_fwd" || last == "custom_bwd";
  // Inside a version guard or an except clause it is the fallback for the releases before 2.4.
  if (((starts_with_package(q, "torch.cuda.amp") && amp_api) || q == "torch.cpu.amp.autocast") && !under_version_guard(call)) {
    std::string modern = last == "GradScaler" ? "torch.amp.GradScaler(\"cuda\", ...)"
                                              : fmt::format("torch.amp.{}(\"{}\", ...)", last,
                                                            starts_with_package(q, "torch.cpu") ? "cpu" : "cuda");
    emit(RuleId::deprecated_amp, fn,
         fmt::format("{} is deprecated since PyTorch 2.4 (a FutureWarning on every use); use {}", q, modern), {},
         fmt::format("Replace with {}", modern));
  }
  if (q == "torch.nn.DataParallel" || q == "torch.nn.parallel.DataParallel" ||
      q == "torch.nn.parallel.data_parallel.DataParallel") {
    emit(RuleId::dataparallel, fn,
         "nn.DataParallel runs one process that scatters each batch, replicates the model every step and "
         "gathers on GPU 0; DistributedDataParallel is significantly faster, even on a single node");
  }
  if (q == "transformers.pipeline") {
    Node dev = keyword(call, "device");
    if (dev.valid()) {
      Node v = dev.field(Field::value);
      bool cpu = is_cpu_device(v) || v.text() == "-1";
      if (cpu && !under_choice(call)) emit(RuleId::hardcoded_cpu, dev, fmt::format("pipeline({}) puts the model on the CPU", snippet(dev)));
    } else if (!keyword(call, "device_map").valid() && !has_splat(call)) {
      emit(RuleId::hf_pipeline_no_device, call,
           "pipeline() without device= or device_map=: transformers before 4.41 keeps the model on the CPU (and "
           "warns that a GPU is available); newer versions pick a device silently");
    }
  }
  if (last == "TrainingArguments" || last == "Seq2SeqTrainingArguments") {
    for (auto flag : {"use_cpu", "no_cuda"}) {
      Node kw = keyword(call, flag);
      if (kw.valid() && kw.field(Field::value).is(NodeKind::true_) && !under_choice(call)) {
        emit(RuleId::hf_trainer_cpu, kw, fmt::format("{}(..., {}=True) makes the Trainer train on the CPU", last, flag));
      }
    }
  }
  if (last == "Trainer" && (starts_with_package(q, "pytorch_lightning") || starts_with_package(q, "lightning"))) {
    Node acc = keyword(call, "accelerator");
    if (acc.valid() && string_value(acc.field(Field::value)).value_or("") == "cpu" && !under_choice(call)) {
      // A literal accelerator="cpu" is the author's stated choice (a small RL or tabular example runs
      // best on the CPU): said as advice, not as a defect.
      emit(RuleId::hardcoded_cpu, acc,
           "Trainer(accelerator=\"cpu\") trains on the CPU: a stated choice, said in case a GPU run was meant")
          .severity = facts::Severity::info;
    }
  }
  if (q == "tensorflow.device") {
    auto v = string_value(positional(call, 0));
    // A helper that returns the CPU device (`def cpu(): return tf.device("/CPU:0")`) offers it.
    if (v && (v->find("CPU") != std::string_view::npos || v->find("cpu") != std::string_view::npos) && !under_choice(call) &&
        !call.parent().is(NodeKind::return_statement)) {
      emit(RuleId::hardcoded_cpu, call, fmt::format("tf.device(\"{}\") pins the ops in this scope to the CPU", *v));
    }
  }
  if (q == "tensorflow.config.set_visible_devices" || q == "tensorflow.config.experimental.set_visible_devices") {
    Node devs = positional(call, 0);
    auto type = string_value(positional(call, 1));
    // In a PyTorch or JAX program, TensorFlow (tf.data, TensorBoard, tfds) is kept off the GPU on
    // purpose, so that it does not take the GPU's memory.
    bool other_framework = m_ff.imports.imports("torch") || m_ff.imports.imports("jax");
    if (devs.is(NodeKind::list) && devs.named_count() == 0 && type && *type == "GPU" && !other_framework &&
        !under_choice(call)) {
      emit(RuleId::hardcoded_cpu, call, "set_visible_devices([], \"GPU\") hides every GPU from TensorFlow");
    }
  }
  if (q == "jax.config.update") {
    auto key = string_value(positional(call, 0));
    auto v = string_value(positional(call, 1));
    if (key && v && (*key == "jax_platform_name" || *key == "jax_platforms") && *v == "cpu" && !under_choice(call)) {
      emit(RuleId::hardcoded_cpu, call, fmt::format("jax.config.update(\"{}\", \"cpu\") makes JAX run on the CPU", *key));
    }
  }
  if ((q == "os.putenv" || q == "os.environ.setdefault")) {
    auto var = string_value(positional(call, 0));
    Node value = positional(call, 1);
    if (var && value.valid()) check_env_assignment(*var, value, call);
  }
  if (fn.is(NodeKind::attribute) && (last == "cuda" || last == "to")) check_cuda_ignores_device(call, last);
  check_cuda_keyword_ignores_device(call);
  if (q == "torch.load") {
    check_load_without_map_location(call);
    Node ml = keyword(call, "map_location");
    if (ml.valid() && is_cpu_device(ml.field(Field::value)) && !under_choice(call)) {
      m_cpu_map_locations.push_back({ml, m_functions.empty() ? k_module_level : m_functions.back()});
    }
  }
  if (last == "DataLoader" && (starts_with_package(q, "torch") || q == "DataLoader")) {
    LoaderRecord rec;
    rec.call = call;
    Node nw = keyword(call, "num_workers");
    // num_workers=0 written out is a choice (tiny data, a debugger, a notebook on Windows).
    rec.workers_unset_or_zero = !nw.valid();
    Node pin = keyword(call, "pin_memory");
    rec.pin_memory = pin.valid() && !pin.field(Field::value).is(NodeKind::false_);
    rec.opaque = has_splat(call);
    rec.collate = keyword(call, "collate_fn").valid();
    Node dataset = positional(call, 0);
    if (!dataset.valid()) dataset = keyword(call, "dataset").field(Field::value);
    rec.in_memory = infer(dataset).kind == Kind::in_memory_dataset;
    m_loaders.push_back(rec);
  }
  bool timed = false;
  for (const auto& l : m_loops) timed = timed || m_ff.timed_loops.count(l.start_byte) > 0;
  if (q == "torch.cuda.synchronize" && in_gpu_step_loop() && !timed) {
    emit(RuleId::sync_in_loop, call, "torch.cuda.synchronize() every step stalls the CPU until the GPU drains its queue");
  }
  if (last == "print" && in_gpu_step_loop()) {
    Node args = call.field(Field::arguments);
    for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
      Node a = args.named(i);
      if (!a.is(NodeKind::identifier) && !a.is(NodeKind::attribute)) continue;
      Symbol s = infer(a);
      if (s.kind == Kind::tensor && s.placement == Placement::accelerator) {
        emit(RuleId::sync_in_loop, call,
             fmt::format("print({}) of a device tensor every step copies it to the host and waits for the GPU",
                         snippet(a, 30)));
        break;
      }
    }
  }
  if (in_gpu_step_loop() &&
      (starts_with_package(q, "numpy") || starts_with_package(q, "cv2") || starts_with_package(q, "PIL"))) {
    emit(RuleId::cpu_preprocessing_in_loop, call,
         fmt::format("{}(...) runs on the CPU inside the training loop, between GPU steps", snippet(fn, 40)));
  }

  if (fn.is(NodeKind::attribute)) {
    on_method_call(call, fn.field(Field::object), fn.field(Field::attribute).text());
  }
  if (fn.is(NodeKind::identifier) || fn.is(NodeKind::attribute)) {
    const Symbol* callee = lookup(fn.text());
    if (callee != nullptr) {
      on_module_call(call, *callee, fn.text());
    } else if (starts_with_package(q, "torch.nn.functional")) {
      on_module_call(call, Symbol{}, fn.text(), true);
    }
  }
}

// Whether the value of `n` is read on the host anyway by the expression around it:
// `(a.type(torch.FloatTensor) == b).sum().item()` counts on the host, so the cast costs no
// extra copy. Follows the enclosing expression up to its statement.
bool Analyzer::bound_for_host(Node n) const {
  for (Node p = n.parent(); p.valid(); p = p.parent()) {
    if (p.is(NodeKind::expression_statement) || p.is(NodeKind::assignment) || p.is(NodeKind::block) ||
        p.is(NodeKind::module) || p.is(NodeKind::return_statement)) {
      return false;
    }
    if (!p.is(NodeKind::call)) continue;
    Node fn = p.field(Field::function);
    if (!fn.is(NodeKind::attribute)) continue;
    std::string_view m = fn.field(Field::attribute).text();
    if (m == "item" || m == "tolist" || m == "numpy" || m == "cpu") return true;
  }
  return false;
}

// `self.model.text_features(ids)` / `model.encode(ids)`: a method of a model moved to the device, given
// a tensor (or a dict of them) made here on the host from data. Methods that do not run the model
// (placement, state, hooks) and generate() (judged with the Hugging Face rules) are not read; nor is a
// method that this file defines to move its inputs itself.
void Analyzer::check_host_input_to_moved_model_method(Node call, Node object, std::string_view method) {
  if (!object.is(NodeKind::identifier) && !object.is(NodeKind::attribute)) return;
  static constexpr std::string_view k_not_forward[] = {
      "to", "cuda", "cpu", "half", "float", "double", "bfloat16", "type", "eval", "train", "parameters",
      "named_parameters", "buffers", "named_buffers", "modules", "named_modules", "children", "named_children",
      "state_dict", "load_state_dict", "apply", "register_buffer", "register_parameter", "register_forward_hook",
      "register_forward_pre_hook", "register_full_backward_hook", "register_backward_hook", "zero_grad",
      "requires_grad_", "add_module", "get_submodule", "save_pretrained", "resize_token_embeddings",
      "set_input_embeddings", "tie_weights", "generate", "compile", "share_memory", "fuse", "save", "load",
      "forward", "__call__"};
  if (std::find(std::begin(k_not_forward), std::end(k_not_forward), method) != std::end(k_not_forward)) return;
  if (m_ff.framework_moves_batches) return;
  const Symbol* model = lookup(object.text());
  if (model == nullptr || model->weightless || model->placement != Placement::accelerator ||
      (model->kind != Kind::module && model->kind != Kind::hf_model)) {
    return;
  }
  Node args = call.field(Field::arguments);
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node arg = args.named(i);
    if (arg.is(NodeKind::keyword_argument)) arg = arg.field(Field::value);
    if (arg.is(NodeKind::dictionary_splat) || arg.is(NodeKind::list_splat)) arg = arg.named_count() ? arg.named(0) : Node();
    if (arg.is(NodeKind::subscript)) arg = arg.field(Field::value);
    if (!arg.is(NodeKind::identifier)) continue;
    Symbol* b = lookup(arg.text());
    if (b == nullptr || b->reported || b->row < 0) continue;
    const bool host_encoding = b->kind == Kind::encoding && b->made_here && b->placement == Placement::host;
    if (!host_encoding && !(b->made_on_host() && (b->sized ? !b->from_param : !b->maybe_number))) continue;
    // A method of the file that moves its input itself: read once per method name.
    auto cached = m_method_moves_input.find(std::string(method));
    if (cached == m_method_moves_input.end()) {
      bool moves_itself = false;
      const std::string def = "def " + std::string(method) + "(";
      if (auto at = m_src.text.find(def); at != std::string::npos) {
        auto body = def_body(m_src.text, at);
        moves_itself = body.find(".to(") != std::string_view::npos || body.find(".cuda(") != std::string_view::npos ||
                       body.find("device") != std::string_view::npos;
      }
      cached = m_method_moves_input.emplace(std::string(method), moves_itself).first;
    }
    if (cached->second) return;
    b->reported = true;
    // Reported where it is made, where the move belongs.
    emit_at(RuleId::inputs_not_moved, b->row, b->column,
         fmt::format("`{}` is made on the CPU here and given to `{}.{}()` at {}, a method of a model that {}", arg.text(),
                     object.text(), method, where(call.row()),
                     model->moved_row >= 0 ? fmt::format("was moved to the device at {}", where(model->moved_row))
                                           : std::string("is on the device")),
         {snippet(call, 80)},
         host_encoding ? fmt::format("{0} = {{k: v.to(device) for k, v in {0}.items()}}", arg.text())
                       : fmt::format("{} = {}.to(device)", arg.text(), arg.text()));
    return;
  }
}

// `self.embedding.weight` in a method of a module class that shows it runs on a device (it reads
// self.device or moves values with .to()/.cuda()): the module's weights are wherever the module was
// moved, so on the GPU once it was.
bool Analyzer::own_weight_of_placed_module(Node e) {
  if (!e.is(NodeKind::attribute) || !in_module_method() || m_class_nodes.empty()) return false;
  const std::string_view field = e.field(Field::attribute).text();
  if (field != "weight" && field != "bias") return false;
  if (!e.field(Field::object).text().starts_with("self.")) return false;
  // Read once per class: a class with many such lines is not searched once per line.
  const Node cls_node = m_class_nodes.back();
  auto [it, fresh] = m_placed_module_classes.try_emplace(cls_node.start_byte(), false);
  if (fresh) {
    const std::string_view cls = cls_node.text();
    it->second = util::contains(cls, "self.device") || util::contains(cls, ".to(") || util::contains(cls, ".cuda(");
  }
  return it->second;
}

// `x.numpy()` / `np.array(x)` of a tensor on the device, with no .cpu() between: NumPy cannot read
// device memory.
void Analyzer::check_numpy_of_device_tensor(Node call, Node data) {
  for (int guard = 0; guard < 16 && data.valid(); ++guard) {
    if (data.is(NodeKind::attribute) && data.field(Field::attribute).text() == "data") {
      data = data.field(Field::object);
      continue;
    }
    if (!data.is(NodeKind::call) || !data.field(Field::function).is(NodeKind::attribute)) break;
    auto m = data.field(Field::function).field(Field::attribute).text();
    if (m == "cpu" || m == "to" || m == "item" || m == "tolist") return;
    // Methods that leave the tensor where it is: reshapes, casts, copies, elementwise maps, reductions.
    static constexpr std::string_view k_stay[] = {
        "detach",  "squeeze", "unsqueeze", "flatten", "view",    "reshape", "float", "double", "long", "int",
        "contiguous", "clone", "permute",  "transpose", "argmax", "softmax", "sigmoid", "max",  "min",  "mean",
        "sum",     "abs",     "exp",       "log",     "norm",    "std",     "sqrt"};
    if (std::find(std::begin(k_stay), std::end(k_stay), m) == std::end(k_stay)) return;
    data = data.field(Field::function).field(Field::object);
  }
  if (!data.valid()) return;
  Symbol s = infer(data);
  const bool on_device = (s.kind == Kind::tensor && s.placement == Placement::accelerator) ||
                         from_model_output(data) || own_weight_of_placed_module(data);
  if (!on_device) return;
  // A lesson that shows the error on purpose ("# this will error"), on the line or the one above.
  {
    const std::string_view text = m_src.text;
    std::size_t bol = text.rfind('\n', call.start_byte());
    if (bol != std::string_view::npos && bol > 0) bol = text.rfind('\n', bol - 1);
    bol = bol == std::string_view::npos ? 0 : bol + 1;
    std::size_t eol = text.find('\n', call.end_byte());
    if (comment_says_it_fails(text.substr(bol, (eol == std::string_view::npos ? text.size() : eol) - bol))) return;
  }
  Node named = data;
  while (named.is(NodeKind::subscript)) named = named.field(Field::value);
  if (named.is(NodeKind::identifier) || named.is(NodeKind::attribute)) {
    if (Symbol* sym = lookup(named.text())) {
      if (sym->numpy_reported) return;
      sym->numpy_reported = true;
    }
  }
  emit(RuleId::numpy_of_device_tensor, call,
       fmt::format("`{}` is on the device here, and NumPy cannot read device memory: \"TypeError: can't convert "
                   "cuda:0 device type tensor to numpy\"",
                   snippet(data, 40)),
       {snippet(call, 80)}, fmt::format("{}.detach().cpu().numpy()", snippet(data, 40)));
}

// Whether `name` is bound in the enclosing function (or the module) to a NumPy array made by a
// factory: `g_loss = np.zeros((n, 1))`.
bool Analyzer::numpy_array_here(std::string_view name) const {
  // `self.trace`: made in any method of the class (`self.trace = np.zeros(n)` in __init__).
  const bool own = name.starts_with("self.") && !m_class_nodes.empty();
  const std::string_view scope = own                       ? m_class_nodes.back().text()
                                 : m_function_nodes.empty() ? std::string_view(m_src.text)
                                                            : m_function_nodes.back().text();
  bool found = false;
  util::for_each_name_use(scope, name, [&](std::string_view rest) {
    if (found || !rest.starts_with(" = ")) return;
    rest.remove_prefix(3);
    for (std::string_view alias : {"np.", "numpy."}) {
      if (!rest.starts_with(alias)) continue;
      const std::string_view factory = rest.substr(alias.size());
      for (std::string_view f : {"zeros(", "ones(", "empty(", "full(", "zeros_like(", "ones_like(", "empty_like(", "full_like("}) {
        found = found || factory.starts_with(f);
      }
    }
  });
  return found;
}

void Analyzer::on_method_call(Node call, Node object, std::string_view method) {
  check_host_input_to_moved_model_method(call, object, method);
  // `mask.type(torch.FloatTensor)` in a module's method: the legacy CPU tensor types convert and copy
  // to the CPU, so an input on the GPU comes back on the host (`.float()` casts in place).
  if (method == "type" && in_module_method() && function_name() != "__init__" && mentions_parameter(object)) {
    Node arg = positional(call, 0);
    static constexpr std::string_view k_cpu_types[] = {"FloatTensor", "LongTensor", "DoubleTensor", "IntTensor",
                                                      "ByteTensor",  "BoolTensor", "HalfTensor",   "ShortTensor"};
    if (arg.valid() && arg.is(NodeKind::attribute) && arg.field(Field::object).text() == "torch" &&
        std::find(std::begin(k_cpu_types), std::end(k_cpu_types), arg.field(Field::attribute).text()) != std::end(k_cpu_types)) {
      const auto t = arg.field(Field::attribute).text();
      const std::string_view cast = t == "FloatTensor" ? ".float()" : t == "LongTensor" ? ".long()" : t == "DoubleTensor" ? ".double()"
                                  : t == "IntTensor" ? ".int()" : t == "ByteTensor" ? ".byte()" : t == "BoolTensor" ? ".bool()"
                                  : t == "HalfTensor" ? ".half()" : ".short()";
      emit(RuleId::hardcoded_cpu, call,
           fmt::format("`.type(torch.{})` converts to a CPU tensor type: in {}() of a module, an input on the GPU comes "
                       "back on the host and meets the module's device tensors",
                       t, function_name()),
           {snippet(call, 80)}, fmt::format("{}{} (casts where the tensor is)", snippet(object, 40), cast));
    }
  }
  if (method == "numpy" && call.field(Field::arguments).named_count() == 0) check_numpy_of_device_tensor(call, object);
  if (method == "generate" && (object.is(NodeKind::attribute) || object.is(NodeKind::identifier))) {
    if (const Symbol* m = lookup(object.text()); m != nullptr && m->is_parameter) note_host_feed(object.text(), call);
  }
  if (in_gpu_step_loop() && call.field(Field::arguments).named_count() == 0) {
    for (auto m : k_sync_methods) {
      if (method != m) continue;
      // A value known to be on the host (a batch not yet moved) has nothing to wait for; a
      // module's .cpu() moves it.
      Symbol of = infer(object);
      if (of.placement == Placement::host || of.kind == Kind::module || of.kind == Kind::hf_model) break;
      auto& f = emit(RuleId::sync_in_loop, call,
                     fmt::format("{}.{}() every step waits for the GPU to finish and copies the value to the host",
                                 snippet(object, 30), method));
      // Reading a scalar (a loss to log) each step is what nearly every training script does: one
      // short stall per step: info, whatever default the rule has.
      if (method == "item") f.severity = facts::Severity::info;
    }
  }
  if (method == "cuda") touch_cuda(call);
  // self.cuda() in a module's __init__: submodules assigned after it stay behind.
  if (object.text() == "self" && function_name() == "__init__" && in_module_method() && m_self_moved_row < 0 &&
      moves_to_accelerator(call, method)) {
    m_self_moved_row = call.row();
  }
  // self.layers.append(nn.Linear(...)) onto a plain list made in __init__.
  if (method == "append" && function_name() == "__init__") {
    auto it = m_plain_lists.find(std::string(object.text()));
    Node item = positional(call, 0);
    if (it != m_plain_lists.end() && item.valid() && infer(item).kind == Kind::module && !registers_by_hand(call)) {
      emit(RuleId::module_not_registered, it->second,
           fmt::format("`{}` is a plain Python list, and layers are appended to it at {}: the module does not register "
                       "them, so .to(device) leaves them on the CPU and the optimizer never sees their weights",
                       it->first, where(call.row())),
           {snippet(call, 80)}, fmt::format("{} = nn.ModuleList()", it->first));
      m_plain_lists.erase(it);
    }
  }
  if (method == "to" && string_value(positional(call, 0)).value_or("").substr(0, 4) == "cuda") touch_cuda(call);

  // A freshly created CPU tensor copied to the device, in a loop or in forward() (every step).
  // `torch.FloatTensor(n).fill_(0).to(dev)` is the same thing through an in-place fill.
  Node made_by = object;
  // `-(torch.ones(n).float()).to(device)`: through parentheses and a sign.
  for (int guard = 0; guard < 4 && (made_by.is(NodeKind::parenthesized_expression) || made_by.is(NodeKind::unary_operator)); ++guard) {
    made_by = made_by.named_count() > 0 ? made_by.named(made_by.named_count() - 1) : Node();
  }
  if (made_by.is(NodeKind::call) && last_component(qualified_callee(made_by)) == "Variable") made_by = positional(made_by, 0);
  while (made_by.is(NodeKind::call) && made_by.field(Field::function).is(NodeKind::attribute)) {
    auto m = made_by.field(Field::function).field(Field::attribute).text();
    if (m != "fill_" && m != "zero_" && m != "float" && m != "long" && m != "bool" && m != "half" && m != "normal_" &&
        m != "uniform_") {
      break;
    }
    made_by = made_by.field(Field::function).field(Field::object);
  }
  // The loop must be one that runs steps (it calls backward() or walks a DataLoader's batches): a
  // loop of ten samples drawn for a plot is no cost.
  bool step_loop = false;
  for (int idx : m_loop_index) step_loop = step_loop || idx >= 0;
  step_loop = step_loop || in_step_loop();
  // A module's methods besides __init__ run with the forward pass (init_hidden(batch), masks).
  std::string_view fname = function_name();
  bool per_step_method = in_forward() || (in_module_method() && fname != "__init__" && fname.find("init") == std::string_view::npos &&
                                          fname.find("reset") == std::string_view::npos && fname.find("build") == std::string_view::npos);
  // A function of the file that forward() or a training step calls by name.
  per_step_method = per_step_method || called_from_forward() || function_name() == "__call__";
  // A plain class's method that a loop of the file calls by name (`sched.step(...)` at each denoising
  // step), unless the name is a container's or a tensor's own.
  if (!per_step_method && state_method() && m_ff.methods_called_in_loops.contains(std::string(fname))) {
    static constexpr std::string_view k_common[] = {"get",  "append", "extend", "items", "keys", "values", "pop",
                                                    "insert", "copy", "format", "join",  "split", "strip", "replace",
                                                    "to",   "cuda",   "cpu",    "item",  "numpy", "add",  "put"};
    per_step_method = std::find(std::begin(k_common), std::end(k_common), fname) == std::end(k_common);
  }
  // `alphas = self.alphas_cumprod.to(x.device)` in a plain class's method that a loop calls at each
  // step (a noise scheduler's add_noise()), where __init__ made the table with torch: the same copy
  // at every step, into a local that is thrown away.
  if ((method == "to" || method == "cuda") && per_step_method && state_method() && object.is(NodeKind::attribute) &&
      object.field(Field::object).text() == "self" && moves_to_accelerator(call, method) && !m_class_nodes.empty()) {
    Node up = call.parent();
    const std::string attr(object.text());
    if (up.is(NodeKind::assignment) && up.field(Field::left).is(NodeKind::identifier) &&
        m_class_nodes.back().text().find(attr + " = torch.") != std::string_view::npos &&
        m_attribute_reported.insert(attr + "@copied").second) {
      emit(RuleId::tensor_created_then_moved, call,
           fmt::format("`{}` stays on the CPU and .{}() copies it to the device into `{}` at every call of {}(), which "
                       "a loop of this file calls at each step",
                       attr, method, up.field(Field::left).text(), fname),
           {snippet(call, 80)},
           fmt::format("keep the moved copy: `{} = {}.to(device)` once (or on the first call), then use it", attr, attr));
    }
  }
  // `buf = torch.zeros(n)` and, a statement or two later, `buf = buf.cuda()` (often under `if use_cuda:`):
  // the same host allocation copied over, written in two statements.
  if ((method == "to" || method == "cuda") && (step_loop || per_step_method) && object.is(NodeKind::identifier) &&
      moves_to_accelerator(call, method) && !runs_once_per_loop(call)) {
    Node up = call.parent();
    const Symbol* made = lookup(object.text());
    // The binding itself must be a sized factory (`torch.zeros(n)`), not host data made a tensor
    // (`torch.LongTensor([ids])`), which has to cross anyway: read its line, at most 512 bytes back.
    auto sized_factory_line = [&]() {
      const std::string_view text = m_src.text;
      const std::size_t end = up.start_byte();  // before `buf = buf.cuda()` itself
      const std::size_t from = end > 512 ? end - 512 : 0;
      const std::string_view window = text.substr(from, end - from);
      const std::string needle = std::string(object.text()) + " = ";
      const std::size_t at = window.rfind(needle);
      if (at == std::string_view::npos) return false;
      const std::size_t eol = window.find('\n', at);
      const std::string_view line = window.substr(at, (eol == std::string_view::npos ? window.size() : eol) - at);
      static const RE2 k_sized(R"re(\btorch\.(?:zeros|ones|empty|full|rand|randn|randint|arange|eye|linspace)\()re");
      return RE2::PartialMatch(line, k_sized);
    };
    if (up.is(NodeKind::assignment) && up.field(Field::left).text() == object.text() && made != nullptr &&
        made->made_on_host() && made->sized && !made->maybe_number && !made->zero_dim && made->row >= 0 &&
        static_cast<int>(call.row()) - made->row <= 4 && sized_factory_line() &&
        m_attribute_reported.insert(fmt::format("{}@{}:{}", object.text(), made->row, made->column)).second) {
      emit_at(RuleId::tensor_created_then_moved, made->row, made->column,
              fmt::format("`{}` is made on the CPU here and copied to the device with .{}() at {}, at every {}", object.text(),
                          method, where(call.row()),
                          step_loop && in_loop() ? fmt::format("pass of the loop at {}", where(m_loops.back().row))
                                                 : fmt::format("call of {}()", function_name())),
              {snippet(up, 80)}, "make it on the device at once: torch.zeros(..., device=<the target device>)");
    }
  }
  // `.type_as(t)` follows t's device as well as its dtype: `torch.zeros(n).type_as(L)` is a host
  // allocation copied to L's GPU.
  if ((method == "to" || method == "cuda" || method == "type_as") && (step_loop || per_step_method) &&
      made_by.is(NodeKind::call) && moves_to_accelerator(call, method)) {
    // Only a factory call itself (`torch.zeros(n).cuda()`): host data converted on the way
    // (from_numpy, stack, cat, as_tensor) has to be copied anyway.
    object = made_by;
    std::string q = qualified_callee(object);
    std::string_view factory = last_component(q);
    Symbol made = infer(object);
    bool direct = is_torch_function(q);
    // `torch.tensor(x.cpu().numpy()[:, ::-1].copy()).cuda()`: a device tensor copied to the host, only
    // sliced, flipped or cast there, and copied back, at every step. The same on the device (torch.flip,
    // slicing, .to(dtype)) costs no copy and keeps the graph.
    if (direct && (factory == "tensor" || factory == "from_numpy" || factory == "as_tensor") && !runs_once_per_loop(call)) {
      if (Node source = host_round_trip_source(positional(object, 0)); source.valid()) {
        emit(RuleId::tensor_created_then_moved, call,
             fmt::format("`{}` is copied to the host (.cpu().numpy()), only reshaped or sliced there, and copied back "
                         "with .{}(), at every {}: the same operation on the device needs no copy",
                         snippet(source, 30), method,
                         step_loop && in_loop() ? fmt::format("pass of the loop at {}", where(m_loops.back().row))
                                                : fmt::format("call of {}()", function_name())),
             {snippet(call, 80)}, "do it on the device: torch.flip(x, dims=[...]), x[...] slicing, x.to(dtype)");
        return;
      }
    }
    // `torch.stack(torch.meshgrid(dy, dx)).to(dev)` where dy and dx are factories made here on the
    // host: a host allocation copied over at every step, like a factory moved at once.
    if (direct && (factory == "stack" || factory == "cat") && !runs_once_per_loop(call) && all_host_factories(object)) {
      emit(RuleId::tensor_created_then_moved, call,
           fmt::format("{}(...) joins tensors made here on the CPU (no device=) and .{}() then copies the result to the "
                       "device, at every {}",
                       q, method,
                       step_loop && in_loop() ? fmt::format("pass of the loop at {}", where(m_loops.back().row))
                                              : fmt::format("call of {}()", function_name())),
           {snippet(call, 80)}, "make the pieces with device=<the target device> and drop the .to()");
      return;
    }
    // torch.tensor(host_list) copies host data, which has to cross anyway; code that runs once per
    // object or under a first-time test (optimizer state set-up) is no per-step cost.
    if (direct && made.kind == Kind::tensor && made.placement == Placement::host && factory != "from_numpy" &&
        factory != "stack" && factory != "cat" && factory != "as_tensor" && factory != "tensor" &&
        !runs_once_per_loop(call)) {
      emit(RuleId::tensor_created_then_moved, call,
           step_loop && in_loop() ? fmt::format("{}(...) builds the tensor on the CPU and .{}() then copies it to the device, on "
                                   "every pass of the loop at {}",
                                   q, method, where(m_loops.back().row))
                     : fmt::format("{}(...) builds the tensor on the CPU and .{}() then copies it to the device, at "
                                   "every call of {}(){}",
                                   q, method, function_name(),
                                   called_from_forward() ? ", which a forward() or training step of this file calls" : ""),
           {}, fmt::format("{}(..., device=device)", q));
    }
  }

  Symbol* target = (object.is(NodeKind::identifier) || object.is(NodeKind::attribute)) ? lookup(object.text()) : nullptr;
  // `model.cpu().state_dict()` to save: Module.cpu() moves the model itself, so training goes on on
  // the CPU after the first checkpoint.
  if (method == "state_dict" && object.is(NodeKind::call)) {
    Node inner = object.field(Field::function);
    if (inner.is(NodeKind::attribute) && inner.field(Field::attribute).text() == "cpu") {
      Node model = inner.field(Field::object);
      const Symbol* m = (model.is(NodeKind::identifier) || model.is(NodeKind::attribute)) ? lookup(model.text()) : nullptr;
      bool module = m != nullptr && (m->kind == Kind::module || m->kind == Kind::hf_model || m->is_parameter);
      std::string_view fn_text = m_function_nodes.empty() ? std::string_view() : m_function_nodes.back().text();
      bool moved_back = fn_text.find(std::string(model.text()) + ".cuda(") != std::string_view::npos ||
                        fn_text.find(std::string(model.text()) + ".to(") != std::string_view::npos;
      // Only where it runs again: in a loop, or in a function a loop calls (a checkpoint helper).
      // A final save at the end of a script is the idiom.
      bool again = in_loop();
      if (!again && !m_function_nodes.empty()) {
        std::string callee = std::string(function_name()) + "(";
        auto [it, inserted] = m_called_in_loop.try_emplace(callee, false);
        if (inserted) {
          bool found = false;
          for_each_node(m_root, [&](Node n) {
            if (found) return Descend::no;
            // The outermost loops hold the inner ones: one search of each is enough.
            if (n.is(NodeKind::for_statement) || n.is(NodeKind::while_statement)) {
              found = n.text().find(callee) != std::string_view::npos;
              return Descend::no;
            }
            return Descend::yes;
          });
          it->second = found;
        }
        again = it->second;
      }
      if (module && !moved_back && m_ff.uses_device && again) {
        emit(RuleId::hardcoded_cpu, inner,
             fmt::format("{}.cpu() moves the module itself, not a copy: after this checkpoint the training continues "
                         "on the CPU",
                         model.text()),
             {snippet(call, 80)}, fmt::format("{}.state_dict() (torch.save copies device tensors as they are), or "
                                              "{{k: v.cpu() for k, v in {}.state_dict().items()}}",
                                              model.text(), model.text()));
      }
    }
  }
  // `x.type(torch.FloatTensor)` of a tensor on the device: a CPU tensor type, so a copy to the CPU.
  if (method == "type") {
    std::string t = m_ff.imports.qualify(positional(call, 0).text());
    Symbol of = infer(object);
    if (starts_with_package(t, "torch") && t.find(".cuda.") == std::string::npos && t.ends_with("Tensor") &&
        (of.placement == Placement::accelerator || (target != nullptr && target->kind == Kind::batch &&
                                                    target->loop >= 0 &&
                                                    m_all_loops[static_cast<std::size_t>(target->loop)].moved_row >= 0)) &&
        !bound_for_host(call)) {
      emit(RuleId::hardcoded_cpu, call,
           fmt::format("{}.type({}) casts to a CPU tensor type: the tensor is copied back to the CPU", snippet(object, 30), t),
           {snippet(call, 80)}, fmt::format("{}.float() (or .to(dtype=...)) keeps it on its device", snippet(object, 30)));
    }
  }

  if (target == nullptr && method == "to" && object.is(NodeKind::call)) {
    // Net().to(device) with `device` bound to the CPU.
    Symbol made = infer(object);
    if (made.kind == Kind::module) report_cpu_device(positional(call, 0), object, call);
  }
  if (target == nullptr) {
    if (method == "fit" && object.is(NodeKind::call)) {
      Symbol made = infer(object);
      if (made.kind == Kind::sklearn_estimator) {
        emit(RuleId::sklearn_cpu_only, call,
             fmt::format("{} fits on the CPU: scikit-learn has no GPU support", snippet(object.field(Field::function))));
      }
    }
    return;
  }
  // Modules and a tokenizer's BatchEncoding move in place: model.to(device) places `model`
  // whatever is done with the result.
  if (target->kind == Kind::encoding && moves_to_accelerator(call, method)) target->placement = Placement::accelerator;
  if ((target->kind == Kind::module || target->kind == Kind::hf_model) &&
      (method == "to" || method == "cuda" || method == "cpu")) {
    Node dev = positional(call, 0);
    if (method == "cpu" || (method == "to" && is_cpu_device(dev))) {
      target->placement = Placement::host;
      if (method == "to") report_cpu_device(dev, object, call);
    } else if (moves_to_accelerator(call, method)) {
      target->placement = Placement::accelerator;
      target->moved_row = call.row();
      m_module_on_accelerator = true;
    }
    return;
  }
  // to_empty(device=...) materialises a meta-device module where it says.
  if ((target->kind == Kind::module || target->kind == Kind::hf_model) && method == "to_empty") {
    target->placement = Placement::unknown;
    return;
  }
  if (target->kind == Kind::module && !target->is_loss && (method == "parameters" || method == "train") &&
      m_trained_module_name.empty()) {
    m_trained_module_name = std::string(object.text());
    m_trained_module_row = target->row;
    m_trained_module_column = target->column;
  }
  if (target->kind == Kind::optimizer && method == "load_state_dict") check_optimizer_state_before_move(call, object);
  if (method == "requires_grad_" && object.is(NodeKind::identifier)) {
    Node flag = positional(call, 0);
    if (!flag.valid() || flag.is(NodeKind::true_)) check_trainable_on_host(object, call);
  }
  // `net = QNet()` of a class imported from elsewhere, then `net.load_state_dict(...)`: a module,
  // on the CPU where it was built (not an optimizer's, scheduler's or scaler's state).
  if (target->kind == Kind::unknown && target->object_ctor && method == "load_state_dict") {
    auto name = object.text();
    bool other_state = util::contains_icase(name, "opt") || util::contains_icase(name, "sched") ||
                       util::contains_icase(name, "scaler") || util::contains_icase(name, "ema");
    if (!other_state && !object.text().starts_with("self.")) {
      target->kind = Kind::module;
      target->placement = Placement::host;
    }
  }
  if (target->kind == Kind::module && method == "load_state_dict") {
    target->state_loaded = true;
    m_state_loaded = true;
    // Into `self.x`: a submodule, moved with its parent by whoever moves that.
    if (!object.text().starts_with("self.")) m_state_loaded_in.insert(m_functions.empty() ? k_module_level : m_functions.back());
  }
  // map_location=<a device that is not the CPU> into a local module (or what a factory of the file's
  // classes built, `cls.construct()`): the checkpoint's tensors go there, the module's parameters
  // stay where they are.
  if (method == "load_state_dict" && (target->kind == Kind::module || target->kind == Kind::unknown) &&
      object.is(NodeKind::identifier) && target->moved_row < 0 && !m_functions.empty()) {
    auto name = object.text();
    bool other_state = util::contains_icase(name, "opt") || util::contains_icase(name, "sched") ||
                       util::contains_icase(name, "scaler") || util::contains_icase(name, "ema");
    Node loaded = positional(call, 0);
    if (!other_state && loaded.is(NodeKind::call) && qualified_callee(loaded) == "torch.load") {
      Node ml = keyword(loaded, "map_location");
      if (ml.valid() && !is_cpu_device(ml.field(Field::value)) && !ml.field(Field::value).is(NodeKind::lambda)) {
        m_mapped_loads[m_functions.back()][std::string(name)] = loaded;
      }
    }
  }
  // Batches moved to a device bound to the CPU: the loop runs on the CPU.
  if (target->kind == Kind::batch && method == "to" && is_cpu_device(positional(call, 0))) {
    report_cpu_device(positional(call, 0), object, call);
  }
  if (target->kind == Kind::batch && moves_to_accelerator(call, method) && target->loop >= 0) {
    auto& loop = m_all_loops[static_cast<std::size_t>(target->loop)];
    if (loop.moved_row < 0) loop.moved_row = call.row();
    Node nb = keyword(call, "non_blocking");
    if (nb.valid() && nb.field(Field::value).is(NodeKind::true_)) loop.non_blocking = true;
  }
  if (target->kind == Kind::sklearn_estimator && method == "fit" && !target->reported) {
    target->reported = true;
    emit(RuleId::sklearn_cpu_only, call,
         fmt::format("`{}` (a scikit-learn estimator, {}) fits on the CPU: scikit-learn has no GPU support",
                     object.text(), where(target->row)));
  }
  // model.generate(input_ids=..., attention_mask=...) and model.forward(...) take inputs too.
  if ((target->kind == Kind::hf_model || target->kind == Kind::module) && (method == "generate" || method == "forward")) {
    Node args = call.field(Field::arguments);
    for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) check_batch_argument(args.named(i), *target, object.text());
  }
  if (target->kind == Kind::hf_model && method == "generate" && target->placement == Placement::host &&
      !target->reported && !target->submodule) {
    target->reported = true;
    emit_at(RuleId::hf_model_not_moved, target->row, target->column,
            fmt::format("`{}` is loaded without device_map and never moved, so {}.generate() at {} runs on the CPU",
                        object.text(), object.text(), where(call.row())),
            {snippet(call)}, {});
  }
}

void Analyzer::report_cpu_device(Node dev, Node object, Node call) {
  if (!dev.is(NodeKind::identifier) && !dev.is(NodeKind::attribute)) return;
  Symbol* d = lookup(dev.text());
  if (d == nullptr || d->reported || d->kind != Kind::device || !d->cpu_device) return;
  d->reported = true;
  emit_at(RuleId::hardcoded_cpu, d->row, d->column,
          fmt::format("`{}` is bound to the CPU here and `{}` is placed on it at {}", dev.text(),
                      snippet(object, 30), where(call.row())),
          {snippet(call)}, fmt::format("{} = torch.device(\"cuda\"), or take it from the command line", dev.text()));
}

void Analyzer::note_handed_module(Node left, Node right) {
  if (m_classes.empty() || function_name() != "__init__" || !right.is(NodeKind::identifier)) return;
  if (m_ff.module_classes.count(m_classes.back())) return;  // a submodule moves with its parent
  auto attr = left.text();
  if (!is_self_attribute(attr)) return;
  const Symbol* p = lookup(right.text());
  if (p == nullptr || !p->is_parameter || p->scalar) return;
  // The parameter's position after `self`.
  Node fn = m_function_nodes.back();
  int index = parameter_index(right.text()) - 1;
  Node cls = fn.parent();
  while (cls.valid() && !cls.is(NodeKind::class_definition)) cls = cls.parent();
  if (index < 0 || !cls.valid()) return;
  m_handed.push_back({m_classes.back(), std::string(attr.substr(5)), std::string(right.text()), index, left.row(),
                      left.column(), cls.start_byte(), cls.end_byte()});
}

void Analyzer::note_host_feed(std::string_view callee_name, Node call) {
  if (!is_self_attribute(callee_name) || m_classes.empty()) return;
  Node args = call.field(Field::arguments);
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (a.is(NodeKind::keyword_argument)) a = a.field(Field::value);
    if (!a.is(NodeKind::identifier)) continue;
    const Symbol* s = lookup(a.text());
    if (s == nullptr || s->row < 0 || !s->made_here || s->placement != Placement::host ||
        (s->kind != Kind::tensor && s->kind != Kind::encoding)) {
      continue;
    }
    m_host_feeds.push_back({m_classes.back(), std::string(callee_name.substr(5)), std::string(a.text()), s->row, s->column});
  }
}

const Analyzer::Handed* Analyzer::handed_argument(const CtorCall& c, const HandedModule& h) {
  for (const auto& [k, v] : c.keywords) {
    if (k == h.param) return &v;
  }
  if (h.index >= 0 && h.index < static_cast<int>(c.positional.size())) return &c.positional[static_cast<std::size_t>(h.index)];
  return nullptr;
}

// The index of `name` among the parameters of the enclosing function, or -1.
int Analyzer::parameter_index(std::string_view name) const {
  return m_function_nodes.empty() ? -1 : parameter_index(m_function_nodes.back(), name);
}

int Analyzer::parameter_index(Node fn, std::string_view name) {
  Node params = fn.field(Field::parameters);
  for (std::uint32_t i = 0; params.valid() && i < params.named_count(); ++i) {
    Node p = params.named(i);
    Node id = p.is(NodeKind::identifier) ? p : p.field(Field::name);
    if (!id.is(NodeKind::identifier) && p.named_count() > 0) id = p.named(0);
    if (id.is(NodeKind::identifier) && id.text() == name) return static_cast<int>(i);
  }
  return -1;
}

void Analyzer::report_handed_modules() {
  // A model never moved, handed to a function of this file that calls that parameter with a tensor
  // on the device.
  for (const auto& h : m_handed_models) {
    auto it = m_param_fed_device.find({h.function, h.index});
    if (it == m_param_fed_device.end()) {
      // `one_batch(model, opt, data, target)` with `data` moved here and `model(data)` there.
      auto by = m_param_fed_param.find({h.function, h.index});
      if (by == m_param_fed_param.end()) continue;
      auto given = h.device_args.find(by->second.index);
      if (given == h.device_args.end()) continue;
      emit_at(RuleId::model_not_moved, h.row, h.column,
              fmt::format("{} is never moved to the device and is handed to {}() with `{}`, a tensor on the device, "
                          "which {}() feeds it as `{}` at {}: \"Input type (torch.cuda.FloatTensor) and weight type "
                          "(torch.FloatTensor) should be the same\"",
                          h.arg.is(NodeKind::call) ? fmt::format("The model `{}` returns", snippet(h.arg, 40))
                                                   : fmt::format("The model `{}`", snippet(h.arg, 40)),
                          h.function, given->second, h.function, by->second.name, where(by->second.row)),
              {snippet(h.arg.parent().parent(), 80)}, "move the model with .to(device) after building or loading it");
      continue;
    }
    emit_at(RuleId::model_not_moved, h.row, h.column,
            fmt::format("{} is never moved to the device and is handed to {}(), which calls it at {} with `{}`, a "
                        "tensor on the device: \"Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) "
                        "should be the same\"",
                        h.arg.is(NodeKind::call) ? fmt::format("The model `{}` returns", snippet(h.arg, 40))
                                                 : fmt::format("The model `{}`", snippet(h.arg, 40)),
                        h.function, where(it->second.row), it->second.arg),
            {snippet(h.arg.parent().parent(), 80)}, "move the model with .to(device) after building or loading it");
  }
  // Inputs made on the host and fed to a model that every construction of the class hands over on
  // the device.
  std::set<std::pair<int, int>> fed_reported;
  for (const auto& f : m_host_feeds) {
    const HandedModule* h = nullptr;
    for (const auto& x : m_handed) {
      if (x.cls == f.cls && x.attr == f.attr) h = &x;
    }
    if (h == nullptr) continue;
    int built = 0;
    bool all_device = true;
    for (const auto& c : m_ctor_calls) {
      if (c.cls != h->cls) continue;
      const Handed* given = handed_argument(c, *h);
      if (given == nullptr) continue;
      ++built;
      const Symbol& g = given->symbol;
      all_device = all_device && (g.kind == Kind::module || g.kind == Kind::hf_model) && g.placement == Placement::accelerator;
    }
    if (built == 0 || !all_device || !fed_reported.insert({f.row, f.column}).second) continue;
    emit_at(RuleId::inputs_not_moved, f.row, f.column,
            fmt::format("`{}` is made on the CPU and given to `self.{}`, which every {}(...) in this file hands a model "
                        "on the device: \"Expected all tensors to be on the same device\"",
                        f.arg, f.attr, f.cls),
            {}, fmt::format("{} = {}.to(self.{}.device)", f.arg, f.arg, f.attr));
  }
  for (const auto& h : m_handed) {
    if (!m_attr_fed_device.count({h.cls, h.attr})) continue;
    // Each construction of the class in this file must hand it a module built here and never moved.
    int built = 0;
    bool all_host = true;
    const Handed* only = nullptr;
    for (const auto& c : m_ctor_calls) {
      if (c.cls != h.cls) continue;
      const Handed* given = handed_argument(c, h);
      if (given == nullptr) continue;
      ++built;
      only = given;
      const Symbol& g = given->symbol;
      bool host_module = g.kind == Kind::module && g.placement == Placement::host && !g.is_parameter;
      bool fresh = given->fresh_object && g.kind == Kind::unknown && g.placement == Placement::unknown;
      all_host = all_host && (host_module || fresh);
    }
    if (built == 0 || !all_host) continue;
    // The class moves it itself.
    auto body = std::string_view(m_src.text).substr(h.cls_begin, h.cls_end - h.cls_begin);
    bool moved = false;
    for (const auto& who : {"self." + h.attr, h.param}) {
      for (const char* how : {".to(", ".cuda(", ".to_empty("}) moved = moved || body.find(who + how) != std::string_view::npos;
    }
    if (moved) continue;
    // One construction, of a module built here: the fix belongs where it is built.
    if (built == 1 && only->symbol.row >= 0 && only->symbol.kind == Kind::module) {
      emit_at(RuleId::model_not_moved, only->symbol.row, only->symbol.column,
              fmt::format("This module is built here, never moved, and handed to {}(), which keeps it as `self.{}` "
                          "({}) and calls it with tensors on the device: \"Input type (torch.cuda.FloatTensor) and "
                          "weight type (torch.FloatTensor) should be the same\"",
                          h.cls, h.attr, where(h.row)),
              {}, "move it before handing it over: .to(device)");
      continue;
    }
    emit_at(RuleId::model_not_moved, h.row, h.column,
            fmt::format("`self.{}` keeps the module handed to {}() as it is, and every {}(...) in this file hands it "
                        "one that was never moved, while its methods call it with tensors on the device: \"Input "
                        "type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same\"",
                        h.attr, h.cls, h.cls),
            {}, fmt::format("self.{} = {}.to(device)", h.attr, h.param));
  }
}

void Analyzer::on_module_call(Node call, const Symbol& callee, std::string_view callee_name, bool functional) {
  if (callee.is_parameter) note_host_feed(callee_name, call);
  // `def play(net, board): ... net(state)` with `state` on the device: whoever hands play() a model
  // must hand it one on the device (judged in finish(), against every call of play()).
  if (callee.is_parameter && callee.kind == Kind::unknown && !m_function_nodes.empty() && m_classes.empty()) {
    int index = parameter_index(callee_name);
    // The function moves the model it is handed (`if use_gpu: net.cuda()`): whatever it gets is fine.
    // Read once per function and name: a function that calls its model 60,000 times is not read again
    // at each call.
    auto [moves, first] = m_param_moves_itself.try_emplace({m_function_nodes.back().start_byte(), std::string(callee_name)}, false);
    if (first) {
      auto body = m_function_nodes.back().text();
      for (const char* how : {".to(", ".cuda(", ".to_empty("}) {
        moves->second = moves->second || body.find(std::string(callee_name) + how) != std::string_view::npos;
      }
    }
    if (moves->second) index = -1;
    Node args = call.field(Field::arguments);
    for (std::uint32_t i = 0; index >= 0 && args.valid() && i < args.named_count(); ++i) {
      if (Node a = args.named(i); a.is(NodeKind::identifier)) {
        if (int j = parameter_index(a.text()); j >= 0 && j != index) {
          m_param_fed_param.try_emplace({std::string(function_name()), index},
                                        FedByParameter{static_cast<int>(call.row()), j, std::string(a.text())});
        }
      }
      Symbol in = infer(args.named(i));
      if (in.placement != Placement::accelerator || in.kind == Kind::module || in.kind == Kind::hf_model ||
          in.kind == Kind::device) {
        continue;
      }
      m_param_fed_device.try_emplace({std::string(function_name()), index},
                                     FedParameter{call.row(), std::string(snippet(args.named(i), 30))});
      break;
    }
  }
  // `self.model(batch)` in a method of a plain class, with the batch on the device.
  if (is_self_attribute(callee_name) && !m_classes.empty() &&
      callee.is_parameter) {
    Node args = call.field(Field::arguments);
    for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
      Symbol in = infer(args.named(i));
      if (in.placement == Placement::accelerator && in.kind != Kind::module && in.kind != Kind::hf_model &&
          in.kind != Kind::device) {
        m_attr_fed_device.insert({m_classes.back(), std::string(callee_name.substr(5))});
        break;
      }
    }
  }
  // A module that certainly stays on the CPU (built or returned here, never moved) given a tensor
  // that was moved: the model was forgotten.
  if (callee.kind == Kind::module && callee.placement == Placement::host && !callee.submodule && !callee.is_parameter &&
      !callee.reported && !callee.is_loss) {
    Node args = call.field(Field::arguments);
    for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
      Node a = args.named(i);
      Symbol in = infer(a);
      // `x.to(device)` of anything but a module is a tensor on the device.
      if (in.placement != Placement::accelerator || in.kind == Kind::module || in.kind == Kind::hf_model ||
          in.kind == Kind::device) {
        continue;
      }
      if (Symbol* s = lookup(callee_name)) s->reported = true;
      emit_at(RuleId::model_not_moved, callee.row, callee.column,
              fmt::format("`{}` is never moved to the device, but at {} it gets `{}`, which is on it: \"Input type "
                          "(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same\"",
                          callee_name, where(call.row()), snippet(a, 30)),
              {snippet(call, 80)}, fmt::format("{}.to(device) before the first call", callee_name));
      break;
    }
  }
  if (callee.kind == Kind::hf_model && callee.placement == Placement::host && !callee.reported &&
      !callee.submodule) {
    Symbol* s = lookup(callee_name);
    s->reported = true;
    emit_at(RuleId::hf_model_not_moved, callee.row, callee.column,
            fmt::format("`{}` is loaded without device_map and never moved, so the call at {} runs on the CPU",
                        callee_name, where(call.row())),
            {snippet(call)}, {});
  }
  // A module built here, a model passed in, or a loss function. An attribute of unknown kind
  // (`self.stub`, an RPC proxy, a tokenizer) may want host tensors: not judged.
  // A name bound to something moved with .to(device) and then called is a module too.
  bool model_like = callee.kind == Kind::module || callee.kind == Kind::hf_model || callee.is_parameter || functional ||
                    (callee.kind == Kind::unknown && callee.placement == Placement::accelerator);
  if (!model_like) return;
  for (auto& l : m_loops) l.model_called = true;
  for (int idx : m_loop_index) {
    if (idx >= 0) m_all_loops[static_cast<std::size_t>(idx)].model_called = true;
  }
  if ((callee.kind == Kind::module || callee.kind == Kind::hf_model) && m_loop_index.size() > 0) {
    for (int idx : m_loop_index) {
      if (idx >= 0 && m_module_used_in_loader_loop_row < 0) m_module_used_in_loader_loop_row = call.row();
    }
  }
  Node args = call.field(Field::arguments);
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    check_batch_argument(args.named(i), callee, callee_name);
  }
}

void Analyzer::check_batch_argument(Node arg, const Symbol& callee, std::string_view callee_name) {
  // A module with no weights of its own (an RPC stub) takes its input wherever it is.
  if (m_ff.framework_moves_batches || callee.weightless) return;
  if (arg.is(NodeKind::keyword_argument)) arg = arg.field(Field::value);
  if (arg.is(NodeKind::dictionary_splat) || arg.is(NodeKind::list_splat)) arg = arg.named_count() ? arg.named(0) : Node();
  if (arg.is(NodeKind::subscript)) arg = arg.field(Field::value);
  if (!arg.is(NodeKind::identifier)) return;
  Symbol* b = lookup(arg.text());
  bool on_device_model = (callee.kind == Kind::module || callee.kind == Kind::hf_model || callee.kind == Kind::unknown) &&
                         callee.placement == Placement::accelerator;
  // Tensors made here on the host (a tokenizer's output, from_numpy, a factory without device=)
  // given to a model that was moved.
  if (b != nullptr && (b->made_on_host() || (b->kind == Kind::encoding && b->made_here && b->placement == Placement::host)) &&
      !b->reported && on_device_model) {
    b->reported = true;
    emit(RuleId::inputs_not_moved, arg,
         fmt::format("`{}` is made on the CPU (at {}) and given to `{}`, which {}", arg.text(), where(b->row), callee_name,
                     callee.moved_row >= 0 ? fmt::format("was moved to the device at {}", where(callee.moved_row))
                                           : std::string("is on the device")),
         {snippet(arg.parent(), 80)},
         // A dict of tensors (`model(**inputs)`): a tokenizer's BatchEncoding has .to(), a collator's plain dict not.
         b->kind == Kind::encoding ? fmt::format("{0} = {{k: v.to(device) for k, v in {0}.items()}}", arg.text())
                                   : fmt::format("{} = {}.to(device)", arg.text(), arg.text()));
    return;
  }
  if (b == nullptr || b->kind != Kind::batch || b->reported || b->loop < 0) return;
  const LoopState& loop = m_all_loops[static_cast<std::size_t>(b->loop)];
  std::string evidence;
  bool on_device_callee = (callee.kind == Kind::module || callee.kind == Kind::hf_model || callee.kind == Kind::unknown) &&
                          callee.placement == Placement::accelerator;
  if (on_device_callee) {
    evidence = fmt::format("`{}` was moved to the device at {}", callee_name, where(callee.moved_row));
  } else if (loop.moved_row >= 0) {
    evidence = fmt::format("another part of the same batch is moved at {}", where(loop.moved_row));
  } else if (callee.kind == Kind::module && m_module_on_accelerator) {
    evidence = "a model in this file is moved to the device";
  } else if (int row = class_moves_inputs_to_device(callee_name); row >= 0) {
    evidence = fmt::format("another method of this class moves its inputs to the model's device (at {})", where(row));
  } else {
    auto named_eval = [](std::string_view s) {
      for (std::string_view w : {"eval", "val", "test", "predict", "infer", "score"}) {
        if (s.find(w) != std::string_view::npos) return true;
      }
      return false;
    };
    // The model is a parameter of the function the loop is in (`def predict(module, dataset)`): its
    // callers decide where it is. Plain and defaulted parameters only, not parameter_index()'s typed
    // ones: `model: nn.Module` helpers of course notebooks that also run on the CPU would be reported
    // without having been read against their code.
    std::string function;
    if (!m_function_nodes.empty() && m_classes.empty() && m_function_nodes.size() == 1) {
      Node params = m_function_nodes.back().field(Field::parameters);
      for (std::uint32_t i = 0; params.valid() && i < params.named_count(); ++i) {
        Node p = params.named(i);
        if (p.is(NodeKind::identifier) ? p.text() == callee_name : p.field(Field::name).text() == callee_name) {
          function = std::string(function_name());
        }
      }
    }
    m_unmoved_batches.push_back({arg, std::string(callee_name), b->loop,
                                 named_eval(function_name()) || named_eval(loop.source), std::move(function)});
    return;
  }
  // A lesson that shows the error on purpose ("# model is on GPU, data is on CPU (will error)").
  {
    std::size_t line_end = m_src.text.find('\n', arg.end_byte());
    if (line_end == std::string::npos) line_end = m_src.text.size();
    if (comment_says_it_fails(m_src.text.substr(loop.start_byte, line_end - loop.start_byte))) return;
  }
  b->reported = true;
  emit(RuleId::inputs_not_moved, arg,
       fmt::format("`{}` from `{}` reaches `{}(...)` without .to(device): the forward pass fails with \"Expected all "
                   "tensors to be on the same device\", or runs on the CPU if the model never moved",
                   arg.text(), loop.source, callee_name),
       {evidence, fmt::format("`{}` bound by the loop at {}", arg.text(), where(loop.row))},
       fmt::format("{} = {}.to(device, non_blocking=True)", arg.text(), arg.text()));
}

}  // namespace gpudoctor::scan

namespace gpudoctor::scan {

// Whether row `row` binds `name` to `Class.method(...)` (`InputEmbedding.from_config(cfg)`): an
// alternative constructor, which builds on the CPU like the class itself.
bool Analyzer::built_by_class_method(int row, std::string_view name) const {
  std::string_view text = m_src.text;
  std::size_t bol = 0;
  for (int r = 0; r < row && bol != std::string_view::npos; ++r) {
    bol = text.find('\n', bol);
    if (bol != std::string_view::npos) ++bol;
  }
  if (bol == std::string_view::npos) return false;
  auto line = text.substr(bol, text.find('\n', bol) == std::string_view::npos ? std::string_view::npos : text.find('\n', bol) - bol);
  std::size_t i = line.find_first_not_of(" \t");
  if (i == std::string_view::npos || !line.substr(i).starts_with(name)) return false;
  i = line.find_first_not_of(" \t", i + name.size());
  if (i == std::string_view::npos || line[i] != '=' || (i + 1 < line.size() && line[i + 1] == '=')) return false;
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string_view::npos || line[i] < 'A' || line[i] > 'Z') return false;
  std::size_t dot = line.find('.', i), paren = line.find('(', i);
  return dot != std::string_view::npos && paren != std::string_view::npos && dot < paren &&
         line.substr(dot + 1, paren - dot - 1).find('.') == std::string_view::npos &&
         line.substr(dot + 1, paren - dot - 1) != "to" && line.substr(dot + 1, paren - dot - 1) != "cuda" &&
         line.substr(paren).find(".to(") == std::string_view::npos && line.substr(paren).find(".cuda(") == std::string_view::npos;
}

void Analyzer::check_trained_together() {
  // `params = list(embedder.parameters()) + list(model.parameters())` with `model = ...to(device)`
  // and `embedder` built here, called, and never moved: one optimizer trains both, and the two
  // cannot be on different devices.
  if (m_trained.empty() || m_trained.back().size() < 2 || m_function_nodes.empty()) return;
  const auto& names = m_trained.back();
  std::string moved;
  int moved_row = -1;
  for (const auto& [name, row] : names) {
    Symbol* s = lookup(name);
    if (s != nullptr && (s->kind == Kind::module || s->kind == Kind::unknown || s->kind == Kind::hf_model) &&
        s->placement == Placement::accelerator && !s->is_parameter) {
      moved = name;
      moved_row = s->moved_row >= 0 ? s->moved_row : s->row;
      break;
    }
  }
  if (moved.empty()) return;
  auto body = m_function_nodes.back().text();
  for (const auto& [name, row] : names) {
    if (name == moved) continue;
    Symbol* s = lookup(name);
    if (s == nullptr || s->is_parameter || s->reported || s->row < 0 || s->placement == Placement::accelerator) continue;
    if (s->kind != Kind::module && s->kind != Kind::unknown) continue;
    if (s->kind == Kind::unknown && !s->object_ctor && !built_by_class_method(s->row, name)) continue;
    if (s->is_loss || s->submodule) continue;
    // Never moved and called with something in this function.
    bool touched = false, called = false;
    util::for_each_name_use(body, name, [&](std::string_view rest) {
      if (rest.starts_with(".to(") || rest.starts_with(".cuda(") || rest.starts_with(".to_empty(")) touched = true;
      if (rest.starts_with("(")) called = true;
    });
    if (touched || !called) continue;
    s->reported = true;
    emit_at(RuleId::model_not_moved, s->row, s->column,
            fmt::format("`{}` is trained with `{}` (both give their parameters at {}), and `{}` is moved to the device "
                        "at {} while `{}` never is: its forward pass meets the other's device tensors (\"Expected all "
                        "tensors to be on the same device\")",
                        name, moved, where(row), moved, where(moved_row), name),
            {}, fmt::format("{} = {}.to(device)", name, name));
  }
}

}  // namespace gpudoctor::scan

namespace gpudoctor::scan {

void Analyzer::check_host_input_to_self_moved_module(Node call) {
  // A module that moves itself (`self.to(self.device)` in __init__) and, in a method, builds a
  // tensor from data without a device and runs it through itself (`self.score(batch)`,
  // `self.embed(ids)`): the module's weights are on the device, the tensor is not.
  if (m_class_nodes.empty() || !in_module_method() || function_name() == "__init__" || in_host_side_function()) return;
  Node fn = call.field(Field::function);
  if (!fn.is(NodeKind::attribute) || fn.field(Field::object).text() != "self") return;
  auto callee = fn.field(Field::attribute).text();
  auto cls = m_class_nodes.back().text();
  // Read once per class, and once per class and callee: a class with many `self.x(...)` calls is not
  // searched once per call.
  const std::uint32_t cls_start = m_class_nodes.back().start_byte();
  auto moves = m_class_moves_self.find(cls_start);
  if (moves == m_class_moves_self.end()) {
    const bool moves_self = cls.find("self.to(self.device)") != std::string_view::npos ||
                            cls.find("self.to(device)") != std::string_view::npos ||
                            cls.find("self.cuda()") != std::string_view::npos;
    moves = m_class_moves_self.emplace(cls_start, moves_self).first;
  }
  if (!moves->second) return;
  // A method of the class, or a submodule it registers in __init__.
  auto key = std::make_pair(cls_start, std::string(callee));
  auto member = m_class_member_callable.find(key);
  if (member == m_class_member_callable.end()) {
    const bool method = cls.find("def " + std::string(callee) + "(") != std::string_view::npos;
    const bool submodule = cls.find("self." + std::string(callee) + " = nn.") != std::string_view::npos ||
                           cls.find("self." + std::string(callee) + " = torch.nn.") != std::string_view::npos;
    member = m_class_member_callable.emplace(std::move(key), method || submodule).first;
  }
  if (!member->second) return;
  Node args = call.field(Field::arguments);
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (!a.is(NodeKind::identifier)) continue;
    Symbol* s = lookup(a.text());
    // Made from the function's inputs only when it is not a list of values turned into a tensor
    // (`torch.tensor([[h, r]])` is on the CPU whatever h and r are).
    if (s == nullptr || !s->made_on_host() || s->reported || s->row < 0 || (s->from_param && s->sized)) continue;
    s->reported = true;
    emit_at(RuleId::inputs_not_moved, s->row, s->column,
            fmt::format("`{}` is made on the CPU (no device=) and run through `self.{}` at {}, while the module moves "
                        "itself to its device: \"Expected all tensors to be on the same device\"",
                        a.text(), callee, where(call.row())),
            {snippet(call, 80)}, fmt::format("create `{}` with device=self.device", a.text()));
    return;
  }
}

void Analyzer::note_self_model_call(Node call) {
  if (m_class_nodes.empty() || m_function_nodes.empty() || in_module_method() || function_name() == "__init__" ||
      m_function_nodes.back().parent().parent() != m_class_nodes.back()) {
    return;
  }
  Node fn = call.field(Field::function);
  if (!fn.is(NodeKind::attribute) || fn.field(Field::object).text() != "self") return;
  const std::string callee(fn.field(Field::attribute).text());
  const bool model_name = callee == "model" || callee == "net" || callee == "network" || callee == "policy" ||
                          callee == "encoder" || callee == "classifier";
  if (!model_name && infer(fn).kind != Kind::module) return;
  Node a = positional(call, 0);
  if (!a.valid() || !a.is(NodeKind::identifier)) return;
  const Symbol* s = lookup(a.text());
  if (s == nullptr) return;
  SelfModelCall r;
  r.method = std::string(function_name());
  r.body_start = m_function_nodes.back().start_byte();
  r.body_end = m_function_nodes.back().end_byte();
  r.callee = callee;
  r.arg = std::string(a.text());
  r.row = call.row();
  r.column = call.column();
  r.raw_param = s->is_parameter && s->kind != Kind::module && !s->scalar;
  r.moved = s->placement == Placement::accelerator;
  if (!r.moved && !s->is_parameter && s->row >= 0) {
    // Rebound in this method before the call: by a move, or by a helper of the class that moves.
    const auto body = m_function_nodes.back().text();
    const auto upto = body.substr(0, call.start_byte() - m_function_nodes.back().start_byte());
    const auto cls = m_class_nodes.back().text();
    util::for_each_name_use(upto, r.arg, [&](std::string_view rest) {
      auto line = rest.substr(0, rest.find('\n'));
      auto eq = line.find_first_not_of(' ');
      if (eq == std::string_view::npos || line[eq] != '=' || (eq + 1 < line.size() && line[eq + 1] == '=')) return;
      if (line.find(".to(") != std::string_view::npos || line.find(".cuda(") != std::string_view::npos ||
          line.find("device") != std::string_view::npos) {
        r.moved = true;
        return;
      }
      auto at = line.find("self.");
      if (at == std::string_view::npos) return;
      auto name_end = line.find('(', at);
      if (name_end == std::string_view::npos) return;
      auto helper = line.substr(at + 5, name_end - at - 5);
      auto def = cls.find("def " + std::string(helper) + "(");
      if (def == std::string_view::npos) return;
      auto next = cls.find("\n    def ", def + 4);
      auto helper_body = cls.substr(def, next == std::string_view::npos ? std::string_view::npos : next - def);
      if (helper_body.find(".to(") != std::string_view::npos || helper_body.find(".cuda(") != std::string_view::npos) {
        r.moved = true;
      }
    });
  }
  m_self_model_calls.push_back(std::move(r));
}

void Analyzer::check_self_model_calls() {
  if (m_self_model_marks.empty()) return;
  const std::size_t mark = m_self_model_marks.back();
  m_self_model_marks.pop_back();
  const SelfModelCall* mover = nullptr;
  for (std::size_t i = mark; i < m_self_model_calls.size() && mover == nullptr; ++i) {
    if (m_self_model_calls[i].moved) mover = &m_self_model_calls[i];
  }
  if (mover != nullptr) {
    std::set<std::string> reported;
    for (std::size_t i = mark; i < m_self_model_calls.size(); ++i) {
      const auto& r = m_self_model_calls[i];
      if (r.moved || !r.raw_param || r.method == mover->method || r.callee != mover->callee ||
          !reported.insert(r.method).second) {
        continue;
      }
      // A private helper (`self._loss(inputs)`) gets what its callers prepared.
      if (r.method.starts_with("_")) continue;
      // A step a moving method calls with what it moved (`training_step` -> `self._run(inputs)`).
      bool called_by_mover = false;
      for (std::size_t j = mark; j < m_self_model_calls.size(); ++j) {
        const auto& m = m_self_model_calls[j];
        if (!m.moved) continue;
        const auto body = std::string_view(m_src.text).substr(m.body_start, m.body_end - m.body_start);
        called_by_mover = called_by_mover || body.find("self." + r.method + "(") != std::string_view::npos;
      }
      if (called_by_mover) continue;
      emit_at(RuleId::inputs_not_moved, r.row, r.column,
              fmt::format("{}() hands its `{}` to `self.{}` as it was given, while {}() moves its input to the device "
                          "before the same call (at {}): the batches this method gets stay on the CPU",
                          r.method, r.arg, r.callee, mover->method, where(mover->row)),
              {fmt::format("{}() moves `{}` before self.{}(...)", mover->method, mover->arg, mover->callee)},
              fmt::format("move `{}` as {}() does before calling self.{}", r.arg, mover->method, r.callee));
    }
  }
  m_self_model_calls.resize(mark);
}

void Analyzer::check_class_model_unmoved() {
  if (m_class_nodes.empty() || m_classes.empty() || m_ff.module_classes.count(m_classes.back()) > 0) return;
  Node cls_node = m_class_nodes.back();
  const std::string_view cls = cls_node.text();
  const std::string_view text = m_src.text;
  // `self.model = model` (as given, from a parameter of __init__).
  static const RE2 k_kept(R"((?m)^\s+self\.(model|net|network|policy)\s*=\s*(\w+)\s*(?:#[^\n]*)?$)");
  std::string attr, param;
  re2::StringPiece input(cls.data(), cls.size());
  if (!RE2::PartialMatch(input, k_kept, &attr, &param)) return;
  // Inputs moved to the class's device, and run through the kept model.
  if (cls.find(".to(self.device") == std::string_view::npos && cls.find(".to(self._device") == std::string_view::npos) {
    return;
  }
  if (cls.find("self." + attr + "(") == std::string_view::npos) return;
  // The class never moves it.
  const RE2 moved_here("self\\." + attr + R"((?:\.\w+\([^()\n]*\))*\.(?:to|cuda)\(|self\.)" + attr + R"(\s*=[^\n]*\.(?:to|cuda)\()");
  if (RE2::PartialMatch(input, moved_here)) return;
  // Every construction in the file hands it a name that is never moved.
  const std::string ctor = m_classes.back() + "(";
  const std::size_t cls_begin = cls_node.start_byte(), cls_end = cls_node.end_byte();
  int constructions = 0;
  for (std::size_t at = text.find(ctor); at != std::string_view::npos; at = text.find(ctor, at + 1)) {
    if (at >= cls_begin && at < cls_end) continue;
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) != 0 || text[at - 1] == '_' || text[at - 1] == '.')) {
      continue;
    }
    std::size_t b = at + ctor.size();
    std::size_t e = b;
    while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) != 0 || text[e] == '_')) ++e;
    if (e == b || e >= text.size() || (text[e] != ')' && text[e] != ',')) return;  // not a plain name
    if (name_moved_in(text, text.substr(b, e - b), true)) return;
    ++constructions;
  }
  if (constructions == 0) return;
  const std::string needle = "self." + attr + " = " + param;
  const auto off = cls.find(needle);
  if (off == std::string_view::npos) return;
  const auto [row, column] = position_of(cls_begin + off);
  emit_at(RuleId::model_not_moved, row, column,
          fmt::format("`self.{}` is kept as it was given and never moved, while {} moves its inputs to self.device "
                      "before running them through it, and the file hands it a model it never moves: the model stays "
                      "on the CPU",
                      attr, m_classes.back()),
          {fmt::format("{}(...) is built {} time(s) in this file, each time with a model that is never moved",
                       m_classes.back(), constructions)},
          fmt::format("self.{} = {}.to(self.device)", attr, param));
}

void Analyzer::check_class_device_ignored() {
  // A plain class that takes a device, stores it (`self.device = device`) and never reads it again,
  // while its __init__ builds the model it runs (`self.model = SmallNet()`): whatever device the
  // caller asks for, the model and its inputs stay on the CPU (a benchmark wrapper measuring the CPU).
  if (m_class_nodes.empty() || m_classes.empty() || m_ff.module_classes.count(m_classes.back()) > 0) return;
  Node cls_node = m_class_nodes.back();
  const std::string_view cls = cls_node.text();
  if (cls.size() > 200000) return;
  static const RE2 k_stored(R"((?m)^\s+self\.(_?device)\s*=\s*(device)\s*(?:#[^\n]*)?$)");
  std::string attr, param;
  re2::StringPiece input(cls.data(), cls.size());
  if (!RE2::PartialMatch(input, k_stored, &attr, &param)) return;
  auto count_word = [&](std::string_view word) {
    int n = 0;
    util::for_each_name_use(cls, word, [&](std::string_view) { ++n; });
    return n;
  };
  // Read nowhere else: `self.device` once (the store), `device` twice (the parameter and the store).
  if (count_word("self." + attr) != 1 || count_word(param) != 2) return;
  // Nothing else in the class places anything either (its own signature's `device="cpu"` aside).
  std::string body(cls);
  if (auto sig = body.find("def __init__("); sig != std::string::npos) {
    auto end = body.find("):", sig);
    if (end == std::string::npos || end - sig > 2000) return;
    body.erase(sig, end - sig);
  }
  for (std::string_view w : {".to(", ".cuda(", "device=", "device_map", ".to_device("}) {
    if (body.find(w) != std::string::npos) return;
  }
  // The model it builds in __init__ and runs: `self.model = Net(...)`, then `self.model(` elsewhere.
  static const RE2 k_built(R"((?m)^\s+self\.(model|net|network|module|policy)\s*=\s*([A-Z]\w*|nn\.\w+|torch\.nn\.\w+)\()");
  std::string model, ctor;
  re2::StringPiece rest(cls.data(), cls.size());
  if (!RE2::PartialMatch(rest, k_built, &model, &ctor)) return;
  const std::string last(last_component(ctor));
  if (m_ff.module_classes.count(last) == 0 && !ctor.starts_with("nn.") && !ctor.starts_with("torch.nn.")) return;
  if (cls.find("self." + model + "(") == std::string_view::npos &&
      cls.find("self." + model + ".parameters(") == std::string_view::npos) {
    return;
  }
  const std::string needle = "self." + model;
  std::size_t off = cls.find(needle + " =");
  if (off == std::string_view::npos) off = cls.find(needle + "=");
  if (off == std::string_view::npos) return;
  const auto [row, column] = position_of(cls_node.start_byte() + off);
  emit_at(RuleId::model_not_moved, row, column,
          fmt::format("{} takes a device and stores it in `self.{}`, but nothing in the class reads it: `self.{}` "
                      "({}(...)) and its inputs stay on the CPU whatever device the caller asks for",
                      m_classes.back(), attr, model, ctor),
          {fmt::format("`self.{} = {}` is the only use of the device in {}", attr, param, m_classes.back())},
          fmt::format("self.{} = {}(...).to(self.{}), and make the inputs with device=self.{}", model, ctor, attr, attr));
}

}  // namespace gpudoctor::scan

namespace gpudoctor::scan {

std::optional<std::pair<std::string, int>> Analyzer::module_moved_after(std::string_view before, std::string_view after,
                                                                        int after_row) {
  // A module still off the device whose parameters the optimizer was built on (named before the load).
  auto unplaced_model_of_optimizer = [&](const std::string& name) {
    const Symbol* m = lookup(name);
    if (m == nullptr || m->kind != Kind::module || m->is_loss || m->placement == Placement::accelerator) return false;
    return before.find(name + ".parameters(") != std::string_view::npos ||
           before.find(name + ".named_parameters(") != std::string_view::npos;
  };
  static const RE2 k_move(R"((?m)^[ \t]*(?:if [^\n]*:[ \t]*)?(?:[\w.]+[ \t]*=[ \t]*)?([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\.(?:cuda|to)\()");
  re2::StringPiece input(after.data(), after.size());
  std::string name;
  while (RE2::FindAndConsume(&input, k_move, &name)) {
    if (!unplaced_model_of_optimizer(name)) continue;
    std::size_t at = static_cast<std::size_t>(input.data() - after.data());
    return std::make_pair(name, after_row + static_cast<int>(util::count_byte(after.substr(0, at), '\n')));
  }
  // Handed to a function of the file that moves that parameter (`net, ctl = setup_training(net, ...)`,
  // which calls `model.to(device)` itself or through another function).
  if (m_ff.module_movers.empty()) return std::nullopt;
  static const RE2 k_call(R"((?m)^[ \t]*(?:[\w., \t]+=[ \t]*)?([A-Za-z_]\w*)\()");
  re2::StringPiece calls(after.data(), after.size());
  std::string callee;
  while (RE2::FindAndConsume(&calls, k_call, &callee)) {
    auto mover = m_ff.module_movers.find(callee);
    if (mover == m_ff.module_movers.end()) continue;
    const std::size_t open = static_cast<std::size_t>(calls.data() - after.data()) - 1;
    const auto args = call_arguments(after, open);
    for (int j : mover->second) {
      if (static_cast<std::size_t>(j) >= args.size()) continue;
      const std::string arg(args[static_cast<std::size_t>(j)]);
      if (!unplaced_model_of_optimizer(arg)) continue;
      return std::make_pair(arg, after_row + static_cast<int>(util::count_byte(after.substr(0, open), '\n')));
    }
  }
  return std::nullopt;
}

void Analyzer::check_optimizer_state_before_move(Node call, Node optimizer) {
  // `optimizer.load_state_dict(ckpt["optimizer"])` and, later in the same function, `net.cuda()` of
  // a module named before the load that was not on the device then: the state stays on the CPU.
  if (m_function_nodes.empty()) return;
  Node fn = m_function_nodes.back();
  std::string_view text = m_src.text;
  std::string_view before = text.substr(fn.start_byte(), call.start_byte() - fn.start_byte());
  std::string_view after = text.substr(call.end_byte(), fn.end_byte() - call.end_byte());
  auto moved = module_moved_after(before, after, static_cast<int>(call.row()));
  if (!moved) return;
  const auto& [name, move_row] = *moved;
  emit(RuleId::optimizer_state_before_move, call,
       fmt::format("`{}`'s state is loaded while `{}` is on the CPU, and `{}` is moved only at {}: load_state_dict() "
                   "puts the state where the parameters are when it runs, so it stays on the CPU",
                   optimizer.text(), name, name, where(move_row)),
       {snippet(call, 80)}, fmt::format("{}.to(device) before {}.load_state_dict(...)", name, optimizer.text()));
}

// `opt = torch.optim.Adagrad(model.parameters())` and, later in the same function, `model.to(device)`:
// Adagrad makes its state (`sum`) in its constructor, next to the parameters as they are then, so the
// first step meets CPU state with GPU gradients. PyTorch's docs ask to move the model before building
// any optimizer; optimizers that make their state at the first step still work, so that is advice.
void Analyzer::check_optimizer_built_before_move(Node call, std::string_view q) {
  // The optimizer's class: the callee's, or the one an alias names.
  std::string cls(last_component(q));
  bool optimizer = (starts_with_package(q, "torch.optim") || starts_with_package(q, "bitsandbytes.optim")) &&
                   !q.starts_with("torch.optim.lr_scheduler") && !q.starts_with("torch.optim.swa_utils") &&
                   !cls.empty() && cls[0] >= 'A' && cls[0] <= 'Z' && cls != "Optimizer";
  const std::string_view text = m_src.text;
  // The function around the call, or the script's top level.
  const std::size_t fn_start = m_function_nodes.empty() ? 0 : m_function_nodes.back().start_byte();
  const std::size_t fn_end = m_function_nodes.empty() ? text.size() : m_function_nodes.back().end_byte();
  const std::uint32_t fn_key = m_function_nodes.empty() ? k_module_level : m_function_nodes.back().start_byte();
  // Windows of the function around the call, so that a generated function with thousands of optimizers
  // is not read once per optimizer.
  constexpr std::size_t k_window = 8 * 1024;
  const std::size_t from = std::max<std::size_t>(fn_start, call.start_byte() > k_window ? call.start_byte() - k_window : 0);
  const std::string_view before_call = text.substr(from, call.start_byte() - from);
  // `optimizer_cls = torch.optim.AdamW` earlier in the function, then `optimizer_cls(params, ...)`.
  if (!optimizer && call.field(Field::function).is(NodeKind::identifier) &&
      before_call.find("optim.") != std::string_view::npos) {
    const std::string name(call.field(Field::function).text());
    static const RE2 k_alias(R"re((?m)^[ \t]*(\w+)[ \t]*=[ \t]*(?:torch\.)?optim\.([A-Z]\w*)[ \t]*$)re");
    re2::StringPiece in(before_call.data(), before_call.size());
    std::string alias, target;
    while (RE2::FindAndConsume(&in, k_alias, &alias, &target)) {
      if (alias == name) {
        optimizer = true;
        cls = target;
        break;
      }
    }
  }
  if (!optimizer) return;
  Node args = call.field(Field::arguments);
  if (!args.valid()) return;
  // Real functions build a few optimizers; a generated one with thousands is read for its first 32 only.
  if (++m_optimizer_checks[fn_key] > 32) return;
  // What the optimizer was built on: its arguments, and the assignment of a name among them
  // (`params = [p for p in net.parameters() if p.requires_grad]`).
  std::string built_on(args.text());
  for (std::uint32_t i = 0; i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (!a.is(NodeKind::identifier)) continue;
    // The last line of the window that assigns the name (`params = ...`, not `params == ...`).
    for (std::size_t at = before_call.rfind(a.text()); at != std::string_view::npos && at > 0;
         at = before_call.rfind(a.text(), at - 1)) {
      const std::size_t bol = before_call.rfind('\n', at);
      const std::size_t start = bol == std::string_view::npos ? 0 : bol + 1;
      if (!util::trim(before_call.substr(start, at - start)).empty()) continue;
      const std::size_t eol = before_call.find('\n', at);
      const std::string_view line = before_call.substr(start, (eol == std::string_view::npos ? before_call.size() : eol) - start);
      const std::string_view rest = util::trim(line.substr(at - start + a.text().size()));
      if (rest.starts_with("=") && !rest.starts_with("==")) {
        built_on += "\n" + std::string(line);
        break;
      }
    }
  }
  const std::string_view after =
      text.substr(call.end_byte(), std::min<std::size_t>(fn_end - call.end_byte(), 8 * k_window));
  auto moved = module_moved_after(built_on, after, static_cast<int>(call.row()));
  if (!moved) return;
  const auto& [name, move_row] = *moved;
  // State loaded into it before the move (here or by a helper it is handed to) is the stronger finding
  // of check_optimizer_state_before_move / check_optimizer_loaded_by_helper.
  if (Node up = call.parent(); up.is(NodeKind::assignment) && up.field(Field::left).is(NodeKind::identifier)) {
    const std::string opt(up.field(Field::left).text());
    if (util::contains(after, opt + ".load_state_dict(")) return;
    // Handed to a function of the file that loads optimizer state (a Controller(...) that only keeps it is not).
    bool loader_called = false;
    for (const auto& [loader, loads] : m_ff.optimizer_loaders) loader_called = loader_called || util::contains(after, loader + "(");
    const RE2 handed("[(,]\\s*" + RE2::QuoteMeta(opt) + "\\s*[,)]");
    if (loader_called && RE2::PartialMatch(after, handed)) return;
  }
  // Under a test (`if args.cuda: model.cuda()` after the optimizer) it is the same; a move the
  // function makes only in another branch than the optimizer's is not told apart here.
  const bool eager_state = cls == "Adagrad";
  auto& f = emit(RuleId::optimizer_state_before_move, call,
                 eager_state
                     ? fmt::format("The Adagrad optimizer is built over `{}`'s parameters while `{}` is on the CPU, and "
                                   "`{}` is moved only at {}: Adagrad makes its state in its constructor, on the CPU, "
                                   "so the first step() meets CPU state with GPU gradients",
                                   name, name, name, where(move_row))
                     : fmt::format("The optimizer is built over `{}`'s parameters while `{}` is on the CPU, and `{}` is "
                                   "moved only at {}: PyTorch asks to move a model before constructing optimizers for "
                                   "it (optimizers or wrappers that make state at construction keep it on the CPU)",
                                   name, name, name, where(move_row)),
                 {snippet(call, 80)}, fmt::format("{}.to(device) before building the optimizer", name));
  if (!eager_state) f.severity = facts::Severity::info;
}

void Analyzer::check_optimizer_loaded_by_helper(Node call) {
  // `load_epoch(dir, epoch, model, optm)`, a function of the file that calls `optm.load_state_dict()`,
  // and then `model.to(device)` here: the helper loaded the state while the model was on the CPU.
  if (m_function_nodes.empty() || m_ff.optimizer_loaders.empty()) return;
  auto it = m_ff.optimizer_loaders.find(std::string(call.field(Field::function).text()));
  if (it == m_ff.optimizer_loaders.end() || it->first == function_name()) return;
  Node args = call.field(Field::arguments);
  for (const OptimizerLoad& load : it->second) {
    Node handed;
    int position = 0;
    for (std::uint32_t i = 0; args.valid() && i < args.named_count() && !handed.valid(); ++i) {
      Node a = args.named(i);
      if (a.is(NodeKind::list_splat) || a.is(NodeKind::dictionary_splat)) return;
      if (a.is(NodeKind::keyword_argument)) {
        if (a.field(Field::name).text() == load.name) handed = a.field(Field::value);
        continue;
      }
      if (position++ == load.index) handed = a;
    }
    if (!handed.valid() || !handed.is(NodeKind::identifier)) continue;
    const Symbol* opt = lookup(handed.text());
    if (opt == nullptr || opt->kind != Kind::optimizer) continue;
    Node fn = m_function_nodes.back();
    std::string_view text = m_src.text;
    std::string_view before = text.substr(fn.start_byte(), call.start_byte() - fn.start_byte());
    std::string_view after = text.substr(call.end_byte(), fn.end_byte() - call.end_byte());
    auto moved = module_moved_after(before, after, static_cast<int>(call.row()));
    if (!moved) continue;
    const auto& [name, move_row] = *moved;
    emit_at(RuleId::optimizer_state_before_move, load.row, load.column,
            fmt::format("{}() loads `{}`'s state, and {}() calls it at {} while `{}` is on the CPU, moving `{}` only at "
                        "{}: load_state_dict() puts the state where the parameters are when it runs, so it stays on "
                        "the CPU",
                        it->first, load.name, function_name(), where(call.row()), name, name, where(move_row)),
            {snippet(call, 80)},
            fmt::format("{}.to(device) before {}(...), or move the loaded state to the device", name, it->first));
    return;
  }
}


int Analyzer::class_moves_inputs_to_device(std::string_view callee_name) const {
  // `x.to(self.model_device)` / `y.to(self.device)` in a method of the class whose `self.model` is
  // called: the class itself says the model may be on a GPU.
  if (!callee_name.starts_with("self.") || m_class_nodes.empty()) return -1;
  Node cls = m_class_nodes.back();
  std::string_view text = cls.text();
  for (std::size_t at = text.find(".to(self."); at != std::string_view::npos; at = text.find(".to(self.", at + 1)) {
    std::string_view arg = text.substr(at + 9, 40);
    arg = arg.substr(0, arg.find(')'));
    if (arg.find("device") == std::string_view::npos) continue;
    return cls.row() + static_cast<int>(util::count_byte(text.substr(0, at), '\n'));
  }
  return -1;
}


void Analyzer::check_trainable_on_host(Node name, Node at) {
  // `p = torch.full((d,), 0.5)` then `p.requires_grad = True` in a file that puts its data on a
  // device: a tensor the optimizer trains, left on the CPU while the data it meets is on the GPU.
  // Not in a module's methods (model.to() moves what becomes its parameter), nor where host
  // tensors are meant (a Dataset's items, a collate function). Weight set-up (`init_params()`) is
  // just where such tensors are made.
  if (!name.is(NodeKind::identifier) || m_function_nodes.empty() || !m_ff.uses_device || in_module_method()) return;
  if (auto f = function_name(); f.find("getitem") != std::string_view::npos || f.find("collate") != std::string_view::npos ||
      (!m_classes.empty() && m_classes.back().find("Dataset") != std::string::npos)) {
    return;
  }
  Symbol* s = lookup(name.text());
  if (s == nullptr || !s->made_on_host() || !s->sized || s->zero_dim || s->reported || s->row < 0) return;
  Node fn = m_function_nodes.back();
  if (s->row < fn.row()) return;
  // Moved afterwards (`p = p.to(device)`, `p.cuda()`), or the function chooses the device itself.
  auto body = fn.text();
  auto after = body.substr(std::min<std::size_t>(body.size(), at.end_byte() - fn.start_byte()));
  if (name_moved_in(after, name.text(), true)) return;
  if (after.find("Parameter(" + std::string(name.text())) != std::string_view::npos) return;  // becomes a module's
  for (Node up = at.parent(); up.valid() && up != fn; up = up.parent()) {
    if (!up.is(NodeKind::if_statement) && !up.is(NodeKind::elif_clause)) continue;
    auto test = up.field(Field::condition).text();
    if (test.find("cuda") != std::string_view::npos || test.find("device") != std::string_view::npos) return;
  }
  s->reported = true;
  emit_at(RuleId::tensor_created_without_device, s->row, s->column,
          fmt::format("`{}` is made on the CPU (no device=) and made trainable at {}, in a file that puts its data on a "
                      "device: the optimizer keeps it on the CPU, and the first operation with the data fails "
                      "(\"Expected all tensors to be on the same device\")",
                      name.text(), where(at.row())),
          {snippet(at, 80)}, fmt::format("create `{}` with device=device (the data's device)", name.text()));
}


void Analyzer::check_default_gpu_from_input(Node conditional) {
  if (conditional.named_count() < 3) return;
  Node chosen = conditional.named(0), test = conditional.named(1), other = conditional.named(2);
  if (!test.is(NodeKind::attribute) || test.field(Field::attribute).text() != "is_cuda") return;
  Node input = test.field(Field::object);
  if (!is_cpu_device(other)) return;
  auto bare_cuda = [&](Node e) {
    if (auto v = string_value(e)) return *v == "cuda";
    if (e.is(NodeKind::call) && qualified_callee(e) == "torch.device") {
      Node args = e.field(Field::arguments);
      auto v = string_value(positional(e, 0));
      return args.valid() && args.named_count() == 1 && v && *v == "cuda";
    }
    return false;
  };
  if (!bare_cuda(chosen)) return;
  emit(RuleId::default_gpu_from_input, conditional,
       fmt::format("`{}` means the current GPU (cuda:0 unless set), not the one `{}` is on: with inputs on cuda:1 the "
                   "tensors made with this device are on another GPU (\"Expected all tensors to be on the same device\")",
                   snippet(conditional, 60), input.text()),
       {snippet(conditional.parent(), 80)}, fmt::format("{}.device", input.text()));
}

// The device tensor under `x.cpu().detach().numpy()[:, ::-1].copy()`: the data passes through
// .numpy() after .cpu() and is only sliced, copied, cast or reshaped on the host. Invalid otherwise
// (host data, or a numpy function that torch may lack).
Node Analyzer::host_round_trip_source(Node data) {
  bool numpy = false;
  bool cpu = false;
  for (int guard = 0; guard < 16 && data.valid(); ++guard) {
    if (data.is(NodeKind::subscript)) {
      data = data.field(Field::value);
      continue;
    }
    if (data.is(NodeKind::attribute)) {
      auto a = data.field(Field::attribute).text();
      if (a != "T" && a != "data") break;
      data = data.field(Field::object);
      continue;
    }
    if (!data.is(NodeKind::call) || !data.field(Field::function).is(NodeKind::attribute)) break;
    Node fn = data.field(Field::function);
    auto m = fn.field(Field::attribute).text();
    if (m == "numpy") {
      numpy = true;
    } else if (m == "cpu") {
      if (!numpy) return Node();
      cpu = true;
    } else if (m != "copy" && m != "astype" && m != "transpose" && m != "reshape" && m != "squeeze" && m != "detach" &&
               m != "swapaxes" && m != "flatten" && m != "ravel") {
      return Node();
    }
    data = fn.field(Field::object);
  }
  if (!numpy || !cpu || !(data.is(NodeKind::identifier) || data.is(NodeKind::attribute))) return Node();
  return data;
}

// `train(model, data, device="cpu")` where another call of the same function of this file passes the
// device the file chose (`train(model, data, device)`): this call runs that work on the CPU, by a
// literal rather than by a choice. Not under a device test, an argparse flag or a version guard.
void Analyzer::check_literal_cpu_device_argument(Node call) {
  Node fn = call.field(Field::function);
  if (!fn.is(NodeKind::identifier)) return;
  Node args = call.field(Field::arguments);
  Node literal;
  std::string_view kw;
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (!a.is(NodeKind::keyword_argument) || !names_a_device(a.field(Field::name).text())) continue;
    if (!is_cpu_device(a.field(Field::value))) return;
    literal = a.field(Field::value);
    kw = a.field(Field::name).text();
  }
  if (!literal.valid() || !gpu_code() || under_choice(call)) return;
  // A function of this file that runs a model (trains or evaluates it): not a helper that records a
  // device, nor a method that moves to the CPU on purpose (a `cpu()` override).
  const std::string name(fn.text());
  std::string_view text = m_src.text;
  auto def = text.find("def " + name + "(");
  if (def == std::string_view::npos || function_name().find("cpu") != std::string_view::npos) return;
  // Its body: the lines after the def indented deeper than it.
  auto line_start = text.rfind('\n', def);
  line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
  const std::size_t indent = def - line_start;
  std::size_t end = text.find('\n', def);
  while (end != std::string_view::npos && end + 1 < text.size() && end - def < 20000) {
    auto next = text.find('\n', end + 1);
    auto line = text.substr(end + 1, next == std::string_view::npos ? std::string_view::npos : next - end - 1);
    auto first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && first <= indent && line[first] != '#') break;
    end = next;
  }
  auto body = text.substr(def, (end == std::string_view::npos ? text.size() : end) - def);
  // A call whose result is named for the CPU (`preds_on_cpu = predict(..., device="cpu")`) is a
  // deliberate CPU run (a timing comparison).
  for (Node up = call.parent(); up.valid() && !up.is(NodeKind::block) && !up.is(NodeKind::module); up = up.parent()) {
    if (up.is(NodeKind::assignment) && util::contains_icase(up.field(Field::left).text(), "cpu")) return;
  }
  if (body.find(".backward(") == std::string_view::npos && body.find("no_grad") == std::string_view::npos &&
      body.find(".eval()") == std::string_view::npos) {
    return;
  }
  // Another call of the same function hands it something else for that parameter: a name, not a
  // CPU literal.
  bool chosen_elsewhere = false;
  for (auto at = text.find(name + "("); at != std::string_view::npos && !chosen_elsewhere; at = text.find(name + "(", at + 1)) {
    if (at == call.start_byte()) continue;
    if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) != 0 || text[at - 1] == '_' || text[at - 1] == '.')) continue;
    if (at >= 4 && text.substr(at - 4, 4) == "def ") continue;
    int depth = 0;
    std::size_t close = at + name.size();
    for (; close < text.size() && close < at + 4096; ++close) {
      if (text[close] == '(') ++depth;
      if (text[close] == ')' && --depth == 0) break;
    }
    auto inside = text.substr(at + name.size(), close - at - name.size());
    static const RE2 k_device_name(R"re((?:^|[(,\s])(?:\w+=)?(?:self\.|args\.)?(?:device|dev|DEVICE)\b\s*[,)]?)re");
    if (inside.find("cpu") == std::string_view::npos && RE2::PartialMatch(inside, k_device_name)) chosen_elsewhere = true;
  }
  if (!chosen_elsewhere) return;
  emit(RuleId::hardcoded_cpu, literal,
       fmt::format("{}() is called with {}={} here, while another call in this file hands it the device the file "
                   "chose: this run stays on the CPU even on a GPU machine",
                   name, kw, literal.text()),
       {snippet(call, 80)}, fmt::format("pass the chosen device: {}(..., {}=device)", name, kw));
}

// `batched_nms(boxes, scores, torch.zeros(len(boxes)))`: a factory without a device, sized from
// another argument of the same call, meets that argument inside the callee; where the argument is on
// the GPU, the factory's CPU tensor is not.
void Analyzer::check_factory_sized_from_sibling_argument(Node call, std::string_view q) {
  if (m_function_nodes.empty() || !gpu_code() || in_host_side_function() || is_torch_function(q)) return;
  std::string_view last = last_component(q);
  if (last == "print" || last == "append" || last == "extend" || last == "to" || last == "cuda" || last == "format" ||
      q.starts_with("np.") || q.starts_with("numpy.")) {
    return;
  }
  Node args = call.field(Field::arguments);
  if (!args.valid() || args.named_count() < 2 || has_splat(call)) return;
  std::vector<Node> values;
  for (std::uint32_t i = 0; i < args.named_count(); ++i) {
    Node a = args.named(i);
    values.push_back(a.is(NodeKind::keyword_argument) ? a.field(Field::value) : a);
  }
  // Each argument's factory, found once: the pairs below only compare texts.
  std::vector<Node> factories;
  factories.reserve(values.size());
  for (Node v : values) factories.push_back(inline_host_factory(v));
  for (std::size_t i = 0; i < values.size(); ++i) {
    Node factory = factories[i];
    if (!factory.valid() || m_inline_reported.count(factory.start_byte()) > 0) continue;
    auto sizes = factory.field(Field::arguments).text();
    for (std::size_t j = 0; j < values.size(); ++j) {
      if (j == i || factories[j].valid()) continue;
      Node other = values[j];
      // The argument under the casts written on it (`boxes.float()`).
      Node base = other;
      while (base.is(NodeKind::call) && base.field(Field::function).is(NodeKind::attribute) &&
             base.field(Field::arguments).named_count() == 0) {
        base = base.field(Field::function).field(Field::object);
      }
      if (!base.is(NodeKind::identifier) && !base.is(NodeKind::subscript) && !base.is(NodeKind::attribute)) continue;
      auto b = base.text();
      if (b.size() < 1 || b.size() > 80) continue;
      const bool sized_by = sizes.find(fmt::format("len({})", b)) != std::string_view::npos ||
                            sizes.find(fmt::format("{}.shape", b)) != std::string_view::npos ||
                            sizes.find(fmt::format("{}.size(", b)) != std::string_view::npos;
      if (!sized_by) continue;
      Symbol o = infer(other);
      if (o.placement == Placement::host || o.kind == Kind::module || o.made_on_host()) continue;
      m_inline_reported.insert(factory.start_byte());
      emit(RuleId::tensor_created_without_device, factory,
           fmt::format("{} is made on the CPU (no device=) and handed to {}() next to `{}`, whose size it takes: where "
                       "that is on the GPU, the two meet on different devices",
                       snippet(factory, 40), q, snippet(other, 30)),
           {snippet(call, 80)}, fmt::format("create it with device={}.device (or torch.zeros_like(...))", b));
      return;
    }
  }
}

// `torch.tensor([x.min(), x.max()])` in a module's forward (or a step): the values are 0-d tensors
// on the input's device, and torch.tensor copies them into a new tensor on the CPU (a sync per
// element), which then meets the device tensors it was read from.
void Analyzer::check_tensor_from_device_values(Node call, std::string_view q) {
  if (m_function_nodes.empty() || !is_torch_function(q) || last_component(q) != "tensor") return;
  if (keyword(call, "device").valid() || has_splat(call) || in_host_side_function()) return;
  const bool per_step = (in_module_method() && function_name() != "__init__") || called_from_forward() || in_step_loop();
  if (!per_step || !gpu_code() || moved_as_made(call) || m_inline_reported.count(call.start_byte()) > 0) return;
  Node data = positional(call, 0);
  if (!data.is(NodeKind::list) && !data.is(NodeKind::tuple)) return;
  Node from;
  for (std::uint32_t i = 0; i < data.named_count() && !from.valid(); ++i) {
    Node e = data.named(i);
    if (!e.is(NodeKind::call) || !e.field(Field::function).is(NodeKind::attribute)) continue;
    Node fn = e.field(Field::function);
    auto m = fn.field(Field::attribute).text();
    if (m != "min" && m != "max" && m != "sum" && m != "mean" && m != "std" && m != "norm" && m != "amax" &&
        m != "amin" && m != "median" && m != "var") {
      continue;
    }
    Node object = fn.field(Field::object);
    Symbol o = infer(object);
    if (o.placement == Placement::host || o.kind == Kind::module) continue;
    if (o.placement == Placement::accelerator || mentions_parameter(object)) from = object;
  }
  if (!from.valid()) return;
  m_inline_reported.insert(call.start_byte());
  emit(RuleId::tensor_created_without_device, call,
       fmt::format("torch.tensor([...]) copies values read from `{}` (tensors on its device) into a new tensor on the "
                   "CPU, with a sync per value, at every call of {}(); it then meets `{}`'s device",
                   snippet(from, 30), function_name(), snippet(from, 30)),
       {snippet(call, 80)},
       fmt::format("torch.stack([...]) keeps the device (or torch.tensor(..., device={}.device))", snippet(from, 30)));
}

// The tensors a torch.stack/cat (maybe over torch.meshgrid) joins are all names bound in this
// function to sized factories made on the host without a device.
bool Analyzer::all_host_factories(Node join) {
  bool any = false;
  // Named nodes only: the walk below descends through argument lists, lists, tuples and meshgrid.
  std::function<bool(Node, int)> host_only = [&](Node n, int depth) -> bool {
    if (depth > 4) return false;
    if (n.is(NodeKind::keyword_argument)) return true;  // dim=, indexing=
    if (n.is(NodeKind::argument_list) || n.is(NodeKind::list) || n.is(NodeKind::tuple)) {
      for (std::uint32_t i = 0; i < n.named_count(); ++i) {
        if (!host_only(n.named(i), depth + 1)) return false;
      }
      return true;
    }
    if (n.is(NodeKind::call)) {
      std::string q = qualified_callee(n);
      return last_component(q) == "meshgrid" && is_torch_function(q) && host_only(n.field(Field::arguments), depth + 1);
    }
    if (!n.is(NodeKind::identifier)) return false;
    const Symbol* s = lookup(n.text());
    if (s == nullptr || !s->made_on_host() || !s->sized || s->row < 0) return false;
    any = true;
    return true;
  };
  return host_only(join.field(Field::arguments), 0) && any;
}

// `torch.load(path)` with no map_location, of a checkpoint, in a file that also runs on the CPU
// (it chooses "cpu" somewhere: a fallback, a default, a flag): the tensors go back to the GPU they
// were saved from, which does not exist on a CPU-only machine.
void Analyzer::check_load_without_map_location(Node call) {
  Node args = call.field(Field::arguments);
  if (!args.valid() || has_splat(call) || keyword(call, "map_location").valid()) return;
  // One positional argument, the path; or the path and weights_only=False, which unpickles whole
  // objects (a model saved with torch.save(model)) whose tensors go back where they were saved and
  // are used as they are, with no load_state_dict() to copy them into a placed module.
  if (args.named_count() == 0 || args.named(0).is(NodeKind::keyword_argument)) return;
  if (args.named_count() > 1) {
    Node whole = keyword(call, "weights_only");
    if (args.named_count() != 2 || !whole.valid() || !whole.field(Field::value).is(NodeKind::false_)) return;
  }
  // Under a test of the device (`if torch.cuda.is_available():`, `if args.gpu:`), or in a try whose
  // except loads again another way: the code has decided where it runs.
  for (Node p = call.parent(); p.valid() && !p.is(NodeKind::function_definition) && !p.is(NodeKind::module); p = p.parent()) {
    if (p.type() == "try_statement") return;
    Node test = branch_test(p);
    if (!test.valid()) continue;
    for (std::string_view w : {"cuda", "gpu", "device", "cpu"}) {
      if (util::contains_icase(test.text(), w)) return;
    }
  }
  Node path = positional(call, 0);
  if (!path.valid()) return;
  const std::string_view text = m_src.text;
  // The first "cpu" of the code, not of a comment (`torch.load(ckpt)  #, map_location="cpu")`): read
  // once per file.
  if (!m_first_cpu_literal) {
    auto code_literal = [&](std::string_view quoted) {
      for (std::size_t at = text.find(quoted); at != std::string_view::npos; at = text.find(quoted, at + 1)) {
        std::size_t bol = text.rfind('\n', at);
        bol = bol == std::string_view::npos ? 0 : bol + 1;
        if (text.substr(bol, at - bol).find('#') == std::string_view::npos) return at;
      }
      return std::string_view::npos;
    };
    m_first_cpu_literal = std::min(code_literal("\"cpu\""), code_literal("'cpu'"));
  }
  const std::size_t cpu = *m_first_cpu_literal;
  if (cpu == std::string_view::npos) return;
  // A notebook that writes checkpoints reloads what it trained in the same session, on the same machine.
  if (!m_src.cells.empty()) {
    if (!m_notebook_saves) {
      m_notebook_saves = false;
      for (std::string_view w : {"torch.save(", "save_model(", "save_path", "save_checkpoint("}) {
        if (text.find(w) != std::string_view::npos) m_notebook_saves = true;
      }
    }
    if (*m_notebook_saves) return;
  }
  // A checkpoint: what it returns fills a state dict, or its path or the name it is bound to says so.
  auto says_checkpoint = [](std::string_view t) {
    for (std::string_view w : {"ckpt", "checkpoint", "model", "weight", "state_dict", "pretrained", ".pth"}) {
      if (util::contains_icase(t, w)) return true;
    }
    return false;
  };
  bool checkpoint = says_checkpoint(path.text());
  Node parent = call.parent();
  if (parent.is(NodeKind::argument_list)) {
    Node outer = parent.parent();
    checkpoint = checkpoint || (outer.is(NodeKind::call) && outer.field(Field::function).text().ends_with("load_state_dict"));
  }
  if (parent.is(NodeKind::assignment)) checkpoint = checkpoint || says_checkpoint(parent.field(Field::left).text());
  if (!checkpoint) return;
  // The file saves it too (`torch.save(model.state_dict(), "best.pt")` ... `torch.load("best.pt")`):
  // it reloads what the same run wrote, on the same machine.
  const std::string_view p = path.text();
  // The save's arguments may span lines (`torch.save(obj=..., \n f=PATH)`): read up to its closing
  // parenthesis. The spans are found once per file, and at most k_max_saves of them are kept (a
  // generated file with a hundred thousand saves and loads must not cost their product).
  constexpr std::size_t k_max_saves = 256;
  if (!m_save_spans) {
    m_save_spans.emplace();
    for (std::size_t at = text.find("torch.save("); at != std::string_view::npos && m_save_spans->size() < k_max_saves;
         at = text.find("torch.save(", at + 1)) {
      std::size_t end = at + 11;
      for (int depth = 1; end < text.size() && end < at + 2000 && depth > 0; ++end) {
        depth += text[end] == '(' ? 1 : text[end] == ')' ? -1 : 0;
      }
      m_save_spans->push_back(text.substr(at + 11, end - (at + 11)));
    }
  }
  auto space = [](char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; };
  for (std::string_view span : *m_save_spans) {
    for (std::size_t k = span.find(p); k != std::string_view::npos; k = span.find(p, k + 1)) {
      std::size_t before = k, after = k + p.size();
      while (before > 0 && space(span[before - 1])) --before;
      while (after < span.size() && space(span[after])) ++after;
      if (before > 0 && (span[before - 1] == ',' || span[before - 1] == '=') && after < span.size() &&
          (span[after] == ')' || span[after] == ',')) {
        return;
      }
    }
  }
  if (m_first_cpu_row < 0) m_first_cpu_row = static_cast<int>(util::count_byte(text.substr(0, cpu), '\n'));
  const int cpu_row = m_first_cpu_row;
  emit(RuleId::load_without_map_location, call,
       fmt::format("`{}` has no map_location, and this file also runs on the CPU ({} chooses \"cpu\"): tensors saved "
                   "from a GPU are restored onto that GPU, which fails where there is none (\"Attempting to deserialize "
                   "object on a CUDA device\")",
                   snippet(call, 50), where(cpu_row)),
       {snippet(call, 80)}, fmt::format("torch.load({}, map_location=device)", snippet(path, 40)));
}

// `return model` of a function that filled the module with torch.load(..., map_location=device) and
// never moved it: map_location places the checkpoint's tensors, and load_state_dict copies them into
// the module's own parameters, on the CPU where it was built. Not when a caller in the file moves what
// the function returns.
void Analyzer::check_return_of_mapped_load(Node value) {
  if (m_functions.empty() || !value.is(NodeKind::identifier)) return;
  auto fn = m_mapped_loads.find(m_functions.back());
  if (fn == m_mapped_loads.end()) return;
  auto load = fn->second.find(std::string(value.text()));
  if (load == fn->second.end()) return;
  const Symbol* s = lookup(value.text());
  if (s == nullptr || (s->kind != Kind::module && s->kind != Kind::unknown) || s->placement == Placement::accelerator ||
      s->moved_row >= 0 || s->is_parameter) {
    return;
  }
  // Moved in the function after all (`model.to(device)`, `model = model.cuda()`)?
  bool moved = false;
  util::for_each_name_use(m_function_nodes.back().text(), value.text(), [&](std::string_view rest) {
    moved = moved || rest.starts_with(".to(") || rest.starts_with(".cuda(") || rest.starts_with(".to_empty(");
  });
  if (moved) return;
  // A caller that moves the result: `load(...).to(device)`, or `m = load(...)` and then `m.to(...)`.
  // At most k_max_callers call sites are read; past them the function is assumed moved by someone.
  constexpr int k_max_callers = 64;
  int callers = 0;
  const std::string_view text = m_src.text;
  const std::string callee(function_name());
  for (std::size_t at = text.find(callee + "("); at != std::string_view::npos; at = text.find(callee + "(", at + 1)) {
    if (++callers > k_max_callers) return;
    std::size_t bol = text.rfind('\n', at);
    bol = bol == std::string_view::npos ? 0 : bol + 1;
    std::size_t eol = text.find('\n', at);
    auto line = text.substr(bol, eol == std::string_view::npos ? std::string_view::npos : eol - bol);
    if (line.find("def ") != std::string_view::npos || line.substr(0, at - bol).find('#') != std::string_view::npos) continue;
    if (line.find(".to(") != std::string_view::npos || line.find(".cuda(") != std::string_view::npos) return;
    auto eq = line.find(" = ");
    if (eq == std::string_view::npos) continue;
    auto bound = util::trim(line.substr(0, eq));
    bool later_moved = false;
    util::for_each_name_use(text.substr(at), bound, [&](std::string_view rest) {
      later_moved = later_moved || rest.starts_with(".to(") || rest.starts_with(".cuda(");
    });
    if (later_moved) return;
  }
  Node ml = keyword(load->second, "map_location");
  emit(RuleId::model_not_moved, value,
       fmt::format("`{}` is filled with torch.load(..., map_location={}) and returned without being moved: map_location "
                   "places the checkpoint's tensors, but load_state_dict copies them into `{}`'s own parameters, which "
                   "stay on the CPU where it was built",
                   value.text(), snippet(ml.field(Field::value), 30), value.text()),
       {snippet(load->second.parent().parent(), 80)},
       fmt::format("return {}.to({})", value.text(), snippet(ml.field(Field::value), 30)));
}

// `x.cuda()` or `x.to("cuda")` in code that otherwise uses a chosen device: a parameter named for
// it, `.to(device)` / `.to(self.device)` in the same function, or `self.device` in the class. "cuda"
// is the current GPU, not the chosen one.
void Analyzer::check_cuda_ignores_device(Node call, std::string_view method) {
  if (m_function_nodes.empty()) return;
  Node object = call.field(Field::function).field(Field::object);
  if (!object.valid() || object.text() == "torch" || object.text().ends_with(".torch")) return;
  Node args = call.field(Field::arguments);
  if (method == "cuda") {
    if (!args.valid() || positional(call, 0).valid() || keyword(call, "device").valid()) return;  // .cuda(rank): chosen
  } else {
    Node first = positional(call, 0);
    auto v = string_value(first);
    if (!v || (*v != "cuda" && *v != "cuda:0")) return;
  }
  const std::string& chosen = chosen_device_here();
  if (!chosen.empty()) {
    report_cuda_ignoring(call, object, chosen);
    return;
  }
  // `x.cpu().cumsum(0).cuda()`: a detour through the host for an input of this function returns to the
  // current GPU, not to the one the input was on.
  if (method != "cuda") return;
  Node root = object;
  bool via_host = false;
  for (int guard = 0; guard < 16; ++guard) {
    if (root.is(NodeKind::attribute)) {  // `.values` of a sort, `.data`
      root = root.field(Field::object);
      continue;
    }
    if (!root.is(NodeKind::call) || !root.field(Field::function).is(NodeKind::attribute)) break;
    via_host = via_host || root.field(Field::function).field(Field::attribute).text() == "cpu";
    root = root.field(Field::function).field(Field::object);
  }
  if (!via_host || !root.is(NodeKind::identifier) || parameter_index(m_function_nodes.back(), root.text()) < 0) return;
  for (Node p = call.parent(); p.valid() && !p.is(NodeKind::function_definition); p = p.parent()) {
    if (p.type() == "try_statement") return;
  }
  emit(RuleId::cuda_ignores_device, call,
       fmt::format("`{}` takes `{}` to the host and back to the current GPU (\"cuda\", cuda:0 unless set), not to the "
                   "GPU `{}` was on: with inputs on cuda:1 the result is on another GPU than the rest",
                   snippet(call, 50), root.text(), root.text()),
       {snippet(call, 80)}, fmt::format("{}.to({}.device)", snippet(object, 30), root.text()));
}

// `device="cuda:0"` (or device_map=) handed to a call in a function that has a chosen device: the
// value pins the first GPU whatever was chosen (a model loaded on cuda:0 while the caller asked
// for cuda:1).
void Analyzer::check_cuda_keyword_ignores_device(Node call) {
  if (m_function_nodes.empty()) return;
  for (std::string_view name : {"device", "device_map"}) {
    Node kw = keyword(call, name);
    if (!kw.valid()) continue;
    auto v = string_value(kw.field(Field::value));
    // "cuda:1" and above name a GPU that a machine with one GPU does not have.
    const bool other_gpu = v && v->size() == 6 && v->starts_with("cuda:") && (*v)[5] >= '1' && (*v)[5] <= '9';
    if (!v || (*v != "cuda" && *v != "cuda:0" && !other_gpu)) continue;
    std::string chosen = chosen_device_here();
    // A tensor made on "cuda" beside others this function makes on the device of a value it was handed
    // (`torch.empty(m, device=x.device)`): the two meet on different GPUs when x is on cuda:1.
    if (chosen.empty() && is_torch_function(qualified_callee(call))) {
      // Read once per function.
      auto [it, fresh] = m_followed_device.try_emplace(m_function_nodes.back().start_byte());
      if (fresh) {
        static const RE2 k_followed(R"re([(,]\s*device\s*=\s*([A-Za-z_]\w*(?:\.\w+)*\.device)\s*[,)])re");
        RE2::PartialMatch(m_function_nodes.back().text(), k_followed, &it->second);
      }
      chosen = it->second;
    }
    if (chosen.empty()) return;
    // Under any test (`if torch.device(device).type == "cuda":`): the code chose this branch. A second GPU
    // named outright is chosen only by a test that counts the GPUs.
    for (Node p = call.parent(); p.valid() && !p.is(NodeKind::function_definition); p = p.parent()) {
      if (p.type() == "try_statement") return;
      Node test = branch_test(p);
      if (!test.valid()) continue;
      if (!other_gpu) return;
      const std::string_view t = test.text();
      if (util::contains(t, "device_count") || util::contains(t, "gpu") || util::contains(t, "world_size") ||
          util::contains(t, "cuda:")) {
        return;
      }
    }
    emit(RuleId::cuda_ignores_device, call,
         other_gpu ? fmt::format("`{}=\"{}\"` pins GPU {}, while this code uses a chosen device (`{}`): on a machine "
                                 "with fewer GPUs (or none) the call fails, and elsewhere its result is on another GPU "
                                 "than the rest",
                                 name, *v, v->substr(5), chosen)
                   : fmt::format("`{}=\"{}\"` pins the first GPU, while this code uses a chosen device (`{}`): with "
                                 "cuda:1 chosen, what this call makes is on another GPU than the rest",
                                 name, *v, chosen),
         {snippet(call, 80)}, fmt::format("{}={}", name, chosen));
    return;
  }
}

// The device this function was given or moves values to (a `device` parameter, `.to(args.device)`), or
// the class's self.device; "" for none. Read once per function.
const std::string& Analyzer::chosen_device_here() {
  static const std::string k_none;
  if (m_function_nodes.empty()) return k_none;
  // Where a chosen device lives: a parameter or a moved value of this function, or the class.
  static const RE2 k_chosen(R"re(\.to\(\s*(?:self\.|args\.|opt\.|cfg\.|config\.|self\.args\.|self\.cfg\.)?(\w*device\w*)\s*[,)])re");
  // Read once per function: a body with many calls is not searched once per call.
  auto cached = m_chosen_device.find(m_function_nodes.back().start_byte());
  if (cached != m_chosen_device.end()) return cached->second;
  const std::string_view body = m_function_nodes.back().text();
  std::string chosen;
  if (!RE2::PartialMatch(body, k_chosen, &chosen)) {
    Node params = m_function_nodes.back().field(Field::parameters);
    static const RE2 k_device_param(R"re([(,]\s*(\w*device\w*)\s*[:=,)])re");
    if (!params.valid() || !RE2::PartialMatch(params.text(), k_device_param, &chosen)) {
      const bool in_class_method = !m_class_nodes.empty() &&
                          m_function_nodes.back().start_byte() >= m_class_nodes.back().start_byte() &&
                          m_function_nodes.back().end_byte() <= m_class_nodes.back().end_byte();
      if (in_class_method && m_class_nodes.back().text().find(".to(self.device") != std::string_view::npos) {
        chosen = "self.device";
      }
    }
  }
  return m_chosen_device.emplace(m_function_nodes.back().start_byte(), chosen).first->second;
}

void Analyzer::report_cuda_ignoring(Node call, Node object, const std::string& chosen) {
  // Under a test that does not read the chosen device (`if torch.cuda.is_available():`, `if args.cuda:`):
  // the test decides, not the device.
  // A feature flag (`if args.vcd_decoding:`, `if x is not None`) decides nothing about devices: still reported.
  static const RE2 k_about_devices(R"re((?i)cuda|gpu|device|avail|rank|dist|mps|accel|xla|tpu|cpu|half|fp16|amp)re");
  for (Node p = call.parent(); p.valid() && !p.is(NodeKind::function_definition); p = p.parent()) {
    Node test = branch_test(p);
    if (test.valid() && test.text().find(chosen) == std::string_view::npos &&
        RE2::PartialMatch(test.text(), k_about_devices)) {
      return;
    }
    if (p.type() == "try_statement") return;
  }
  emit(RuleId::cuda_ignores_device, call,
       fmt::format("`{}` goes to the current GPU (\"cuda\", cuda:0 unless set), while this code uses a chosen device "
                   "(`{}`): with cuda:1 chosen the tensors meet on two GPUs, with the CPU chosen the line fails where "
                   "there is no CUDA",
                   snippet(call, 50), chosen),
       {snippet(call, 80)}, fmt::format("{}.to({})", snippet(object, 30), chosen));
}

// `torch.cuda.set_device(device)` right after `device = ... if torch.cuda.is_available() else "cpu"`:
// on a machine without CUDA the chosen device is the CPU and the call fails before anything runs.
void Analyzer::check_set_device_of_fallback(Node call) {
  Node arg = positional(call, 0);
  if (!arg.is(NodeKind::identifier) || under_choice(call)) return;
  const std::uint32_t here = m_functions.empty() ? k_module_level : m_functions.back();
  for (const auto& c : m_fallbacks) {
    if (c.name != arg.text()) continue;
    std::uint32_t at_function = k_module_level;
    for (Node p = c.at.parent(); p.valid(); p = p.parent()) {
      if (p.is(NodeKind::function_definition)) {
        at_function = p.start_byte();
        break;
      }
    }
    if (at_function != here || c.at.start_byte() > call.start_byte()) continue;
    for (Node p = call.parent(); p.valid() && !p.is(NodeKind::function_definition); p = p.parent()) {
      if (p.type() == "try_statement") return;
    }
    emit(RuleId::cuda_ignores_device, call,
         fmt::format("torch.cuda.set_device({0}) runs whatever `{0}` is, but `{0}` falls back to \"cpu\" at {1}: on a "
                     "machine without CUDA this line fails before anything runs",
                     arg.text(), where(c.at.row())),
         {snippet(call, 80)}, fmt::format("if {0}.type == \"cuda\": torch.cuda.set_device({0})", arg.text()));
    return;
  }
}

// `run_epoch(loader, model, ...)` where `def run_epoch(..., cuda=True)` sends every batch through
// .cuda() under that flag, in a file that chooses the CPU when CUDA is missing: the call leaves the
// flag at its default, so the choice never reaches the helper.
void Analyzer::check_cuda_flag_default(Node call, std::string_view name) {
  // The file's top-level functions with such a flag, read once per file: name -> (flag, position).
  if (!m_cuda_flag_helpers) {
    m_cuda_flag_helpers.emplace();
    const std::string_view text = m_src.text;
    const bool chooses_cpu = !m_fallbacks.empty() || text.find("torch.device(\"cpu\")") != std::string_view::npos ||
                             text.find("torch.device('cpu')") != std::string_view::npos ||
                             text.find("else \"cpu\"") != std::string_view::npos || text.find("else 'cpu'") != std::string_view::npos;
    static const RE2 k_flag(R"re(\b(cuda|use_cuda|gpu|use_gpu|on_gpu)\s*=\s*True\b)re");
    for (std::uint32_t k = 0; chooses_cpu && k < m_root.named_count(); ++k) {
      Node def = m_root.named(k);
      if (!def.is(NodeKind::function_definition)) continue;
      Node params = def.field(Field::parameters);
      std::string flag;
      if (!params.valid() || !RE2::PartialMatch(params.text(), k_flag, &flag)) continue;
      const std::string_view body = def.field(Field::body).text();
      if (body.find("if " + flag + ":") == std::string_view::npos || body.find(".cuda(") == std::string_view::npos) continue;
      if (int i = parameter_index(def, flag); i >= 0) {
        m_cuda_flag_helpers->emplace(std::string(def.field(Field::name).text()),
                                     std::make_pair(flag, static_cast<std::uint32_t>(i)));
      }
    }
  }
  if (m_cuda_flag_helpers->empty()) return;
  auto it = m_cuda_flag_helpers->find(std::string(name));
  if (it == m_cuda_flag_helpers->end()) return;
  const auto& [flag, index] = it->second;
  if (keyword(call, flag).valid() || has_splat(call) || positional(call, index).valid()) return;
  // A call inside the helper itself.
  for (Node p = call.parent(); p.valid(); p = p.parent()) {
    if (p.is(NodeKind::function_definition) && p.field(Field::name).text() == name) return;
  }
  emit(RuleId::cuda_ignores_device, call,
       fmt::format("{}() is called without `{}`, whose default True sends every batch through .cuda(), while this file "
                   "chooses the CPU when CUDA is missing: there the call fails",
                   name, flag),
       {snippet(call, 80)}, fmt::format("{}(..., {}=torch.cuda.is_available())", name, flag));
}

}  // namespace gpudoctor::scan
