// What an expression holds: the kind of value (module, tensor, DataLoader, device, ...) and where
// it is placed, from constructors, factories, .to()/.cuda() chains and the names it reads.
// Recursion follows expression nesting only and is cut off at k_max_depth, so pathological nesting
// yields "unknown", never a stack overflow.
#include <scan/analyzer_impl.hpp>

#include <util/text.hpp>

namespace gpudoctor::scan {
namespace {

constexpr int k_max_depth = 24;

constexpr std::string_view k_tensor_factories[] = {"tensor", "zeros",  "ones",     "empty", "full",  "rand",
                                                   "randn",  "randint", "arange", "linspace", "eye",  "randperm",
                                                   "stack",  "cat",    "from_numpy", "as_tensor", "normal",
                                                   "logspace", "triu_indices", "tril_indices", "hann_window",
                                                   "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"};

// Methods that return their receiver's kind unchanged (and, for tensors, its placement).
constexpr std::string_view k_same_kind_methods[] = {"float",   "half",   "double",  "long",      "int",
                                                    "bool",    "detach", "contiguous", "clone",  "squeeze",
                                                    "unsqueeze", "view", "reshape", "permute",   "transpose",
                                                    "flatten", "requires_grad_", "eval", "train", "bfloat16",
                                                    "type",    "share_memory", "t",      "fill_",   "zero_",
                                                    "expand",  "repeat", "masked_fill", "abs",   "exp",
                                                    "sum",     "mean",   "argmax",  "softmax",   "log_softmax",
                                                    "sigmoid", "norm",   "pow",     "mul",       "add",
                                                    "sub",     "div",    "matmul",  "std",       "var"};

// torch functions whose result is a tensor placed like their first argument.
constexpr std::string_view k_tensor_functions[] = {"triu", "tril", "where", "exp", "log", "sqrt", "abs", "sigmoid",
                                                   "tanh", "matmul", "mm", "bmm", "outer", "flip", "roll", "cumsum",
                                                   "diag", "transpose", "reshape", "unsqueeze", "squeeze",
                                                   "max", "min", "argmax", "argmin", "topk", "sort", "sum", "mean",
                                                   "softmax", "log_softmax", "relu", "clamp", "round", "floor",
                                                   "sin", "cos", "pow", "neg", "ceil"};

// scikit-learn estimators that cuML implements on the GPU (https://docs.rapids.ai/api/cuml/stable/api/).
constexpr std::string_view k_cuml_estimators[] = {
    "RandomForestClassifier", "RandomForestRegressor", "KMeans",     "DBSCAN",      "HDBSCAN",
    "PCA",                    "TruncatedSVD",          "TSNE",       "LogisticRegression", "LinearRegression",
    "Ridge",                  "Lasso",                 "ElasticNet", "SVC",         "SVR",
    "KNeighborsClassifier",   "KNeighborsRegressor",   "NearestNeighbors", "LinearSVC", "UMAP"};

bool one_of(std::string_view s, std::span<const std::string_view> set) {
  for (auto x : set) {
    if (s == x) return true;
  }
  return false;
}

bool is_device_string(std::string_view v) {
  return v == "cuda" || v.substr(0, 5) == "cuda:" || v == "mps" || v == "xpu" || v.substr(0, 4) == "xpu:";
}

// transformers model classes (not tokenizers, configs or processors): AutoModel*, *Model, *For*, *LMHeadModel.
bool is_hf_model_class(std::string_view cls) {
  if (cls.find("Tokenizer") != std::string_view::npos || cls.find("Processor") != std::string_view::npos ||
      cls.find("Config") != std::string_view::npos || cls.find("Extractor") != std::string_view::npos) {
    return false;
  }
  return cls.substr(0, 9) == "AutoModel" || cls.find("For") != std::string_view::npos ||
         (cls.size() > 5 && cls.substr(cls.size() - 5) == "Model");
}

}  // namespace

Node Analyzer::keyword(Node call, std::string_view name) const {
  Node args = call.field(Field::arguments);
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (a.is(NodeKind::keyword_argument) && a.field(Field::name).text() == name) return a;
  }
  return {};
}

