// Private to src/scan/analyzer*.cpp: the dataflow pass as a class, split over three files by
// concern: analyzer.cpp (the walk, scopes, loops, bindings, end-of-file rules), analyzer_calls.cpp
// (what each call means to the rules), analyzer_infer.cpp (what an expression holds).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include <facts/finding.hpp>
#include <scan/analyzer.hpp>
#include <scan/file_facts.hpp>
#include <scan/rules.hpp>
#include <scan/source.hpp>
#include <scan/symbols.hpp>
#include <scan/syntax.hpp>

namespace gpudoctor::scan {

// Whether `text` moves `name`: `name.to(`, `name.cuda(`, or binds it to a moved value
// (`name = Net().cuda()`; with `device_word`, any value that names a device).
bool name_moved_in(std::string_view text, std::string_view name, bool device_word);

// The text of the `def` that starts at byte `def_at` of `text`: up to the next line indented no
// deeper than the def (blank and comment lines do not end it).
std::string_view def_body(std::string_view text, std::size_t def_at);

struct LoopState {
  std::uint32_t start_byte = 0;
  int row = 0;
  bool step = false;             // the loop calls backward() directly: one iteration is one step
  bool binds_batches = false;    // its targets are batches from a loader
  int moved_row = -1;            // a part of its batch was moved to a device here
  std::string source;            // the iterable's text, for messages
  int loader = -1;               // the DataLoader record it iterates, or -1
  bool model_called = false;     // a model is called in its body
  bool non_blocking = false;     // a part of its batch is moved with non_blocking=True
  // Binds batches only because a step loop of the file iterates the same name: judged only when a
  // caller hands its function a model it moved (`model.cuda(); score(model, batches)`).
  std::string same_source_function{};
};

struct LoaderRecord {
  Node call;
  bool workers_unset_or_zero = false;
  bool pin_memory = false;
  bool opaque = false;           // **kwargs: we cannot know the options
  bool collate = false;          // collate_fn: may already place batches on the device
  bool fed_gpu_loop = false;     // a loop over it moves its batches or calls a model, in a file that uses a device
  bool in_memory = false;        // its dataset is a TensorDataset: nothing to load or decode
  bool non_blocking_copies = false;  // a loop over it moves batches with non_blocking=True
};

struct Candidate {
  Node at;
  std::string name;
};

class Analyzer {
 public:
  Analyzer(const SourceText& src, Node root, FileFacts facts) : m_src(src), m_root(root), m_ff(std::move(facts)) {}
  FileAnalysis run();

 private:
  // analyzer.cpp
  Descend enter(Node n);
  void leave(Node n);
  void enter_function(Node n);
  void enter_for(Node n);
  void enter_if(Node n);
  void on_assignment(Node n);
  void on_augmented_assignment(Node n);
  void on_expression_statement(Node n);
  void bind(Node target, Symbol value, Node at);
  void bind_pattern(Node pattern, const std::vector<Symbol>& values);
  void finish();
  void check_env_assignment(std::string_view var, Node value, Node at);
  void check_load_without_map_location(Node call);
  void check_cuda_ignores_device(Node call, std::string_view method);
  void check_cuda_keyword_ignores_device(Node call);
  bool numpy_array_here(std::string_view name) const;
  const std::string& chosen_device_here();
  void report_cuda_ignoring(Node call, Node object, const std::string& chosen);
  void check_env_magic(const Magic& m);

  // analyzer_calls.cpp
  void on_call(Node call);
  // `functional`: a torch.nn.functional call (a loss), checked on batch evidence only.
  void on_module_call(Node call, const Symbol& callee, std::string_view callee_name, bool functional = false);
  void check_batch_argument(Node arg, const Symbol& callee, std::string_view callee_name);
  void on_method_call(Node call, Node object, std::string_view method);
  void collect_announced(Node args);
  // hardcoded_cpu at the binding of `dev` when it is a CPU device a model is placed on.
  void report_cpu_device(Node dev, Node object, Node call);
  void touch_cuda(Node at);

