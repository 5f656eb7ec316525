// FileFacts: what one pass over a whole file establishes before the dataflow pass reads it in
// program order: the imports, which classes are torch modules (following base classes defined in
// the same file), which loops are training step loops (the innermost loop around a backward() call),
// and file-wide facts (does anything place work on a device? is mixed precision used anywhere?).
// Rules that depend on "somewhere in this file" read these, so their answer does not depend on
// whether the fact comes before or after the line being looked at.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <scan/imports.hpp>
#include <scan/project_index.hpp>
#include <scan/syntax.hpp>

namespace gpudoctor::scan {

inline constexpr std::uint32_t k_module_level = 0xffffffffu;

// A function of the file whose parameter chooses the device and defaults to the CPU
// (`def open_archive(path, cuda_device=-1)`, `def predict(model, x, gpus=None)`).
struct DeviceParameter {
  std::string name;        // cuda_device
  int index = -1;          // its position among the parameters (self included)
  std::string default_text;  // -1
};

// `opt.load_state_dict(...)` on a parameter of a top-level function of the file (a resume helper).
struct OptimizerLoad {
  std::string name;  // optm
  int index = -1;    // its position among the parameters
  int row = -1;      // the load_state_dict call
  int column = -1;
};

struct FileFacts {
  ImportTable imports;
  // Names of nn.Module subclasses defined here, and of classes of other bases with forward() whose
  // __init__ assigns torch layers to self (a library's extractor or policy class).
  std::unordered_set<std::string> module_classes;
  // Classes deriving straight from nn.Module whose __init__ builds no layer, parameter or buffer (an
  // RPC stub that forwards its input elsewhere): they have no device of their own.
  std::unordered_set<std::string> weightless_classes;
  // Classes of this file whose body makes an nn.Parameter or registers a buffer: tensors of their own.
  std::unordered_set<std::string> classes_with_own_tensors;
  // Classes of this file whose cpu(), cuda() or to() returns a new object instead of moving in place
  // (a container of tensors): `obj.cpu()` alone throws the copy away, as with a tensor.
  std::unordered_set<std::string> copying_movers;
  std::unordered_set<std::uint32_t> step_loops;    // start bytes of loops that directly call backward()
  std::vector<Node> step_loop_nodes;               // the same, in document order
  // What the step loops iterate, as written (`batches`, `train_loader`), through enumerate()/tqdm():
  // another loop over the same name walks the same kind of batches.
  std::unordered_set<std::string> step_loop_sources;
  // Plain functions (not methods) of the file with a DeviceParameter used in their body.
  std::unordered_map<std::string, DeviceParameter> cpu_default_device_parameters;
  // Top-level functions that load an optimizer's state into one of their parameters.
  std::unordered_map<std::string, std::vector<OptimizerLoad>> optimizer_loaders;
  // Top-level functions that move some of their parameters (`model.to(device)`, `m.cuda()`), directly
  // or by handing them to another such function: the indices of those parameters.
  std::unordered_map<std::string, std::vector<int>> module_movers;
  std::unordered_set<std::uint32_t> timed_loops;   // loops that read a clock: they sync on purpose
  bool uses_device = false;          // .cuda(), .to(<not a dtype, not "cpu">), device=..., device_map=, ...
  // Where placement happens: start bytes of the innermost functions containing it, and
  // k_module_level for code outside functions. Per-step rules ask about the loop's own function.
  std::unordered_set<std::uint32_t> device_functions;
  // Functions of this file called by name from a forward() or a *_step() method, or from a step
  // loop: they run at every step, like the code that calls them.
  std::unordered_set<std::string> called_per_step;
  // Plain functions of this file that a forward() runs, directly or through other plain functions
  // of the file, at a call site that does not move what they return (`idx = make_index(n)`, not
  // `make_index(n).to(x.device)`): what they make meets the module's tensors as it is.
  std::unordered_set<std::string> forward_helpers_unmoved;
  // Methods called as `obj.NAME(...)` inside a loop of a function (`sched.step(eps, i, x)` in a
  // sampling loop): a plain class's method of that name runs once per pass.
  std::unordered_set<std::string> methods_called_in_loops;
  // Functions of this file called by name from a method of an nn.Module subclass defined here (a
  // metric's compute(), a loss's forward()): they run where the module runs.
  std::unordered_set<std::string> called_by_modules;
  bool uses_mixed_precision = false; // autocast, GradScaler, .half(), bfloat16/float16, matmul precision
  bool uses_non_blocking = false;    // .to(..., non_blocking=True)
  bool uses_xla = false;             // torch_xla: placement through xm.xla_device()
  // Lightning (Fabric) or Accelerate is imported: they move the batches of the loaders they set up.
  bool framework_moves_batches = false;
  const ProjectIndex* project = nullptr;  // the scan's other files, for classes they define
  bool has_syntax_error = false;
  int first_error_row = -1;
};

// A class of the data pipeline (a dataset, a sampler, a collate function, a data transform, not a
// Transformer model): its code works on the host.
bool host_side_class(std::string_view cls);

// `project`: the other files' classes (nullptr when the file is analysed alone).
FileFacts collect_file_facts(Node root, const ProjectIndex* project = nullptr);

// A parameter name that chooses a device: device, cuda_device, gpus, use_gpu, ...
// The arguments of the call whose '(' is at text[open], split at top-level commas and trimmed; empty
// when the call does not close within 4 KiB.
std::vector<std::string_view> call_arguments(std::string_view text, std::size_t open);
bool names_a_device(std::string_view name);
// A default of such a parameter that means the CPU: None, -1, False, "cpu", [] or ().
bool cpu_default(std::string_view default_text);

// Whether a call's arguments move to a device: `.to(x)` whose first argument (or device=) is not a
// dtype and not the literal "cpu".
bool is_dtype_expression(Node arg, const ImportTable& imports);

}  // namespace gpudoctor::scan