bool Analyzer::has_splat(Node call) const {
  Node args = call.field(Field::arguments);
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    if (args.named(i).is(NodeKind::dictionary_splat)) return true;
  }
  return false;
}

Placement Analyzer::splat_device_map(Node call) const {
  // from_pretrained(name, **kwargs): where the dict is filled in this function (or the module) on
  // one line that names it and device_map (`kw["device_map"] = "cuda"`, `kw.setdefault("device_map",
  // ...)`, `kw = {"device_map": "auto"}`), the model is placed; otherwise the dict may carry one.
  Node args = call.field(Field::arguments);
  Node scope = m_function_nodes.empty() ? Node() : m_function_nodes.back();
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (!a.is(NodeKind::dictionary_splat) || a.named_count() == 0 || !a.named(0).is(NodeKind::identifier)) continue;
    std::string_view name = a.named(0).text();
    std::string_view text = scope.valid() ? scope.text() : m_root.text();
    for (std::string_view line : util::lines(text)) {
      if (line.size() > 400 || line.find("device_map") == std::string_view::npos || line.find(name) == std::string_view::npos) continue;
      if (util::contains_icase(line, "\"cpu\"") || util::contains_icase(line, "'cpu'")) continue;
      return Placement::accelerator;
    }
  }
  return Placement::unknown;
}

Node Analyzer::positional(Node call, std::uint32_t index) const {
  Node args = call.field(Field::arguments);
  std::uint32_t seen = 0;
  for (std::uint32_t i = 0; args.valid() && i < args.named_count(); ++i) {
    Node a = args.named(i);
    if (a.is(NodeKind::comment)) continue;
    if (a.is(NodeKind::keyword_argument) || a.is(NodeKind::dictionary_splat) || a.is(NodeKind::list_splat)) break;
    if (seen++ == index) return a;
  }
  return {};
}

std::string Analyzer::qualified_callee(Node call) const {
  Node fn = call.field(Field::function);
  if (!fn.is(NodeKind::identifier) && !fn.is(NodeKind::attribute)) return {};
  return m_ff.imports.qualify(fn.text());
}

bool Analyzer::is_cpu_device(Node expr) {
  if (!expr.valid()) return false;
  if (auto v = string_value(expr)) return *v == "cpu";
  if (expr.is(NodeKind::call) && qualified_callee(expr) == "torch.device") {
    auto v = string_value(positional(expr, 0));
    return v && *v == "cpu";
  }
  if (expr.is(NodeKind::identifier) || expr.is(NodeKind::attribute)) {
    const Symbol* s = lookup(expr.text());
    return s != nullptr && s->kind == Kind::device && s->cpu_device;
  }
  return false;
}

bool Analyzer::moves_to_accelerator(Node call, std::string_view method) {
  if (method == "cuda") return true;
  if (method == "type_as") {
    Node other = positional(call, 0);
    return other.is(NodeKind::identifier) || other.is(NodeKind::attribute) || other.is(NodeKind::subscript);
  }
  if (method != "to") return false;
  Node first = positional(call, 0);
  Node device_kw = keyword(call, "device");
  if (device_kw.valid()) first = device_kw.field(Field::value);
  if (!first.valid()) return false;
  if (is_dtype_expression(first, m_ff.imports) || is_cpu_device(first)) return false;
  // `.to(other_tensor)` follows that tensor; `.to(x.device)` that placement: both count as placement.
  return true;
}