  // Structure around a node, up to its function (analyzer.cpp).
  // A branch of an if/elif/else, a conditional expression or an except clause: what runs there is
  // a choice (a user's --device cpu, a fallback), not a pin.
  bool under_choice(Node at) const;
  // The condition that decides the branch `p` is (an if or elif, the if an else answers, a conditional
  // expression); an invalid node for anything else.
  Node branch_test(Node p) const;
  // An except clause, or a branch of a test that reads a version (`if TORCH_GE_2_4`, hasattr(torch,
  // "amp"), packaging.version...): compatibility code for other releases.
  bool under_version_guard(Node at) const;
  // Between `at` and its innermost loop, an if that runs once (`if len(state) == 0:`, `if x is
  // None:`, `if not initialised:`), or a function that runs once per object (__init__).
  bool runs_once_per_loop(Node at) const;
  // The innermost enclosing function's name ("" at module level), and whether it is a method of an
  // nn.Module subclass defined in this file.
  std::string_view function_name() const;
  bool in_module_method() const;
  // forward() of a module, or forward/backward of an autograd.Function: runs at every step.
  bool in_forward() const;

  // The rules about modules' structure and tensors' devices inside functions (analyzer_structure.cpp).
  void on_return(Node n);
  void check_host_factory_in_placing_function(Node a, Node b, Node op);
  void check_host_module_output(Node a, Node b, Node op);
  void check_host_return_in_placing_class(Node value);
  void check_return_of_mapped_load(Node value);
  void check_module_attribute(Node left, Node right, Symbol& value);
  void check_tensor_attribute(Node left, Node right, const Symbol& value);
  void check_accumulator(Node target, Node value, Node at);
  void check_module_ctor(Node call, std::string_view q);
  void check_local_module_called_at_once(Node call, std::string_view q);
  void check_host_factory(Node call, std::string_view q);
  // `torch.tensor(v, dtype=x.dtype)` without device=: the input's dtype copied, its device forgotten.
  void check_dtype_without_device(Node call, std::string_view q);
  // `x = x.cpu()` of forward()'s own input: every call copies it to the host.
  void check_forward_input_to_host(Node left, Node right);
  // `masks = torch.zeros(n, 1, device=device)` before a loop, `masks = torch.FloatTensor(...)` in it:
  // from the next iteration on, what reads it gets a CPU tensor.
  void check_rebound_to_host(Node left, Node right, const Symbol* old, const Symbol& value);
  // `if torch.cuda.device_count() > 1: model = nn.DataParallel(model); model.cuda()`: one GPU, no move.
  void check_multi_gpu_only_move(Node call);
  // `state["acc"] = torch.zeros(shape)` in an Optimizer's step(): state made on the CPU for a parameter
  // that may be on the GPU.
  void check_optimizer_state_factory(Node call, std::string_view q);
  // `batch = next(iter(self.trainer.val_dataloaders))` in a LightningModule hook: Lightning moves the
  // batches it hands to the *_step methods, not one fetched by hand.
  void check_hand_fetched_batch(Node left, Node source);
  // `self.model(inputs)` in the methods of a plain class (a trainer): one method moves its input
  // first (`inputs = self._prepare_inputs(inputs)`), another hands its own straight to the model.
  struct SelfModelCall {
    std::string method;
    std::string callee;
    std::string arg;
    int row = -1, column = -1;
    std::uint32_t body_start = 0, body_end = 0;  // the method's bytes
    bool moved = false;
    bool raw_param = false;
  };
  std::vector<SelfModelCall> m_self_model_calls;  // of the innermost class
  std::vector<std::size_t> m_self_model_marks;    // where each open class's records start
  void note_self_model_call(Node call);
  void check_self_model_calls();
  // A plain class that moves its inputs to self.device and runs them through self.model, which it
  // keeps as given and never moves, in a file whose callers hand it an unmoved model.
  void check_class_model_unmoved();
  void check_joined(Node call, std::string_view q);
  void note_list_append(Node call);
  void check_trained_together();
  void check_host_input_to_self_moved_module(Node call);
  bool built_by_class_method(int row, std::string_view name) const;
  void check_mixed_call(Node call, std::string_view q);
  // `torch.isin(tokens, ids)` in a module's method, with `ids` made here on the host from data
  // (torch.tensor(list(...))) and `tokens` the method's input: the two meet on two devices.
  void check_host_operand(Node call, std::string_view q);
  void check_binary(Node op);
  // `table[idx]` with `table` made here on the host and `idx` on the device: the lookup fails
  // ("indices should be either on cpu or on the same device as the indexed tensor").
  void check_host_indexed_by_device(Node subscript);
  // `self.mask = None` in a module's __init__, then `self.mask = <tensor on the input's device>` in a
  // method under a test that is not about devices: a plain attribute caching the first call's device.
  void check_lazy_cache_attribute(Node left, Node right);
  void check_set_device_of_fallback(Node call);
  void check_cuda_flag_default(Node call, std::string_view name);
  // Top-level functions of the file whose `cuda=True` flag guards .cuda() moves: name -> (flag, index).
  std::optional<std::unordered_map<std::string, std::pair<std::string, std::uint32_t>>> m_cuda_flag_helpers;
  std::unordered_set<std::string> m_lazy_cache_reported;
  // (class start, attribute) -> where `self.attr = None` is in the class text (npos: none, or handled).
  std::map<std::pair<std::uint32_t, std::string>, std::size_t> m_lazy_cache_declared;
  std::optional<bool> m_file_moves_by_override;  // the file defines _apply() or to()
  std::unordered_map<std::uint32_t, bool> m_function_names_device;  // function start -> its text says "device"
  Node inline_host_factory(Node e);
  Node inline_host_data_factory(Node e);
  bool is_cuda_tensor_type(Node expr) const;
  bool runtime_helper(Node call);
  // A factory result bound to a name that the function later joins with what it computes from its
  // inputs: torch.cat/stack beside other tensors, or a submodule called with it (`self.emb(token)`).
  // (Values stored into it, `rhs[:, i] = ...`, copy across devices silently: not a join.)
  bool joined_later(Node call) const;
  void index_name_uses(Node fn) const;
  bool moved_later_by_name(Node call) const;
  // Moved as soon as it is made, maybe after a reshape (`torch.zeros(n).view(1, -1).to(x.device)`), or
  // made as an argument of a call that also gets a device (`to_device(torch.ones(n), x.device)`).
  static bool moved_as_made(Node call);
  // The 0-based row and column of a byte of the file, and the text of a row.
  std::pair<int, int> position_of(std::size_t byte) const;
  std::string_view row_text(int row) const;
  bool mentions_parameter(Node expr);
  bool registers_by_hand(Node at);  // its function calls add_module() or setattr(self, ...)
  // Some file of the scan names CUDA: helpers in files that place nothing themselves (losses.py)
  // still run on the GPU.
  bool gpu_project() const;
  bool gpu_code() const;
  bool plain_number(Node expr, int depth = 0);
  void check_dropped_device_argument(Node call);
  // In a function of the file (not a method) that a forward() or a *_step() method calls by name:
  // it runs where the module runs.
  bool called_from_forward() const;
  // A plain function of the file that forward() runs, directly or through others, and whose result
  // its caller uses as made (FileFacts::forward_helpers_unmoved).
  bool forward_helper() const;
  // A method of a module that runs the module itself (`self.forward(x)`, `self(x)`): sample(),
  // generate(), predict(). Its tensors meet the module's as forward()'s do.
  bool runs_own_forward() const;
  // The class whose method the innermost function is (through a decorator), or an invalid node.
  Node enclosing_class() const;
  std::optional<bool> forward_moves_result(std::string_view name, bool own_line_only = false) const;
  bool moves_after(Node call) const;
  mutable std::pair<std::uint32_t, std::size_t> m_last_move{~0u, 0};  // (function's start byte, offset after its last move)
  bool compared_on_host(Node call) const;
  bool joined_with_parameter(Node call);
  int m_joined_with_parameter_checks = 0;
  mutable std::pair<std::uint32_t, bool> m_runs_own_forward{~0u, false};  // (method's start byte, answer)
  bool called_with_moved_model(std::string_view function) const;
  // In a method (not __init__) of a class that is not an nn.Module: `self.` state outlives the call.
  bool state_method() const;
  // The class keeps a device (`self.device = ...`): it means its tensors to live there.
  bool class_holds_device() const;
  // A Dataset's items, a collate function, initialisation, checkpoint conversion: host-side code.
  bool in_host_side_function() const;
  // Binds a name as (a part of) a batch that loop `loop` yields.
  void bind_batch(Node name, int loop);  // its __init__ calls add_module() or setattr(self, ...)  // an identifier of a parameter or a value computed from one
  bool mentions_input_shape(Node expr);  // x.shape / x.size() / x.numel() of such a value, or a size computed from one

