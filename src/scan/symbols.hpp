// The dataflow state of the analysis: what a name holds at a point in program order. Names are
// identifiers or dotted paths (`model`, `self.model`). A Scope is a module, notebook or function
// body; `self.*` names live in the module scope so that what __init__ builds is known in forward()
// and train(). Facts are approximate by design (no aliasing, no control-flow merges): a rebinding
// replaces what a name held, and that is what a reader of the code would assume too.
#pragma once

#include <string>
#include <unordered_map>
#include <unordered_set>

namespace gpudoctor::scan {

enum class Kind : std::uint8_t {
  unknown,
  module,      // a torch nn.Module (constructed here)
  hf_model,    // a transformers model from from_pretrained()
  tensor,      // a torch tensor (factory result, model output, a moved batch)
  batch,       // a value bound by iterating a DataLoader, not yet moved or rebound
  dataloader,
  device,      // torch.device(...) or a device string
  optimizer,
  sklearn_estimator,
  pipeline,
  in_memory_dataset,  // a TensorDataset: batches are slices of tensors already in memory
  tokenizer,          // a transformers tokenizer or processor: its tensors are made on the CPU
  encoding,           // what a tokenizer returns (BatchEncoding): .to(device) moves it in place
};

enum class Placement : std::uint8_t { unknown, host, accelerator };

struct Symbol {
  Kind kind = Kind::unknown;
  Placement placement = Placement::unknown;
  int row = -1, column = -1;  // where the name was bound
  int moved_row = -1;         // where it was placed on an accelerator
  bool cpu_device = false;    // a device bound to "cpu"
  bool fallback = false;      // a device chosen by `... if torch.cuda.is_available() else "cpu"`
  bool is_parameter = false;
  bool reported = false;      // one finding per symbol and rule family is enough
  bool state_loaded = false;  // load_state_dict() was called on it
  bool is_loss = false;       // a loss module (nn.*Loss): not the model being trained
  bool submodule = false;     // `self.x` of an nn.Module subclass: moved with its parent
  bool from_param = false;    // computed from the enclosing function's parameters (their device)
  bool from_shape = false;    // a size read off an input tensor (x.shape[1], x.size(0))
  bool scalar = false;        // a parameter typed or defaulted as a number, string or flag: no tensor
  bool made_here = false;     // tensor: created in this file by a factory without device=
  bool sized = false;         // made from sizes or a number (zeros, ones, full, tensor(0.0)), not from data
  bool zero_dim = false;      // torch.tensor(<number>): mixes with tensors on any device out of place
  bool maybe_number = false;  // torch.tensor(<a name or call>): may hold one number (0-dim) as well as data
  int loop = -1;              // batch: index of the loop that bound it
  int loader = -1;            // dataloader: index into the analyzer's DataLoader records
  bool cuda_tensor_type = false;  // torch.cuda.FloatTensor (or a name bound to it, maybe behind a test)
  bool weightless = false;        // module: an instance of a class of this file that builds no weights
  bool object_ctor = false;       // made by `SomeClass(...)` of a class this file cannot see
  bool from_subscript = false;  // bound from `a[i]` / `a[-n:]` of something unknown: data, not a module
  bool device_choice = false;   // a device chosen for the GPU: `... if cuda else "cpu"`, get_device()
  bool sequence = false;        // bound to a list or list comprehension: torch.tensor(name) of it is data
  bool dict_literal = false;    // bound to `{}` / `dict()` in this function
  int instance_of = -1;         // an instance of a class of this file (index into the analyzer's class list)
  bool numpy_reported = false;  // numpy_of_device_tensor said once for this name
  bool model_output = false;    // computed by a module on the device (`lm(**enc).logits[:, :-1]`), of any kind
  bool holds_host_tensors = false;  // such a dict, given host tensors made from data (`out["ids"] = torch.tensor(ids)`)
  int built_row = -1, built_column = -1;  // a function's return value: where it was bound in that function

  // A tensor this file made on the host with a factory and no device=.
  bool made_on_host() const { return kind == Kind::tensor && made_here && placement == Placement::host; }
};

struct Scope {
  bool is_function = false;
  std::unordered_map<std::string, Symbol> symbols;
  int cuda_touch_row = -1;  // first statement in this scope that initialises CUDA
};

}  // namespace gpudoctor::scan