bool Analyzer::is_fallback_conditional(Node cond) const {
  // `... if torch.cuda.is_available() else "cpu"`, or an if-statement condition calling is_available().
  Node test = cond.is(NodeKind::conditional_expression) ? cond.named(1) : cond;
  if (!test.valid()) return false;
  bool found = false;
  int budget = 64;
  for_each_node(test, [&](Node n) {
    if (found || --budget < 0) return Descend::no;
    if (n.is(NodeKind::call)) {
      Node fn = n.field(Field::function);
      if (fn.is(NodeKind::attribute) && fn.field(Field::attribute).text() == "is_available" &&
          fn.field(Field::object).text().find("cuda") != std::string_view::npos) {
        found = true;
      }
    }
    return Descend::yes;
  });
  if (!found || !cond.is(NodeKind::conditional_expression)) return found;
  Node otherwise = cond.named(2);
  auto v = string_value(otherwise);
  if (v) return *v == "cpu";
  return otherwise.is(NodeKind::call) && qualified_callee(otherwise) == "torch.device" &&
         string_value(positional(otherwise, 0)).value_or("") == "cpu";
}

// torch.cuda.FloatTensor, torch.cuda.LongTensor, ... (as imported).
bool Analyzer::is_cuda_tensor_type(Node expr) const {
  if (!expr.is(NodeKind::attribute)) return false;
  std::string q = m_ff.imports.qualify(expr.text());
  return q.starts_with("torch.cuda.") && q.ends_with("Tensor") && q.find('.', 11) == std::string::npos;
}

bool Analyzer::plain_number(Node expr, int depth) {
  // `-(math.log(10000) / (half - 1))`: literals, names of no known kind and math on them. Calls
  // nested past k_max_depth (hostile input) are no plain number.
  if (depth > k_max_depth) return false;
  bool plain = true;
  int budget = 64;
  for_each_node(expr, [&](Node n) {
    if (!plain || --budget < 0) {
      plain = false;
      return Descend::no;
    }
    if (!n.is_named()) return Descend::no;  // operators and brackets
    switch (n.kind()) {
      case NodeKind::integer:
      case NodeKind::binary_operator:
      case NodeKind::unary_operator:
      case NodeKind::parenthesized_expression:
        return Descend::yes;
      case NodeKind::identifier: {
        const Symbol* s = lookup(n.text());
        plain = s == nullptr || (s->kind == Kind::unknown && s->placement == Placement::unknown && !s->from_shape &&
                                 (!s->is_parameter || s->scalar));
        return Descend::no;
      }
      case NodeKind::call: {
        auto f = n.field(Field::function).text();
        plain = f.starts_with("math.") || f == "int" || f == "float" || f == "len";
        if (plain) {
          Node args = n.field(Field::arguments);
          for (std::uint32_t i = 0; args.valid() && i < args.named_count() && plain; ++i) plain = plain_number(args.named(i), depth + 1);
        }
        return Descend::no;
      }
      default: {
        // A float literal (no kind of its own here): `1e-4`, `0.5`.
        auto s = n.text();
        plain = !s.empty() && s.find_first_not_of("0123456789.eE+-_") == std::string_view::npos &&
                (std::isdigit(static_cast<unsigned char>(s[0])) != 0 || s[0] == '.');
        return Descend::no;
      }
    }
  });
  return plain;
}