  // `if a: x = Net(); x.to(dev) else: x = Net.from_pretrained(p)`: moved in one branch only, and
  // never after (analyzer_structure.cpp).
  void check_one_branch_moved(Node if_statement);
  void check_branch_host_factory(Node if_or_conditional);
  Node host_made_value(Node v);
  Node host_round_trip_source(Node data);
  void check_literal_cpu_device_argument(Node call);
  void check_factory_sized_from_sibling_argument(Node call, std::string_view q);
  void check_tensor_from_device_values(Node call, std::string_view q);
  bool all_host_factories(Node join);
  bool device_side_value(Node v);
  // A helper that moves tensors, tuples and dicts to a device and returns anything else as it is:
  // a list of tensors passes through on the CPU (analyzer_structure.cpp).
  void check_container_mover(Node function);
  // The class of the last `name = Cls(...)` before `before` in the enclosing function; empty if none.
  bool bound_by_tensor_method(std::string_view name, Node before) const;
  std::string constructed_class(std::string_view name, Node before) const;

  // analyzer_infer.cpp
  Symbol infer(Node expr, int depth = 0);
  Symbol infer_call(Node call, int depth);
  bool is_fallback_conditional(Node cond) const;
  bool is_cpu_device(Node expr);
  bool moves_to_accelerator(Node call, std::string_view method);  // .to(...) / .cuda(...)
  Node keyword(Node call, std::string_view name) const;
  bool has_splat(Node call) const;
  void check_optimizer_state_before_move(Node call, Node optimizer);
  void check_optimizer_loaded_by_helper(Node call);
  void check_class_device_ignored();
  // The module moved in `after` (text following a load) whose parameters `before` hands to an
  // optimizer, while it is on the CPU: its name and the row of the move.
  std::optional<std::pair<std::string, int>> module_moved_after(std::string_view before, std::string_view after,
                                                                int after_row);
  // `"cuda" if x.is_cuda else "cpu"`: the default GPU, not x's.
  void check_default_gpu_from_input(Node conditional);
  void check_is_available_not_called(Node attribute);
  // The same, for a probe function of this file (`def has_mps(): ...`, then `if has_mps:`).
  void check_probe_function_not_called(Node identifier);
  void report_function_tested(Node function);  // when `function` (a name or an attribute) is a truth value
  std::unordered_map<std::string, bool> m_probe_functions;  // name -> a module-level def, never rebound
  bool check_plain_parameters(Node container, std::string_view name);
  void check_optimizer_built_before_move(Node call, std::string_view q);
  bool check_parameter_made_after_init(Node left, Node right);
  void check_store_into_plain_container(Node left, Node right);
  // `name.requires_grad = True` / `name.requires_grad_()` at `at`, of a tensor made here without a device.
  void check_trainable_on_host(Node name, Node at);
  // The row of `.to(self.<...device...>)` in the current class (its methods move inputs to the
  // model's device), or -1; only for a callee `self.x`.
  int class_moves_inputs_to_device(std::string_view callee_name) const;
  // Where from_pretrained(**kwargs) puts the model: accelerator when the dict is seen to get a
  // device_map, unknown otherwise.
  Placement splat_device_map(Node call) const;
  // A torch factory that makes a tensor from sizes (torch.zeros, torch.arange, ...) called without
  // device= and without **kwargs that could carry one: the tensor is made on the CPU.
  bool unplaced_sized_factory(Node call, std::string_view q) const;
  Node positional(Node call, std::uint32_t index) const;
  std::string qualified_callee(Node call) const;

