// Sources for each rule are in its docs/rules/<id>.md page.
#include <scan/rules.hpp>

namespace gpudoctor::scan {
namespace {

using facts::Layer;
using facts::Severity;

constexpr ScanRule k_rules[] = {
    {RuleId::no_device_placement,
     {"code.no_device_placement", Layer::code, Severity::info,
      "A model is trained or run but nothing in the file is ever placed on an accelerator",
      "A file that builds a torch nn.Module and trains it (a loop calling backward()) or runs it over a DataLoader, "
      "with no .to(device), .cuda(), device= or device_map anywhere",
      "device = torch.device(\"cuda\"); model.to(device); move every batch: x = x.to(device)"}},
    {RuleId::inputs_not_moved,
     {"code.inputs_not_moved", Layer::code, Severity::error,
      "The model is on the GPU but a batch from the loader reaches it without .to(device)",
      "A name bound by iterating a DataLoader (or a training loop's batch) passed unmoved to a module while the model, "
      "or another part of the same batch, was moved to a device, or (for `self.model`) another method of the class "
      "moves its inputs to the model's device (`x.to(self.device)`); an evaluation loop (its function or source named "
      "eval/val/test/predict/score) that feeds a model unmoved batches while the file's training loop moves its own, "
      "also a loop over the same name as the training loop (`for batch in batches:`) when a caller of its function "
      "moves a model first (a batch rebound by a helper given a device, `batch = to_device(batch, device)`, counts "
      "as moved); an evaluation function's own loop whose model is a parameter of that function, when the file "
      "calls the function with a model it moved and no loop of the file moves batches; token ids, tensors or a data "
      "collator's batch made "
      "here on the host and given "
      "to a model a plain class keeps (self.model(ids), self.model.generate(ids)) when every construction of the class "
      "in the file hands it a model on the device; a tensor made from values without device= in a method of a module "
      "that moves itself (self.to(self.device) in __init__) and run through one of its own methods or layers; a "
      "tensor that a helper method or function of the file makes on the host from data (`return "
      "torch.as_tensor(frame).permute(2, 0, 1) / 255`, padded token lists, a dict it fills with such tensors) given "
      "to a model moved to the device, also to one of the model's own methods (`self.model.encode_text(ids)`; not "
      "methods that do not run it, such as state_dict() or eval(), nor a method of the file that moves its input "
      "itself), reported where the tensor is made; targets made on the host (a field of a tokenizer's encoding whose "
      "moved copy went only to the model) given to a loss (torch.nn.functional's or a loss module) with what a model "
      "on the device computed (`xent(logits.view(-1, v), target.view(-1))`); a host tensor handed to a plain function "
      "of the file together with a model on the device, where the function runs that model on it (`generate(model, "
      "encode(prompt))` with `model(idx[:, -n:])` inside); an encoding bound from a tokenizer-like call (`q = "
      "tokenizer([query])`) given to a model as `model(**q)` without a move, when another line of the file moves what "
      "that callee returns (`{k: v.to(dev) for k, v in tokenizer(docs).items()}`). Not "
      "for a module class of the file whose __init__ builds no layer, parameter or buffer (an RPC stub), nor "
      "reported where a comment in the loop says the line "
      "fails on purpose (\"this will error\": lessons that show the error). As a warning: a move-to-device helper "
      "that moves a tensor, recurses into tuples or dicts and returns anything else unchanged, with no list, "
      "Sequence or iterable case (a batch given as a list of tensors stays on the host)",
      "images = images.to(device, non_blocking=True) before the forward pass (and the labels before the loss)"}},
    {RuleId::to_result_discarded,
     {"code.to_result_discarded", Layer::code, Severity::error,
      "tensor.to(device) / tensor.cuda() used as a statement: tensors are not moved in place",
      "An expression statement `x.to(...)`, `x.cuda()` or `x.cpu()` whose object is a tensor (a factory result, a "
      "model output, a batch from a loader or a part unpacked from one (`xb, yb = batch`, also in a loop over "
      "`loaders[\"train\"]`), or a slice of data such as `self.states[i][-n:]`), or an object of a class of "
      "the file whose cpu(), cuda() or to() ends by returning a new object (a container of tensors), not self; also a "
      "name last bound to what a method only tensors have returned (`x = x.view(...)`, reshape, contiguous, permute, "
      "...); not a cast that names a dtype and no device",
      "Assign the result: x = x.to(device). Modules are moved in place; tensors are not"}},
    {RuleId::hardcoded_cpu,
     {"code.hardcoded_cpu", Layer::code, Severity::warning,
      "The code pins the work to the CPU",
      "A model placed on a device bound to \"cpu\", torch.load(map_location=\"cpu\") into a model never moved back, "
      "x.type(torch.FloatTensor) (or another legacy CPU tensor type) of the inputs in a module's method (it casts and "
      "copies to the CPU; .float() casts in place), "
      "tf.device(\"/CPU:0\"), tf.config.set_visible_devices([], \"GPU\"), jax_platform_name/JAX_PLATFORMS = \"cpu\", "
      "Trainer(accelerator=\"cpu\") (info: a stated choice), pipeline(device=-1), x.type(torch.FloatTensor) of a device "
      "tensor (not inside an expression read on the host anyway: `(...).sum().item()`). Not reported in a branch of an if, a conditional expression "
      "or an except clause (a --cpu option, the else of a device test), nor tf.config.set_visible_devices([], "
      "\"GPU\") in a PyTorch or JAX program (TensorFlow only feeds data there). Also a device chosen for the GPU "
      "(`... if torch.cuda.is_available() else \"cpu\"`, get_device()) and then overwritten with \"cpu\" in the same "
      "scope, unconditionally, with no comment beside it that speaks of the CPU or GPU (a debugging pin left behind). "
      "And a call of a function of the file whose device parameter (device, cuda_device, gpus, use_gpu, ...) "
      "defaults to the CPU (-1, False, \"cpu\", or None where the function names the CPU and picks no GPU by itself) "
      "that leaves the parameter out, from a function that has a device at hand (a device-like parameter not "
      "defaulting to the CPU, a parameter of the same name whatever its default, or the same keyword handed to "
      "another call); and a function of the file that trains or "
      "evaluates a model called with a literal CPU device (`fit(..., device=\"cpu\")`) where another call of it hands "
      "it the chosen device, unless the result is named for the CPU (`preds_on_cpu = ...`), the call is under a "
      "choice, or the caller is a cpu() method",
      "Remove the CPU pin, or take the device from configuration: device = torch.device(args.device)"}},
    {RuleId::silent_cpu_fallback,
     {"code.silent_cpu_fallback", Layer::code, Severity::info,
      "The device falls back to CPU when CUDA is unavailable, and nothing says so",
      "`\"cuda\" if torch.cuda.is_available() else \"cpu\"` (or the if/else form) whose result is never printed, "
      "logged, asserted or warned about",
      "Log the device chosen (print(f\"using {device}\")), or fail fast in GPU jobs: assert torch.cuda.is_available()"}},
    {RuleId::visible_devices_after_init,
     {"code.visible_devices_after_init", Layer::code, Severity::error,
      "CUDA_VISIBLE_DEVICES is set too late, or set to hide every GPU",
      "os.environ[\"CUDA_VISIBLE_DEVICES\"] (or os.putenv, os.environ.setdefault, %env) assigned after CUDA was "
      "touched earlier in program order (torch.cuda.*, .cuda(), a cell above), or assigned \"\" or \"-1\" outside a "
      "branch (under `if args.device == \"cpu\":` hiding the GPUs is the user's choice)",
      "Set CUDA_VISIBLE_DEVICES in the shell or launcher, or as the first lines before anything touches CUDA; select a "
      "GPU in code with torch.device(\"cuda:N\")"}},
    {RuleId::sync_in_loop,
     {"code.sync_in_loop", Layer::code, Severity::info,
      "A host-device synchronisation runs every step of the training loop",
      "`.item()`, `.cpu()`, `.numpy()`, `.tolist()`, print(tensor) or torch.cuda.synchronize() in the step loop (the "
      "loop that calls backward()), outside an every-N-steps `if step % N` guard, in a file that uses a GPU. "
      "`.item()` (one scalar, most often a loss to log) is reported as info",
      "Accumulate on the device (total += loss.detach()) and read values every N steps or once per epoch"}},
    {RuleId::dataloader_single_process,
     {"code.dataloader_single_process", Layer::code, Severity::info,
      "A DataLoader loads data in the training process (num_workers=0, the default) while feeding a GPU",
      "DataLoader(...) without num_workers, iterated by a loop that moves its batches to a device or feeds them to a "
      "model there; not over a TensorDataset (batches sliced from tensors in memory), not when num_workers=0 is "
      "written out (a choice)",
      "DataLoader(ds, batch_size=..., num_workers=4, pin_memory=True, persistent_workers=True)"}},
    {RuleId::dataloader_no_pin_memory,
     {"code.dataloader_no_pin_memory", Layer::code, Severity::warning,
      "Batches are copied with non_blocking=True from a DataLoader without pinned memory",
      "A DataLoader without pin_memory=True in a file whose batches are moved with .to(..., non_blocking=True): from "
      "pageable memory the copy is synchronous anyway",
      "DataLoader(..., pin_memory=True)"}},
    {RuleId::dataparallel,
     {"code.dataparallel", Layer::code, Severity::info,
      "nn.DataParallel is used; DistributedDataParallel is much faster, even on one node",
      "A call of torch.nn.DataParallel",
      "One process per GPU with torchrun and DistributedDataParallel(model, device_ids=[local_rank])"}},
    {RuleId::no_mixed_precision,
     {"code.no_mixed_precision", Layer::code, Severity::info,
      "A GPU training loop runs in FP32 without autocast",
      "A training loop in a file that places work on a device and never uses autocast, GradScaler, .half(), "
      "bfloat16/float16 or torch.set_float32_matmul_precision",
      "with torch.autocast(\"cuda\", dtype=torch.bfloat16): around the forward pass and loss (fp16 needs "
      "torch.amp.GradScaler(\"cuda\"))"}},
    {RuleId::deprecated_amp,
     {"code.deprecated_amp", Layer::code, Severity::warning,
      "torch.cuda.amp.* is deprecated",
      "torch.cuda.amp.autocast, torch.cuda.amp.GradScaler, torch.cuda.amp.custom_fwd/custom_bwd or "
      "torch.cpu.amp.autocast, used or imported; not in an except clause or a branch of a version test (the fallback "
      "for PyTorch before 2.4)",
      "torch.amp.autocast(\"cuda\", ...) and torch.amp.GradScaler(\"cuda\")"}},
    {RuleId::tensor_created_then_moved,
     {"code.tensor_created_then_moved", Layer::code, Severity::warning,
      "A tensor is created on the CPU and copied to the device, in a loop",
      "torch.zeros/ones/rand/randn/empty/full/arange(...) immediately followed by .to(device), .cuda() or .type_as(t) "
      "(or bound to a name that the next few lines rebind to its moved copy, `buf = buf.cuda()`) inside a "
      "step loop, in a module's methods that run with forward(), in a function of the file that forward() or a "
      "*_step() method calls by name, in __call__, or in a plain class's method that a loop of the file calls by name "
      "(`sched.step(...)` at each sampling step); not torch.tensor(data) (host data must cross anyway), not in __init__ or "
      "under a first-time test (`if len(state) == 0:`, `if x is None:`). Also torch.stack/cat (over torch.meshgrid) of "
      "tensors all made there on the host, then moved; and a device tensor copied to the host, only sliced, copied, "
      "cast or reshaped there and copied back (`torch.tensor(x.cpu().numpy()[:, ::-1].copy()).cuda()`), not when a "
      "numpy routine works on it in between; and a factory in a module's method whose result forward() copies to the "
      "device where it calls it (`self.table(n).to(x.device)`), unless that call is under a test (a cache filled "
      "once); and a tensor attribute a plain class made with torch in __init__ copied to the device into a local in a "
      "method that a loop of the file calls at each step (`alphas = self.alphas_cumprod.to(x.device)` in a noise "
      "scheduler's add_noise())",
      "Create it on the device: torch.zeros(n, device=device)"}},
    {RuleId::cpu_preprocessing_in_loop,
     {"code.cpu_preprocessing_in_loop", Layer::code, Severity::info,
      "NumPy, PIL or OpenCV work runs inside the training loop",
      "A call into numpy, PIL or cv2 in the step loop (the loop that calls backward()) of a file that uses a GPU",
      "Do the work in the Dataset (with DataLoader workers) or on the GPU with torch / torchvision.transforms.v2"}},
    {RuleId::hf_pipeline_no_device,
     {"code.hf_pipeline_no_device", Layer::code, Severity::warning,
      "A transformers pipeline() is built without device or device_map",
      "transformers.pipeline(...) with neither device= nor device_map= (older transformers keep such a pipeline on "
      "the CPU)",
      "pipeline(task, model=..., device=0) or device_map=\"auto\""}},
    {RuleId::hf_trainer_cpu,
     {"code.hf_trainer_cpu", Layer::code, Severity::error,
      "TrainingArguments force the CPU",
      "TrainingArguments / Seq2SeqTrainingArguments with use_cpu=True or no_cuda=True",
      "Remove use_cpu / no_cuda; the Trainer uses the GPU when one is visible"}},
    {RuleId::hf_model_not_moved,
     {"code.hf_model_not_moved", Layer::code, Severity::error,
      "A from_pretrained() model runs on the CPU: no device_map and never moved",
      "Model.from_pretrained(...) without device_map, called or used to generate() in the same scope with no .to() or "
      ".cuda() in between; not a submodule (self.x of an nn.Module subclass, moved with its parent), nor a load with "
      "**kwargs that may carry device_map (a dict the function fills with device_map counts as placing the model)",
      "from_pretrained(name, device_map=\"auto\") or model.to(\"cuda\") before use (inputs too: "
      "inputs.to(model.device))"}},
    {RuleId::sklearn_cpu_only,
     {"code.sklearn_cpu_only", Layer::code, Severity::info,
      "A scikit-learn estimator is fitted: scikit-learn runs on the CPU only",
      "fit() on a scikit-learn estimator that cuML implements on the GPU (random forests, k-means, DBSCAN, PCA, "
      "t-SNE, linear and logistic regression, SVMs, nearest neighbours)",
      "cuML estimators, or run unchanged under `python -m cuml.accel script.py`; XGBoost/LightGBM GPU modes"}},
    {RuleId::model_not_moved,
     {"code.model_not_moved", Layer::code, Severity::error,
      "The model stays on the CPU while its inputs are on the GPU",
      "A module built or returned by a function in this file (never moved there), or by a builder function of another "
      "file of the scanned project (imported here; every return constructs a module, nothing placed), called with a "
      "tensor that was moved "
      "to a device; a module a plain class keeps from its __init__ (self.model = model) and calls with device "
      "tensors in its methods, when every construction of the class in the file hands it one never moved and the "
      "class never moves it; a module never moved handed to a function of this file that calls that parameter with "
      "a device tensor (`play(restore(path), board)`); or self.cuda() / self.to(device) in __init__ before submodules "
      "are assigned (they stay behind). torch.cuda.FloatTensor(...), a name bound to it (even behind a test) and "
      "x.type(it) count as device tensors; an object of a class the file cannot see becomes a module when "
      "load_state_dict() is called on it. Also: a model handed to a function of the file together with a device "
      "tensor that the function feeds it (`step(model, opt, x, y)` with x moved and `model(x)` there), and a module "
      "trained together with a moved one (both give .parameters() in one function) but never moved itself; and a "
      "model assigned in both branches of an if/else (not a device, precision or process choice) whose one branch "
      "moves it while the other builds or loads it (a class, from_pretrained, load_from_checkpoint) with no device "
      "and nothing moves it after the branches; and a plain class that takes a device, stores it "
      "(`self.device = device`) and never reads it again while its __init__ builds the model it runs "
      "(`self.model = Net()`) and nothing in the class places anything; and, at a script's top level, a model "
      "built by a builder function of the file (or filled with load_state_dict) after another model was moved to a "
      "device chosen for the GPU (`\"cuda\" if torch.cuda.is_available() else \"cpu\"`), when nothing moves it, hands "
      "it on with a device, or builds it on one; and a submodule built on the CPU and put into a model already "
      "moved (`model.to(device)` then `model.fc = nn.Linear(...)`) when nothing moves the model or the part "
      "afterwards in the function. A loss counts as a model here only when it holds tensors of its own: "
      "a loss class of the file that makes an nn.Parameter or a buffer, or torch's loss given class weights made on "
      "the host (`nn.CrossEntropyLoss(weight=torch.tensor([...]))`); and a model a function fills with "
      "load_state_dict(torch.load(..., map_location=device)) and returns never moved, when no caller in the file moves "
      "it (map_location places the checkpoint's tensors, not the model's parameters); and a model built or loaded "
      "(`self.lm = Net.from_pretrained(...)`) beside a device chosen for the GPU (`self.device = torch.device(\"cuda\" "
      "if torch.cuda.is_available() else \"cpu\")`) that nothing in the class (function, file) reads, where nothing "
      "is placed on a device at all",
      "model.to(device) after building or loading it (and after load_state_dict); in __init__, move the module last "
      "or leave the move to the caller"}},
    {RuleId::module_built_in_forward,
     {"code.module_built_in_forward", Layer::code, Severity::error,
      "A layer with weights is built inside forward(): it is new, untrained and on the CPU at every call",
      "A torch.nn layer with parameters (Linear, Conv*, *Norm, Embedding, RNNs, attention) constructed in the forward() "
      "of an nn.Module subclass, not assigned to self; and, as a warning, nn.Dropout* built and called at once there (a "
      "module made at each call is always in training mode: model.eval() does not turn it off); an nn.Sequential, "
      "ModuleList or ModuleDict of such layers is reported once, at the container. A class of any base that has "
      "forward() and assigns torch layers to self in __init__ counts as a module (a library's extractor class). Also "
      "a module class of the file built and called at once (`Block(args)(x)`) in a method of a module other than "
      "__init__",
      "Build it once in __init__ (self.conv = nn.Conv2d(...); a list of them in nn.ModuleList) and call it in "
      "forward(); for a stateless op use torch.nn.functional"}},
    {RuleId::module_not_registered,
     {"code.module_not_registered", Layer::code, Severity::error,
      "Layers or parameters the module never registers: .to(), .cuda(), state_dict() and the optimizer skip them",
      "In __init__ of an nn.Module subclass: layers kept in a plain list or dict (self.layers = [nn.Linear(...)], or "
      "appended to one, or stored into one by key), nn.Parameter(...) made inside a plain list or dict that a module "
      "keeps or one of its methods returns, or self.w = nn.Parameter(...).cuda() / .to(...) (the move returns a plain "
      "tensor)",
      "nn.ModuleList([...]) / nn.ModuleDict({...}); self.w = nn.Parameter(torch.randn(n, device=device)) or move "
      "the whole module afterwards"}},
    {RuleId::tensor_attribute_not_buffer,
     {"code.tensor_attribute_not_buffer", Layer::code, Severity::warning,
      "A tensor kept as a plain attribute of a module: model.to(device) leaves it on the CPU",
      "self.x = <tensor> in __init__ of an nn.Module subclass or a torchmetrics Metric (also one put on the first GPU "
      "by hand, `torch.randn(n).to(\"cuda\")`, or later in __init__, `self.x = self.x.cuda()`, whatever its size; a mask, a table, a constant, "
      "statistics read from a JSON/YAML/NumPy file; directly, through a local name "
      "bound to it, or in a tuple assignment), not a buffer or a "
      "parameter, and never moved in the file, or copied to the input's device in another method (`self.x.to(x.device)` "
      "in forward(): model.to() and .half() leave it behind and each call copies or checks it); a 0-dim tensor from a "
      "Python number is fine (it mixes with any device), and so is a size-0 placeholder for a cache built later; either "
      "branch of a conditional (`torch.tensor(m) if m is not None else torch.zeros(1)`) counts; and "
      "`self.x = None` in __init__ then filled in a method, under a test of the cache that is not about devices (`self.x "
      "is None`, a length that changed), with a tensor built on the call's device: the cache stays on the first call's "
      "device after model.to() (reported at the __init__ line)",
      "self.register_buffer(\"x\", tensor, persistent=False), so it moves with the module"}},
    {RuleId::tensor_created_without_device,
     {"code.tensor_created_without_device", Layer::code, Severity::warning,
      "A tensor built from an input's shape is created on the CPU, whatever device the input is on",
      "torch.zeros/ones/empty/full/rand*/arange/linspace/eye(...) without device= in a function of a file that uses "
      "a GPU, when its size is read off an input tensor (x.shape, x.size(), x.numel()), it is joined "
      "(torch.cat/stack) with them, or it is written inline against a sliced input (`torch.arange(n)[None] < "
      "lengths[:, None]`); host data made a tensor inline with at least one dimension (`torch.tensor(self.quantiles)"
      ".unsqueeze(0)`, `torch.tensor([0.5, 2.0])`) in arithmetic with a device tensor or, in a module's method, with "
      "what a submodule computed from the inputs (a 0-dim `torch.tensor(2.0)` mixes and is not reported); any such factory in forward() of a module, in init_hidden/init_state-like methods, and in "
      "a method forward() calls without moving its result (not when the method moves something after the factory, "
      "nor for a size-0 placeholder or a value read back at once with .item()), in a module's method that runs the "
      "module itself (sample(), generate() calling self.forward() or self(), not one __init__ calls), in a plain "
      "function of the file that forward() reaches through calls whose result it uses as made (unless the function "
      "moves something after the factory, compares it on the host, or its result is reported where forward() joins "
      "it), and a sequence made a tensor (`torch.tensor(range(n))`, `torch.tensor([a, b])`) there; a 0-dim accumulator "
      "(torch.tensor(0.0)) that takes values computed from tensor inputs in a loop; not in __init__, weight "
      "initialisation, datasets or collate functions, nor in a function of the file that "
      "the file only ever calls with host values (a naive version timed on small CPU tensors); and a tensor made "
      "without a device handed to a torch.distributed collective (all_reduce, all_gather, broadcast, ...) in a file "
      "that uses a GPU and not the gloo backend: NCCL takes device tensors only; a sized tensor made without a device "
      "and indexed with a tensor the same function put on the device (table[ids]), samplers included; a tensor made "
      "from data without a device in a module's method (torch.tensor(list(...))) that meets the method's input in a "
      "two-tensor torch function (isin, where, matmul, gather, ...); a parameter made again after construction "
      "(self.w = UninitializedParameter() / nn.Parameter(torch.zeros(...)) outside __init__ and set-up methods) "
      "without device=; a sized factory bound to a name that meets, also through a reshape (`window.view(...)`), a "
      "tensor the function computed from a tensor parameter; a host tensor "
      "returned by a function "
      "of the file and, at the caller, joined with or computed against device tensors; and `self.` state of a plain "
      "class (a history, running statistics) made without device= and grown in a method with values computed from "
      "its tensor arguments, where the file uses a GPU or the class keeps a `self.device`. A file that imports "
      "Lightning or Accelerate counts as using a GPU, and a function of the file that a forward() calls by name "
      "runs where the module runs; a list that gets both a sized tensor made here without device= and values from "
      "the inputs, whose elements then meet in arithmetic (`v * values[i]`) or are joined; a function that returns a "
      "constant made without device= (`return torch.tensor(0.0)`, directly or through a name) where another of its "
      "returns gives a value computed from its inputs at the same place, unless the function tests the device: a "
      "warning in a module's methods and in functions they call by name, advice elsewhere; and a tensor made without "
      "device= and made trainable (`p.requires_grad = True`, `p.requires_grad_()`) outside a module, in a file that "
      "places its data on a device, unless it is moved afterwards or wrapped in nn.Parameter; a value made on the host "
      "(a sized factory, torch.tensor(<numbers>)) in one branch of an if/else or a conditional expression whose other "
      "branch gives the same name a value computed from device tensors or the function's tensor inputs (not when the "
      "condition tests the device, precision, process or type, nor for a size-0 placeholder unless the other branch "
      "makes the same start with a device); a factory without device= sized from another argument of the same call "
      "(`batched_nms(boxes, scores, torch.zeros(len(boxes)))`); and torch.tensor([x.min(), x.max()]) of values read "
      "off an input in a module's methods or a step: a new CPU tensor from device values; and, in a function that "
      "gives its other factories a device (device=<not the CPU>), a factory of it without device= that meets a value "
      "that is no number or size (`scores.unsqueeze(-1) + logits` after `torch.full(..., device=state.device)`); and "
      "a module class of the file whose forward()/__call__() makes what it returns on the host, when "
      "another module's method combines its output with a tensor (`x + self.positions(n)`); and a method of a module "
      "class that gives its other tensors a device returning a fresh host-made tensor (`return "
      "nn.Parameter(torch.zeros(1))` as a dummy loss). In a file that names no GPU such a factory in a module's "
      "forward() is advice (info), and a warning once the function joins it with what it computes from its inputs "
      "(torch.cat/stack beside other tensors, or a submodule called with it, `self.emb(token)`): on a GPU that line "
      "fails whoever moves the module",
      "Create it where the input lives: torch.zeros(n, device=x.device), x.new_zeros(n), torch.zeros_like(x)"}},
    {RuleId::optimizer_state_before_move,
     {"code.optimizer_state_before_move", Layer::code, Severity::error,
      "The optimizer's state is loaded while the model is still on the CPU, and the model is moved afterwards",
      "optimizer.load_state_dict(...) followed, in the same function, by model.cuda() / model.to(device) of a module "
      "the optimizer was built on (also when a function of the file does the load on the optimizer it is handed, "
      "`restore(path, net, opt)`, and its caller moves the model only afterwards): load_state_dict() casts the saved state (momentum, Adam's averages) to the "
      "parameters' device at that moment, the CPU, and moving the model later moves only the parameters, so the "
      "first step after resuming fails (\"Expected all tensors to be on the same device\") or runs on mixed devices; "
      "also an optimizer built over a model's parameters before the same function (or the script's top level) moves "
      "the model, itself or through a function of the file that moves the parameter it is handed (error for "
      "Adagrad, which makes its state in its constructor; info for the others)",
      "Move the model first, then load the optimizer's state: model.to(device) before optimizer.load_state_dict(...) "
      "(build the optimizer after the move, or at least load into it after)"}},
    {RuleId::default_gpu_from_input,
     {"code.default_gpu_from_input", Layer::code, Severity::warning,
      "A device chosen as \"cuda\" from an input's is_cuda: the default GPU, not the input's",
      "`torch.device(\"cuda\") if x.is_cuda else torch.device(\"cpu\")` (or the same with strings): \"cuda\" is the "
      "current GPU (cuda:0 unless torch.cuda.set_device() was called), so for inputs on cuda:1 (a second GPU, one "
      "DDP process per GPU) the tensors made on this device are on another GPU than the input",
      "Use the input's own device: `device = x.device` (or x.new_zeros(...), torch.zeros_like(x))"}},
    {RuleId::load_without_map_location,
     {"code.load_without_map_location", Layer::code, Severity::warning,
      "A checkpoint loaded without map_location in code that also runs on the CPU",
      "torch.load(path) (or torch.load(path, weights_only=False), a whole pickled object) without map_location, of a checkpoint (its result fills load_state_dict, or the path or the "
      "name it is bound to says checkpoint, model or weights), in a file that also chooses the \"cpu\" device: "
      "tensors saved from a GPU are restored onto that GPU, which fails on a machine without CUDA (\"Attempting to "
      "deserialize object on a CUDA device\") and on one with CUDA first puts a copy of every weight on cuda:0; not "
      "reported under a test of the device (`if torch.cuda.is_available():`)",
      "torch.load(path, map_location=device) (or map_location=\"cpu\", then move the model with .to(device))"}},
    {RuleId::cuda_ignores_device,
     {"code.cuda_ignores_device", Layer::code, Severity::warning,
      "`.cuda()` or \"cuda\" where the code uses a chosen device",
      "x.cuda() with no index, .to(\"cuda\") / .to(\"cuda:0\"), or a call given device=\"cuda\" / device=\"cuda:0\" "
      "/ device_map=\"cuda:0\" (not under any if or try; device=\"cuda:1\" and above also under a test that does not "
      "count the GPUs), in a function that takes a device parameter or "
      "moves other values to a chosen device (`.to(device)`, `.to(self.device)`, `.to(args.device)`), or in a method "
      "of a class that keeps one (self.device): \"cuda\" is the current GPU (cuda:0 unless set), so with the device "
      "chosen as cuda:1 the tensors meet on two GPUs, and with the CPU chosen the line fails on a machine without "
      "CUDA; a torch factory given device=\"cuda\" beside factories that follow an input (`device=x.device`); not under a test about devices that does not read the chosen device (`if torch.cuda.is_available():`; a feature flag such as `if args.augment:` does not count); "
      "a bare .cuda() at the end of a detour through the host of a function's input (`x.cpu().cumsum(0).cuda()`), which "
      "returns to the current GPU rather than to x's; also "
      "torch.cuda.set_device(device) outside a test, after `device` fell back to \"cpu\" in the same function, and a "
      "call of a function of the file that leaves its `cuda=True` (use_cuda, gpu) flag at the default while that "
      "function moves values with .cuda() under it, in a file that chooses the CPU when CUDA is missing",
      "Use the chosen device: x.to(device) (or self.device, args.device) instead of x.cuda() or \"cuda\""}},
    {RuleId::numpy_of_device_tensor,
     {"code.numpy_of_device_tensor", Layer::code, Severity::error,
      "A tensor on the GPU is turned into a NumPy array without .cpu()",
      "x.numpy() (also through .detach(), .data, .squeeze(), reductions such as .max() and the like), np.array(x), "
      "np.asarray(x) or any other NumPy function (np.isnan(x.max())) of a tensor this file put on a device (moved with "
      ".to(device)/.cuda() or made with device=) or of what a model moved to the device computed from it "
      "(`model(x).detach().numpy()`, also through softmax, log, arithmetic and reductions of it; also a model handed to the function, named model or net, fed an input moved "
      "there or in a file that uses a device; and self.<layer>.weight in a module class that reads self.device or "
      "moves values), and such a tensor stored into a NumPy array made here (`history[i] = loss.data` after "
      "`history = np.zeros(...)`, or into self.<name> made so in any method of the class), with no .cpu() on the way: \"TypeError: can't convert cuda:0 device type tensor to "
      "numpy\"",
      "Copy it to the host first: x.detach().cpu().numpy()"}},
    {RuleId::is_available_not_called,
     {"code.is_available_not_called", Layer::code, Severity::error,
      "torch.cuda.is_available is tested without being called: a function is always true",
      "torch.cuda.is_available (also torch.backends.mps.is_available, torch.xpu.is_available) without its call "
      "parentheses as the test of an if, elif, while, assert or conditional expression (`\"cuda\" if "
      "torch.cuda.is_available else \"cpu\"`), or under not, and, or or; also a probe function of the file itself "
      "(`def has_mps():` at the top level, a name about cuda, gpu, mps, xpu, availability or accelerators, never "
      "rebound) tested the same way (`if has_mps:`): the function object is always true, so "
      "the GPU branch is taken on every machine and fails where there is no GPU",
      "Call it: torch.cuda.is_available()"}},
};
static_assert(std::size(k_rules) == static_cast<std::size_t>(RuleId::k_count));

}  // namespace

std::span<const ScanRule> all_rules() { return k_rules; }

const ScanRule& rule(RuleId id) { return k_rules[static_cast<std::size_t>(id)]; }

const ScanRule* find_rule(std::string_view id) {
  for (const auto& r : k_rules) {
    if (r.info.id == id) return &r;
  }
  return nullptr;
}

}  // namespace gpudoctor::scan