Symbol Analyzer::infer(Node expr, int depth) {
  if (!expr.valid() || depth > k_max_depth) return {};
  switch (expr.kind()) {
    case NodeKind::parenthesized_expression:
      return expr.named_count() == 1 ? infer(expr.named(0), depth + 1) : Symbol{};
    case NodeKind::identifier:
    case NodeKind::attribute: {
      const Symbol* s = lookup(expr.text());
      if (s != nullptr) return *s;
      if (is_cuda_tensor_type(expr)) {
        Symbol t;
        t.cuda_tensor_type = true;
        return t;
      }
      // `out.data` is the tensor itself.
      if (expr.is(NodeKind::attribute) && expr.field(Field::attribute).text() == "data") return infer(expr.field(Field::object), depth + 1);
      // `tokenizer(text, return_tensors="pt").input_ids`: a field of a host encoding is a host tensor.
      if (auto field = expr.field(Field::attribute).text();
          field == "input_ids" || field == "attention_mask" || field == "pixel_values" || field == "token_type_ids") {
        Symbol whole = infer(expr.field(Field::object), depth + 1);
        if (whole.kind == Kind::encoding && whole.placement == Placement::host) {
          whole.kind = Kind::tensor;
          return whole;
        }
      }
      return {};
    }
    case NodeKind::string: {
      auto v = string_value(expr);
      Symbol s;
      if (v && (*v == "cpu" || is_device_string(*v))) {
        s.kind = Kind::device;
        s.cpu_device = *v == "cpu";
        s.placement = s.cpu_device ? Placement::host : Placement::accelerator;
      }
      return s;
    }
    case NodeKind::conditional_expression: {
      Symbol s;
      if (is_fallback_conditional(expr)) {
        s.kind = Kind::device;
        s.fallback = true;
        s.placement = Placement::accelerator;
      }
      // `torch.cuda.FloatTensor if use_cuda else torch.FloatTensor`: the GPU type when there is one.
      if (is_cuda_tensor_type(expr.named(0)) || (expr.named_count() == 3 && is_cuda_tensor_type(expr.named(2)))) {
        s.cuda_tensor_type = true;
      }
      return s;
    }
    case NodeKind::call: return infer_call(expr, depth);
    case NodeKind::subscript: {
      // A part of a batch is a batch; a part of a tokenizer's encoding is a host tensor.
      Symbol whole = infer(expr.field(Field::value), depth + 1);
      if (whole.kind == Kind::batch) return whole;
      if (whole.kind == Kind::encoding && whole.placement == Placement::host) {
        whole.kind = Kind::tensor;
        return whole;
      }
      if (whole.kind == Kind::tensor) {
        // `torch.tensor(mean)[None]`: a new axis makes at least one dimension, whatever mean held.
        if (expr.text().substr(expr.field(Field::value).text().size()).find("None") != std::string_view::npos) {
          whole.maybe_number = false;
          whole.zero_dim = false;
        }
        return whole;
      }
      return {};
    }
    case NodeKind::binary_operator: {
      // Arithmetic with numbers keeps a tensor where it is: `2 * pi * j / n` is where `j` is.
      Node a = expr.named(0), b = expr.named(expr.named_count() - 1);
      Symbol sa = infer(a, depth + 1), sb = infer(b, depth + 1);
      if (sa.kind == Kind::tensor && sb.kind != Kind::tensor && (!mentions_parameter(b) || plain_number(b))) return sa;
      if (sb.kind == Kind::tensor && sa.kind != Kind::tensor && (!mentions_parameter(a) || plain_number(a))) return sb;
      if (sa.made_on_host() && sb.made_on_host()) return sa;  // two tensors made here on the host
      if (sa.placement == Placement::accelerator || sb.placement == Placement::accelerator) {
        Symbol t;
        t.kind = Kind::tensor;
        t.placement = Placement::accelerator;
        return t;
      }
      return {};
    }
    default: return {};
  }
}