  // Names
  Symbol* lookup(std::string_view name);
  Scope& scope_for(std::string_view name);
  bool in_step_loop() const;
  // In a step loop whose own function (or module-level code) places work on a device: a sync in a
  // CPU-only test helper of a file that uses the GPU elsewhere is not a GPU stall.
  bool in_gpu_step_loop() const;
  bool in_loop() const { return !m_loops.empty(); }
  std::string snippet(Node n, std::size_t max = 60) const;
  bool bound_for_host(Node n) const;
  facts::Finding& emit(RuleId id, Node at, std::string message, std::vector<std::string> evidence = {},
                       std::string fix = {});
  facts::Finding& emit_at(RuleId id, int row, int column, std::string message, std::vector<std::string> evidence,
                          std::string fix);
  std::string where(int row) const;
  std::string_view line_of(int row) const;  // the source line at a 0-based row  // "line 12" or "cell 3, line 4"

  const SourceText& m_src;
  Node m_root;
  FileFacts m_ff;
  std::vector<Scope> m_scopes;
  std::vector<LoopState> m_loops;     // the enclosing loops, innermost last
  std::vector<LoopState> m_all_loops; // every loop that bound batches, indexed by Symbol::loop
  std::vector<int> m_loop_index;      // m_loops[i] -> index into m_all_loops, or -1
  std::vector<std::uint32_t> m_functions;  // start bytes of the enclosing function definitions
  std::vector<std::string> m_classes;      // names of the enclosing class definitions
  std::vector<Node> m_class_nodes;         // the same class definitions
  std::vector<Node> m_function_nodes;      // the enclosing function definitions
  std::unordered_map<std::string, Symbol> m_returns;  // what a function of this file returns
  std::unordered_set<std::string> m_returns_other;     // functions with a return of something else
  // What the returns of a function of this file are: k_returns_tensor and/or k_returns_nontensor.
  static constexpr unsigned k_returns_tensor = 1, k_returns_nontensor = 2;
  std::unordered_map<std::string, unsigned> m_return_kinds;
  std::unordered_map<std::string, Node> m_plain_lists;  // self.x = [] / {} in a module's __init__
  int m_self_moved_row = -1;               // self.cuda() / self.to(device) in the current __init__
  // A batch that reaches a model unmoved in a loop that moves nothing: reported at the end when
  // another loop of the file moves its batches (the training loop does, the evaluation loop not).
  struct UnmovedBatch {
    Node arg;
    std::string callee;
    int loop = -1;
    bool evaluation = false;  // its function or its loader is named for evaluation (eval, val, test, predict)
    std::string function;     // the function the loop is in, when the model called is one of its parameters
  };
  std::vector<UnmovedBatch> m_unmoved_batches;
  bool m_self_move_reported = false;
  enum class AttributeMove : std::uint8_t { never, handled, at_run_time };
  // self.x -> whether a line moves it (or names a device beside it): where it is made, or elsewhere
  std::unordered_map<std::string, AttributeMove> m_attribute_moved;
  std::unordered_map<std::string, int> m_attribute_move_row;
  std::unordered_set<std::string> m_attribute_reported;  // attributes reported as copied at run time  // self.x -> the first line elsewhere that moves it
  std::unordered_map<std::uint32_t, bool> m_registers_by_hand;  // function start byte -> add_module()/setattr
  std::unordered_map<std::string, bool> m_called_in_loop;    // function name -> some loop calls it
  int m_periodic_ifs = 0;             // enclosing `if step % N == 0:` guards
  std::vector<LoaderRecord> m_loaders;
  std::vector<Candidate> m_fallbacks;
  std::vector<std::pair<Node, std::uint32_t>> m_cpu_map_locations;  // with the function they are in
  std::unordered_set<std::uint32_t> m_state_loaded_in;  // functions that load_state_dict() into a local module
  // `model.load_state_dict(torch.load(p, map_location=device))` into a local module: name -> the
  // load call, per function start byte (a return of that module never moved is a finding).
  std::unordered_map<std::uint32_t, std::unordered_map<std::string, Node>> m_mapped_loads;
  // Functions (start byte) that make a tensor with device=<not the CPU>: the row of the first such factory.
  std::unordered_map<std::uint32_t, int> m_device_factory_row;
  std::unordered_map<std::string, int> m_class_device_factory_row;  // the same, per class of the file
  // Module classes of this file whose forward() or __call__() returns a tensor made on the host:
  // class name -> where that tensor is made (row, column).
  std::unordered_map<std::string, std::pair<int, int>> m_class_host_returns;
  std::unordered_set<std::string> m_host_output_reported;
  // moved_later_by_name: for the function that starts at m_name_uses_function, the end offsets (in
  // its text) of the whole-word uses of each name.
  mutable std::uint32_t m_name_uses_function = UINT32_MAX;
  mutable std::unordered_map<std::string_view, std::vector<std::size_t>> m_name_uses;
  std::unordered_map<std::uint32_t, bool> m_class_moves_self;  // class start -> self.to(device) / self.cuda() in it
  std::map<std::pair<std::uint32_t, std::string>, bool> m_class_member_callable;  // (class, name) -> a method or nn submodule
  std::map<std::pair<std::uint32_t, std::string>, std::string> m_attribute_class;  // (class, attr) -> Cls of `self.attr = Cls(...)`
  // Per function (start byte): the chosen device it uses, "" when none (code.cuda_ignores_device).
  std::unordered_map<std::uint32_t, std::string> m_chosen_device;
  std::unordered_map<std::uint32_t, std::string> m_followed_device;  // function start byte -> `x.device` it allocates on
  std::unordered_map<std::uint32_t, int> m_optimizer_checks;  // function start byte -> optimizer constructors read
  std::unordered_map<std::uint32_t, bool> m_placed_module_classes;  // class start byte -> it reads self.device or moves values
  // Per scope (class, function or file, by offset) for check_model_beside_unused_device: the GPU device it
  // chose and never reads, "" when none or once reported.
  std::unordered_map<std::ptrdiff_t, std::string> m_unused_device;
  // Read once per file for code.load_without_map_location: the first "cpu" of the code (npos when
  // none), and the argument lists of its torch.save calls.
  std::optional<std::size_t> m_first_cpu_literal;
  std::optional<std::vector<std::string_view>> m_save_spans;
  std::optional<bool> m_notebook_saves;  // a notebook that writes checkpoints
  int m_first_cpu_row = -1;
  std::unordered_set<std::string> m_announced;  // names printed, logged, asserted or warned about
  bool m_module_on_accelerator = false;
  bool m_state_loaded = false;  // load_state_dict() into a module symbol somewhere
  int m_first_module_row = -1;
  Node m_first_module;
  std::string m_first_module_name;
  bool m_first_module_is_self = false;
  // The module whose parameters() or train() is called: the model a training loop trains.
  std::string m_trained_module_name;
  int m_trained_module_row = -1, m_trained_module_column = -1;  // where it was bound
  int m_module_used_in_loader_loop_row = -1;
  FileAnalysis m_out;
  std::vector<std::pair<int, int>> m_positions;  // (row, column) of each finding in m_out, for ordering
  // Tensors made without a device inside a plain function of this file: dropped at the end when
  // every call of that function in the file passes host values only (a toy loss timed on CPU
  // tensors). Finding index -> function name; function name -> whether all calls were host-only.
  std::vector<std::pair<std::size_t, std::string>> m_made_in_plain_function;
  // Factories reported in a function forward() runs (finding index, the function's first and last
  // row), and the rows of helper factories whose result a caller was reported joining: a helper
  // whose host result is reported where it is joined is not reported again inside.
  std::vector<std::tuple<std::size_t, int, int>> m_helper_route_findings;
  std::vector<int> m_joined_built_rows;
  std::unordered_map<std::string, bool> m_calls_host_only;
  std::unordered_set<std::size_t> m_dropped;
  std::unordered_set<std::uint32_t> m_inline_reported;  // start bytes of factory calls already reported
  // Lists a function fills with append(): the first tensor appended that was made on the host here
  // (a factory written in the call), and whether a value computed from the inputs went in too.
  struct ListFeed {
    std::uint32_t host_byte = 0;
    int host_row = -1, host_column = -1;
    std::string host_text;
    bool input = false;
    bool reported = false;
    void note_host(std::uint32_t byte, int row, int column, std::string text) {
      host_byte = byte;
      host_row = row;
      host_column = column;
      host_text = std::move(text);
    }
  };
  std::map<std::pair<std::uint32_t, std::string>, ListFeed> m_list_feeds;  // (function start byte, list name)
  // What a function returns at each position of its result: a constant made on the host
  // (`return torch.tensor(0.0)` in a degenerate branch) and, in another return, a value computed
  // from the inputs at the same position. On a GPU the two branches give tensors on two devices.
  struct ReturnFeed {
    Node host;              // the first host constant returned (or bound to a name returned)
    int host_position = -1;
    std::set<int> input_positions;
    bool reported = false;
  };
  std::unordered_map<std::uint32_t, ReturnFeed> m_return_feeds;  // function start byte
  // Names a function binds to a host constant, and names it binds to a value from its inputs.
  std::map<std::pair<std::uint32_t, std::string>, Node> m_constant_bound;
  std::set<std::pair<std::uint32_t, std::string>> m_input_bound;
  // `e` under casts, when it is a torch factory of literal values without device= (torch.tensor(0.0),
  // torch.zeros(1)); an invalid node otherwise.
  Node host_constant(Node e) const;
  void note_constant_binding(Node name, Node value, const Symbol& symbol);
  void check_return_feed(Node value);
  // Names whose .parameters() the current function reads (the modules it trains), innermost function last.
  std::vector<std::vector<std::pair<std::string, int>>> m_trained;
  void note_plain_function_call(Node call);
  // A module handed to a plain class's __init__ and kept as `self.X = param`, then called with
  // device tensors in the class's methods: reported at the end when every construction of the
  // class in this file hands it a module that was never moved, and the class never moves it.
  struct HandedModule {
    std::string cls, attr, param;
    int index = -1;  // the parameter's position after self
    int row = -1, column = -1;
    std::uint32_t cls_begin = 0, cls_end = 0;
  };
  // What a constructor call hands over: a module known never to be moved, or (for a class this
  // file does not define) a fresh object `Net(...)` that nothing moved.
  struct Handed {
    Symbol symbol;
    bool fresh_object = false;
  };
  struct CtorCall {
    std::string cls;
    std::vector<Handed> positional;
    std::vector<std::pair<std::string, Handed>> keywords;
  };
  std::vector<HandedModule> m_handed;
  std::set<std::pair<std::string, std::string>> m_attr_fed_device;  // (class, attribute)
  std::vector<CtorCall> m_ctor_calls;
  struct FedParameter {
    int row = 0;
    std::string arg;  // the device tensor it was called with
  };
  std::map<std::pair<std::string, int>, FedParameter> m_param_fed_device;  // (function, parameter index)
  // (function, parameter index) -> the first of its parameters it calls that model parameter with
  // (`def one_batch(model, data): model(data)`): fed the device when the caller hands it device data.
  struct FedByParameter {
    int row = 0;
    int index = 0;     // the data parameter's index
    std::string name;  // and its name
  };
  std::map<std::pair<std::string, int>, FedByParameter> m_param_fed_param;
  struct HandedModel {
    std::string function;
    int index = 0;
    Node arg;
    int row = 0, column = 0;  // where the model was built (or the argument, when unknown)
    std::map<int, std::string> device_args;  // positional arguments of the same call on the device
  };
  std::vector<HandedModel> m_handed_models;  // host models handed to a function of this file
  // A call of a plain function of this file that hands it a model on the device and a tensor on the
  // host: the arguments by position and by keyword name.
  struct HandedInputs {
    std::string function;
    std::map<int, Node> host_positional, model_positional;
    std::map<std::string, Node> host_keywords, model_keywords;
  };
  std::vector<HandedInputs> m_handed_inputs;
  // Plain functions of this file: their parameter names, and the (model, input) parameter pairs
  // they run as `model(input...)` (`def generate(model, idx): ... model(idx[:, -n:])`).
  std::unordered_map<std::string, std::vector<std::string>> m_plain_params;
  std::unordered_map<std::string, std::vector<std::pair<std::string, std::string>>> m_param_model_inputs;
  void note_parameter_model_call(Node call);
  // `q = tokenizer(texts)` then `model(**q)` unmoved, in a file where another line moves what
  // `tokenizer(...)` returns (`{k: v.to(dev) for k, v in tokenizer(docs).items()}`): (argument, callee).
  std::vector<std::pair<Node, std::string>> m_unmoved_encodings;
  int m_encoding_checks = 0;
  // (function's start byte, parameter name) -> the function moves that parameter itself.
  std::map<std::pair<std::uint32_t, std::string>, bool> m_param_moves_itself;
  void note_unmoved_encoding_call(Node call);
  void report_unmoved_encodings();
  void report_host_inputs_handed_with_device_model();
  int parameter_index(std::string_view name) const;
  // The same in the parameters of `function`, a function definition; -1 when it has none of that name.
  static int parameter_index(Node function, std::string_view name);
  std::unordered_set<std::string> m_class_names;
  std::vector<std::string> m_instance_classes;  // Symbol::instance_of -> the class's name
  // `self.model(ids)` / `self.model.generate(ids)` with `ids` made here on the host: judged at the end,
  // against what the constructions of the class hand over (a model on the device: inputs_not_moved).
  struct HostFeed {
    std::string cls, attr, arg;
    int row = -1, column = -1;  // where `arg` was made
  };
  std::vector<HostFeed> m_host_feeds;
  void note_host_feed(std::string_view callee_name, Node call);
  void check_host_input_to_moved_model_method(Node call, Node object, std::string_view method);
  void check_loss_operands(Node call, std::string_view q);
  bool from_model_output(Node e);
  void check_submodule_swapped_after_move(Node statement, Node left, Node right, const Symbol& value);
  void check_model_beside_unused_device(Node left, Node right, const Symbol& value);
  int m_swap_checks = 0;
  std::unordered_map<std::string, bool> m_method_moves_input;  // a model method of the file moves its input
  void check_numpy_of_device_tensor(Node call, Node data);
  bool own_weight_of_placed_module(Node e);
  void note_handed_module(Node left, Node right);
  // What construction c hands to h's parameter, by keyword or by position; nullptr when nothing.
  static const Handed* handed_argument(const CtorCall& c, const HandedModule& h);
  void report_handed_modules();
  void check_script_model_left_on_host();
};

}  // namespace gpudoctor::scan