Symbol Analyzer::infer_call(Node call, int depth) {
  Node fn = call.field(Field::function);
  Symbol out;
  if (fn.is(NodeKind::attribute)) {
    std::string_view method = fn.field(Field::attribute).text();
    Node object = fn.field(Field::object);
    // x.type(torch.cuda.FloatTensor), x.type(dtype) with dtype such a type, x.type("torch.cuda.FloatTensor").
    if (method == "type") {
      Node arg = positional(call, 0);
      auto text = string_value(arg);
      if (infer(arg, depth + 1).cuda_tensor_type || (text && text->starts_with("torch.cuda."))) {
        out.kind = Kind::tensor;
        out.placement = Placement::accelerator;
        out.moved_row = call.row();
        return out;
      }
    }
    if (method == "to" || method == "cuda" || method == "cpu") {
      Symbol base = infer(object, depth + 1);
      if (base.kind == Kind::module || base.kind == Kind::hf_model || base.kind == Kind::tensor ||
          base.kind == Kind::batch || base.kind == Kind::encoding) {
        out = base;
        if (out.kind == Kind::batch) out.kind = Kind::tensor;
        if (method == "cpu" || (method == "to" && is_cpu_device(positional(call, 0)))) {
          out.placement = Placement::host;
        } else if (moves_to_accelerator(call, method)) {
          out.placement = Placement::accelerator;
          out.moved_row = call.row();
        }
        return out;
      }
      if (moves_to_accelerator(call, method)) {
        out.placement = Placement::accelerator;
        out.moved_row = call.row();
      }
      return out;
    }
    // `x.softmax(1)` keeps x's kind and placement; `F.softmax(x)` and `torch.sum(x)` are functions of
    // an imported module, read below.
    const bool module_function = object.is(NodeKind::identifier) && m_ff.imports.qualify(object.text()) != object.text();
    if (one_of(method, k_same_kind_methods) && !module_function && object.text() != "torch") {
      return infer(object, depth + 1);
    }
    // A Hugging Face tokenizer's encode(..., return_tensors="pt") (whatever the object is named):
    // token ids made on the host.
    if ((method == "encode" || method == "apply_chat_template" || method == "encode_plus" ||
         method == "batch_encode_plus") &&
        string_value(keyword(call, "return_tensors").field(Field::value)).value_or("") == "pt") {
      out.kind = method.ends_with("_plus") ? Kind::encoding : Kind::tensor;
      out.placement = Placement::host;
      out.made_here = true;
      return out;
    }
    // batch.get("labels"), encoding.get("attention_mask"): a part.
    if (method == "get") {
      Symbol whole = infer(object, depth + 1);
      if (whole.kind == Kind::batch) return whole;
      if (whole.kind == Kind::encoding && whole.placement == Placement::host) {
        whole.kind = Kind::tensor;
        return whole;
      }
    }
    // Lightning's Model.load_from_checkpoint(path) gives the module on the CPU unless told.
    if (method == "load_from_checkpoint" && m_ff.module_classes.count(std::string(object.text())) > 0) {
      out.kind = Kind::module;
      out.placement = keyword(call, "map_location").valid() ? Placement::unknown : Placement::host;
      return out;
    }
    if (method == "from_pretrained") {
      std::string cls(last_component(m_ff.imports.qualify(object.text())));
      if (cls.find("Tokenizer") != std::string::npos || cls.find("Processor") != std::string::npos) {
        out.kind = Kind::tokenizer;
        return out;
      }
      if (is_hf_model_class(cls)) {
        out.kind = Kind::hf_model;
        // A bitsandbytes-quantised load (quantization_config=, load_in_4bit/8bit=True) puts the weights on
        // the GPU itself.
        const bool quantised = keyword(call, "quantization_config").valid() || keyword(call, "load_in_4bit").valid() ||
                               keyword(call, "load_in_8bit").valid();
        out.placement = keyword(call, "device_map").valid() || keyword(call, "device").valid() || quantised
                            ? Placement::accelerator
                        : has_splat(call) ? splat_device_map(call)
                                          : Placement::host;
        return out;
      }
      return out;
    }
  }
  // torch.cuda.FloatTensor(...), or a name bound to it (`FloatT(...)`): a tensor on the GPU. Only a
  // name, an attribute or a conditional can be such a type: other callees are not inferred again.
  const bool type_like = fn.is(NodeKind::identifier) || fn.is(NodeKind::attribute) ||
                         fn.is(NodeKind::parenthesized_expression) || fn.is(NodeKind::conditional_expression);
  if (type_like && infer(fn, depth + 1).cuda_tensor_type) {
    out.kind = Kind::tensor;
    out.placement = Placement::accelerator;
    out.moved_row = call.row();
    return out;
  }
  std::string q = qualified_callee(call);
  std::string_view last = last_component(q);
  if (q.empty()) return out;
  // torch.autograd.Variable (PyTorch before 0.4) wraps a tensor and keeps its placement.
  if (q == "torch.autograd.Variable" || q == "torch.autograd.variable.Variable") return infer(positional(call, 0), depth + 1);
  if (last == "DataLoader") {
    out.kind = Kind::dataloader;
    for (std::size_t i = 0; i < m_loaders.size(); ++i) {
      if (m_loaders[i].call == call) out.loader = static_cast<int>(i);
    }
    return out;
  }
  if (q == "torch.device") {
    out.kind = Kind::device;
    Node arg = positional(call, 0);
    Symbol inner = infer(arg, depth + 1);
    out.cpu_device = inner.cpu_device;
    out.fallback = inner.fallback;
    out.placement = inner.placement;
    return out;
  }
  if (last == "DataParallel" || last == "DistributedDataParallel") {
    out = infer(positional(call, 0), depth + 1);
    out.kind = Kind::module;  // the wrapper does not move anything: placement is the wrapped module's
    return out;
  }
  bool torch_module_ctor = starts_with_package(q, "torch.nn") && !starts_with_package(q, "torch.nn.functional") &&
                           !starts_with_package(q, "torch.nn.utils") && !starts_with_package(q, "torch.nn.init") &&
                           last != "Parameter" && !last.empty() && last[0] >= 'A' && last[0] <= 'Z';
  const bool project_module = m_ff.project != nullptr && !starts_with_package(q, "torch") &&
                              m_ff.module_classes.count(std::string(last)) == 0 && m_ff.project->is_module_class(last);
  if (torch_module_ctor || m_ff.module_classes.count(q) || project_module || starts_with_package(q, "torchvision.models") ||
      q == "timm.create_model") {
    out.kind = Kind::module;
    out.placement = Placement::host;
    out.weightless = m_ff.weightless_classes.count(q) > 0;
    // A loss is not the model being trained, unless it holds tensors of its own: a loss class of this
    // file that builds parameters or buffers (proxies, centres), or torch's loss given class weights
    // made on the host (`nn.CrossEntropyLoss(weight=torch.tensor([...]))`). Those stay where they
    // were made unless the loss is moved.
    out.is_loss = last.ends_with("Loss");
    // Its own parameters or buffers, not a loss it wraps (`FocalLoss(nn.BCEWithLogitsLoss(...))`).
    if (out.is_loss && m_ff.module_classes.count(q) > 0 && !out.weightless && m_ff.classes_with_own_tensors.count(q) > 0) {
      out.is_loss = false;
    }
    if (out.is_loss && torch_module_ctor) {
      for (std::string_view k : {"weight", "pos_weight"}) {
        Node w = keyword(call, k);
        if (w.valid() && infer(w.field(Field::value), depth + 1).made_on_host()) out.is_loss = false;
      }
    }
    // Built with a device (`Net(..., device=device)`, factory kwargs), or inside `with
    // torch.device(...)`: placed where that says.
    Node dev = keyword(call, "device");
    if (dev.valid()) out.placement = is_cpu_device(dev.field(Field::value)) ? Placement::host : Placement::accelerator;
    if (has_splat(call)) out.placement = Placement::unknown;
    for (Node p = call.parent(); p.valid() && !p.is(NodeKind::function_definition) && !p.is(NodeKind::module); p = p.parent()) {
      if (p.is(NodeKind::with_statement) && p.text().substr(0, p.text().find(':')).find("device") != std::string_view::npos) {
        out.placement = Placement::unknown;
        break;
      }
    }
    return out;
  }
  if (last == "TensorDataset") {
    out.kind = Kind::in_memory_dataset;
    return out;
  }
  const bool torch_direct = is_torch_function(q);
  const bool legacy_ctor = torch_direct && last.size() >= 6 && last.substr(last.size() - 6) == "Tensor";
  if (torch_direct && (one_of(last, k_tensor_factories) || legacy_ctor)) {
    out.kind = Kind::tensor;
    Node dev = keyword(call, "device");
    out.placement = dev.valid() && !is_cpu_device(dev.field(Field::value)) ? Placement::accelerator : Placement::host;
    out.made_here = !dev.valid();
    Node first = positional(call, 0);
    out.sized = last != "tensor" && last != "as_tensor" && last != "from_numpy" && last != "stack" && last != "cat";
    if (last == "tensor" && (first.is(NodeKind::integer) || first.kind() == NodeKind::other || first.is(NodeKind::float_) || first.is(NodeKind::unary_operator))) {
      out.sized = true;
      out.zero_dim = true;
    }
    // torch.tensor(list(d.values())), torch.tensor(sorted(ids)): a sequence, not a number.
    const bool sequence_call = first.is(NodeKind::call) && (first.field(Field::function).text() == "list" ||
                                                            first.field(Field::function).text() == "tuple" ||
                                                            first.field(Field::function).text() == "sorted");
    // torch.tensor(ids) of a name bound to a list here: data as well.
    const Symbol* bound = first.is(NodeKind::identifier) ? lookup(first.text()) : nullptr;
    const bool sequence_name = bound != nullptr && bound->sequence;
    if (last == "tensor" && !first.is(NodeKind::list) && !first.is(NodeKind::tuple) &&
        !first.is(NodeKind::list_comprehension) && !sequence_call && !sequence_name) {
      out.maybe_number = true;
    }
    if (!dev.valid() && has_splat(call)) {  // **factory_kwargs may carry the device
      out.placement = Placement::unknown;
      out.made_here = false;
    }
    // torch.stack/cat of tensors that are somewhere else: placed like them; of tensors all made here
    // on the host, made here on the host.
    if ((last == "stack" || last == "cat") && !dev.valid()) {
      out.placement = Placement::unknown;
      out.made_here = false;
      if ((first.is(NodeKind::list) || first.is(NodeKind::tuple)) && first.named_count() > 0) {
        bool all_host = true;
        for (std::uint32_t i = 0; i < first.named_count() && all_host; ++i) all_host = infer(first.named(i), depth + 1).made_on_host();
        if (all_host) {
          out.placement = Placement::host;
          out.made_here = true;
          out.sized = true;
        }
      }
    }
    return out;
  }
  if ((torch_direct && one_of(last, k_tensor_functions)) || starts_with_package(q, "torch.nn.functional")) {
    Symbol first = infer(positional(call, 0), depth + 1);
    if (first.kind == Kind::tensor) {
      out = first;
      out.row = -1;
      return out;
    }
  }
  if (starts_with_package(q, "torch.optim") && !last.empty() && last[0] >= 'A' && last[0] <= 'Z') {
    out.kind = Kind::optimizer;
    return out;
  }
  if (starts_with_package(q, "sklearn") && one_of(last, k_cuml_estimators)) {
    out.kind = Kind::sklearn_estimator;
    return out;
  }
  if (q == "transformers.pipeline") {
    out.kind = Kind::pipeline;
    return out;
  }
  // In a classmethod of an nn.Module class of this file, `cls(...)` builds that module (on the CPU)
  // and `cls.construct(...)` another of its factories: a module, wherever that factory puts it.
  if (!m_classes.empty() && m_ff.module_classes.count(m_classes.back()) > 0 &&
      (fn.text() == "cls" || (fn.is(NodeKind::attribute) && fn.field(Field::object).text() == "cls"))) {
    out.kind = Kind::module;
    out.placement = fn.text() == "cls" ? Placement::host : Placement::unknown;
    return out;
  }
  // A method of a plain class of this file called on an instance of it (`envs.reset()`), whose return
  // is known.
  if (fn.is(NodeKind::attribute) && fn.field(Field::object).is(NodeKind::identifier)) {
    if (const Symbol* obj = lookup(fn.field(Field::object).text()); obj != nullptr && obj->instance_of >= 0) {
      auto r = m_returns.find(m_instance_classes[static_cast<std::size_t>(obj->instance_of)] + "." +
                              std::string(fn.field(Field::attribute).text()));
      if (r != m_returns.end()) {
        out = r->second;
        out.built_row = r->second.row;
        out.built_column = r->second.column;
        out.row = out.column = -1;
        out.reported = false;
        return out;
      }
    }
  }
  // A function of this file (or a method of this class, `self.encode`) whose return is known.
  if (fn.is(NodeKind::identifier) || (fn.is(NodeKind::attribute) && fn.text().starts_with("self."))) {
    auto r = m_returns.find(std::string(fn.text()));
    if (r != m_returns.end() && lookup(fn.text()) == nullptr) {
      out = r->second;
      out.built_row = r->second.row;
      out.built_column = r->second.column;
      out.row = out.column = -1;
      out.reported = false;
      return out;
    }
    // A function whose every return is a tensor (`return torch.from_numpy(a).float() / 255`): a
    // tensor, wherever it is.
    const std::string key(fn.text());
    if (auto k = m_return_kinds.find(key);
        r == m_returns.end() && k != m_return_kinds.end() && k->second == k_returns_tensor && lookup(fn.text()) == nullptr) {
      out.kind = Kind::tensor;
      return out;
    }
    // A function imported from another file of the project that builds a module and returns it
    // without placing it (`from models import build_model`): the module is on the CPU here.
    if (fn.is(NodeKind::identifier) && r == m_returns.end() && m_return_kinds.count(key) == 0 &&
        lookup(fn.text()) == nullptr && m_ff.project != nullptr && m_ff.imports.qualify(key) != key &&
        m_ff.project->returns_module_on_host(key)) {
      out.kind = Kind::module;
      out.placement = Placement::host;
      return out;
    }
  }
  // Calling a module gives its output, placed where the module is; a tokenizer asked for PyTorch
  // tensors makes them on the CPU.
  if (fn.is(NodeKind::identifier) || fn.is(NodeKind::attribute)) {
    const Symbol* callee = lookup(fn.text());
    // A model passed in (a parameter), called with a tensor on the device: its output is there too.
    if (callee != nullptr && callee->is_parameter && callee->kind == Kind::unknown) {
      Node first = positional(call, 0);
      Symbol in = first.valid() ? infer(first, depth + 1) : Symbol{};
      if ((in.kind == Kind::tensor || in.kind == Kind::batch) && in.placement == Placement::accelerator) {
        out.kind = Kind::tensor;
        out.placement = Placement::accelerator;
        return out;
      }
    }
    // A data collator (`self.collator([ids])`, `data_collator(features)`, `collate_fn(items)`) makes
    // its batch of tensors on the CPU.
    if (callee == nullptr || callee->kind == Kind::unknown) {
      auto name = last_component(fn.text());
      if ((name == "collator" || name == "data_collator" || name == "collate_fn" || name == "collate") &&
          !m_ff.framework_moves_batches) {
        out.kind = Kind::encoding;
        out.placement = Placement::host;
        out.made_here = true;
        return out;
      }
    }
    if (callee != nullptr && callee->kind == Kind::tokenizer && string_value(keyword(call, "return_tensors").field(Field::value)).value_or("") == "pt") {
      out.kind = Kind::encoding;
      out.placement = Placement::host;
      out.made_here = true;
      return out;
    }
    if (callee != nullptr && (callee->kind == Kind::module || callee->kind == Kind::hf_model)) {
      // On an accelerator if the module is; otherwise unknown: a loss module has no parameters and
      // its output lives where its inputs do.
      out.kind = Kind::tensor;
      out.placement = callee->placement == Placement::accelerator ? Placement::accelerator : Placement::unknown;
    }
  }
  if (out.kind == Kind::unknown && !last.empty() && last[0] >= 'A' && last[0] <= 'Z' && lookup(fn.text()) == nullptr) {
    out.object_ctor = true;
  }
  return out;
}

}  // namespace gpudoctor::scan
