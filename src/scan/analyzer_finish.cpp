// The rules decided at the end of a file, because their answer depends on the whole file: was
// anything ever placed on a device, was a device choice ever announced, was a loader fed to a GPU.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include <scan/analyzer_impl.hpp>
#include <util/text.hpp>

namespace gpudoctor::scan {

// `model.cuda(dev)` and then `score_split(model, batches)` in the same function: a caller of
// `function` in this file moves a model before the call.
bool Analyzer::called_with_moved_model(std::string_view function) const {
  std::string_view text = m_src.text;
  bool found = false;
  util::for_each_name_use(text, function, [&](std::string_view rest) {
    if (found || !rest.starts_with("(")) return;
    auto call_at = static_cast<std::size_t>(rest.data() - text.data());
    auto def_at = text.rfind("\ndef ", call_at);
    auto def_here = text.rfind("def ", call_at);
    if (def_here != std::string_view::npos && text.substr(def_here + 4, function.size()) == function &&
        call_at - def_here <= function.size() + 4) {
      return;  // the definition itself
    }
    auto body = text.substr(def_at == std::string_view::npos ? 0 : def_at, call_at - (def_at == std::string_view::npos ? 0 : def_at));
    found = body.find(".cuda(") != std::string_view::npos || body.find(".to(device") != std::string_view::npos ||
            body.find(".to(self.device") != std::string_view::npos;
  });
  return found;
}

// A script-level model that a builder function of this file returns, or that loads a checkpoint,
// and that nothing ever moves, while another model of the script is moved to the device the script
// chose for the GPU: the second model runs on the CPU (a predictor that follows its model's device
// does so silently). Names of the module scope only: a function's model is judged where it is used.
void Analyzer::check_script_model_left_on_host() {
  if (m_scopes.empty()) return;
  const auto& globals = m_scopes.front().symbols;
  const std::string_view text = m_src.text;
  const Symbol* mover = nullptr;
  std::string_view mover_name;
  for (const auto& [name, s] : globals) {
    if (s.kind == Kind::module && s.placement == Placement::accelerator && s.moved_row >= 0 && !s.is_parameter &&
        (mover == nullptr || s.moved_row < mover->moved_row)) {
      mover = &s;
      mover_name = name;
    }
  }
  // The first model moved: a model built before it may belong to a part of the script (a lesson's
  // first section) that runs on the CPU on purpose.
  if (mover == nullptr) return;
  // The device it went to is chosen for the GPU (`"cuda" if torch.cuda.is_available() else "cpu"`).
  bool gpu_choice = false;
  for (const auto& [name, s] : globals) gpu_choice = gpu_choice || (s.kind == Kind::device && s.device_choice);
  if (!gpu_choice) return;
  // Each candidate is read against the whole file: a generated script with thousands of modules is
  // read for the first ones only.
  int candidates = 0;
  constexpr int k_max_candidates = 64;
  for (const auto& [name, s] : globals) {
    if (s.kind != Kind::module || s.placement != Placement::host || s.is_parameter || s.submodule || s.reported ||
        s.weightless || s.is_loss || s.row <= mover->moved_row || name.find('.') != std::string::npos) {
      continue;
    }
    if (++candidates > k_max_candidates) break;
    // Bound by a call of a function of this file (a builder), or filled from a checkpoint.
    const std::string_view line = line_of(s.row);
    if (line.data() == nullptr) continue;
    const std::size_t eol = static_cast<std::size_t>(line.data() - text.data()) + line.size();
    auto eq = line.find(" = ");
    auto paren = line.find('(', eq == std::string_view::npos ? 0 : eq);
    if (eq == std::string_view::npos || paren == std::string_view::npos) continue;
    auto callee = util::trim(line.substr(eq + 3, paren - eq - 3));
    const bool builder = !callee.empty() && callee.find('.') == std::string_view::npos &&
                         text.find("def " + std::string(callee) + "(") != std::string_view::npos;
    const bool loaded = text.find(name + ".load_state_dict(") != std::string_view::npos;
    if (!builder && !loaded) continue;
    // Never moved, and never handed on with a device or to something that moves what it gets.
    bool moved = false, used = false;
    util::for_each_name_use(text.substr(std::min(eol, text.size())), name, [&](std::string_view rest) {
      used = true;
      if (rest.starts_with(".to(") || rest.starts_with(".cuda(") || rest.starts_with(".to_empty(") ||
          rest.starts_with(".half().cuda(")) {
        moved = true;
      }
      auto line_rest = rest.substr(0, rest.find('\n'));
      if (line_rest.find("device") != std::string_view::npos || line_rest.find("cuda") != std::string_view::npos) moved = true;
    });
    if (moved || !used) continue;
    // A builder that moves the model it builds (`return model.to(device)`) would have placed it.
    if (builder) {
      auto body = def_body(text, text.find("def " + std::string(callee) + "("));
      if (body.find(".to(") != std::string_view::npos || body.find(".cuda(") != std::string_view::npos ||
          body.find("device") != std::string_view::npos) {
        continue;
      }
    }
    emit_at(RuleId::model_not_moved, s.row, s.column,
            fmt::format("`{}` is {} and never moved, while `{}` is moved to the device chosen for the GPU at {}: "
                        "`{}` runs on the CPU (or meets that model's device tensors)",
                        name, builder ? fmt::format("built by {}()", callee) : std::string("filled from a checkpoint"),
                        mover_name, where(mover->moved_row), name),
            {}, fmt::format("{} = {}.to(device)", name, name));
  }
}

// A call that hands a plain function of the file a model on the device and a tensor on the host,
// where the function runs the model on that tensor (`generate(model=model, idx=encode(prompt))`
// with `model(idx[:, -n:])` inside): the forward pass fails with a device mismatch.
void Analyzer::report_host_inputs_handed_with_device_model() {
  for (const auto& h : m_handed_inputs) {
    auto pairs = m_param_model_inputs.find(h.function);
    auto params = m_plain_params.find(h.function);
    if (pairs == m_param_model_inputs.end() || params == m_plain_params.end()) continue;
    auto bound = [&](const std::map<int, Node>& positional, const std::map<std::string, Node>& keywords,
                     const std::string& param) {
      if (auto k = keywords.find(param); k != keywords.end()) return k->second;
      const auto& names = params->second;
      auto at = std::find(names.begin(), names.end(), param);
      if (at == names.end()) return Node();
      auto p = positional.find(static_cast<int>(at - names.begin()));
      return p == positional.end() ? Node() : p->second;
    };
    for (const auto& [model_param, input_param] : pairs->second) {
      Node model = bound(h.model_positional, h.model_keywords, model_param);
      Node input = bound(h.host_positional, h.host_keywords, input_param);
      if (!model.valid() || !input.valid()) continue;
      emit(RuleId::inputs_not_moved, input,
           fmt::format("`{}` is on the CPU and is handed to {}() as `{}`, which runs `{}` on it, while `{}` handed "
                       "with it is a model on the device: the forward pass fails with a device mismatch",
                       snippet(input, 40), h.function, input_param, model_param, snippet(model, 30)),
           {}, fmt::format("{}.to(device)", snippet(input, 40)));
      break;
    }
  }
}

void Analyzer::report_unmoved_encodings() {
  const std::string_view text = m_src.text;
  std::set<int> reported;
  std::map<std::string, int> moved_rows;  // per callee: the file is searched once for each
  for (const auto& [input, callee] : m_unmoved_encodings) {
    // Another line of the file moves what the callee returns before a model gets it.
    auto [cached, first] = moved_rows.try_emplace(callee, -1);
    int& moved_row = cached->second;
    if (first) {
      const std::string& name = callee;
      util::for_each_name_use(text, name, [&](std::string_view rest) {
        if (moved_row >= 0 || !rest.starts_with("(")) return;
        const auto at = static_cast<std::size_t>(rest.data() - text.data()) - name.size();
        auto bol = text.rfind('\n', at);
        bol = bol == std::string_view::npos ? 0 : bol + 1;
        auto line = text.substr(bol, text.find('\n', at) - bol);
        line = line.substr(0, line.find('#'));
        if (line.find(".to(") != std::string_view::npos && line.find("def ") == std::string_view::npos) {
          moved_row = static_cast<int>(util::count_byte(text.substr(0, at), '\n'));
        }
      });
    }
    if (moved_row < 0 || !reported.insert(static_cast<int>(input.row())).second) continue;
    emit(RuleId::inputs_not_moved, input,
         fmt::format("`{}` is what `{}(...)` returns, given to a model without .to(device), while {} moves what `{}(...)` "
                     "returns before a model gets it: here the model gets CPU tensors",
                     input.text(), callee, where(moved_row), callee),
         {}, fmt::format("{} = {{k: v.to(device) for k, v in {}.items()}}", input.text(), input.text()));
  }
}

void Analyzer::finish() {
  report_unmoved_encodings();
  report_host_inputs_handed_with_device_model();
  report_handed_modules();
  check_script_model_left_on_host();
  for (const auto& [index, first, last] : m_helper_route_findings) {
    for (int row : m_joined_built_rows) {
      if (row >= first && row <= last) m_dropped.insert(index);
    }
  }
  for (const auto& [index, function] : m_made_in_plain_function) {
    auto it = m_calls_host_only.find(function);
    if (it != m_calls_host_only.end() && it->second) m_dropped.insert(index);
  }
  for (const auto& c : m_fallbacks) {
    if (!c.name.empty() && m_announced.count(c.name)) continue;
    if (m_announced.count("torch.cuda.is_available")) continue;  // printed or asserted directly
    std::string subject = c.name.empty() ? "the device" : fmt::format("`{}`", c.name);
    emit(RuleId::silent_cpu_fallback, c.at,
         fmt::format("{} silently becomes \"cpu\" when CUDA is unavailable (a CPU-only torch, hidden GPUs, a driver "
                     "fault) and nothing prints, logs or asserts which device was chosen",
                     subject),
         {snippet(c.at, 80)},
         c.name.empty() ? std::string() : fmt::format("print(f\"device: {{{}}}\") after choosing it, or assert "
                                                      "torch.cuda.is_available() in GPU jobs",
                                                      c.name));
  }

  bool trains = !m_ff.step_loop_nodes.empty();

  // Evaluation loops that feed a model unmoved batches while the training loop moves its own (in a
  // notebook, a training loop in an earlier cell or the same one: tutorials show a CPU version
  // first and move to the GPU later). One finding per loop.
  std::set<int> reported_loops;
  std::unordered_map<std::string, bool> handed_moved_model;  // function -> the file calls it with a moved model
  for (const auto& u : m_unmoved_batches) {
    const LoopState& loop = m_all_loops[static_cast<std::size_t>(u.loop)];
    if (!u.evaluation || loop.moved_row >= 0 || !reported_loops.insert(u.loop).second) continue;
    if (!loop.same_source_function.empty() && !called_with_moved_model(loop.same_source_function)) continue;
    int moving_loop = -1;
    for (const auto& l : m_all_loops) {
      if (l.moved_row < 0 || !l.step) continue;
      if (!m_src.cells.empty() && l.row > loop.row &&
          m_src.locate(l.row, 0).cell != m_src.locate(loop.row, 0).cell) {
        continue;
      }
      moving_loop = l.row;
      break;
    }
    if (moving_loop < 0) {
      // No loop of the file moves batches, but the file hands this function a model it moved: the
      // function's own loader yields CPU batches for a model on the device.
      if (u.function.empty()) continue;
      auto [handed, first] = handed_moved_model.try_emplace(u.function, false);
      if (first) handed->second = called_with_moved_model(u.function);
      if (!handed->second) continue;
      emit(RuleId::inputs_not_moved, u.arg,
           fmt::format("`{}` from `{}` reaches `{}(...)` without .to(device), and this file calls {}() with a model "
                       "it moved to the device: the batches stay on the CPU and the forward pass fails with a device "
                       "mismatch",
                       u.arg.text(), loop.source, u.callee, u.function),
           {fmt::format("`{}` bound by the loop at {}", u.arg.text(), where(loop.row))},
           fmt::format("{} = {}.to(next({}.parameters()).device)", u.arg.text(), u.arg.text(), u.callee));
      continue;
    }
    emit(RuleId::inputs_not_moved, u.arg,
         fmt::format("`{}` from `{}` reaches `{}(...)` without .to(device), while the loop at {} moves its batches: "
                     "this loop runs on the CPU or fails with a device mismatch",
                     u.arg.text(), loop.source, u.callee, where(moving_loop)),
         {fmt::format("`{}` bound by the loop at {}", u.arg.text(), where(loop.row))},
         fmt::format("{} = {}.to(device, non_blocking=True)", u.arg.text(), u.arg.text()));
  }
  if (!m_ff.uses_device && !m_ff.uses_xla && m_ff.imports.imports("torch") && m_first_module_row >= 0 &&
      (trains || m_module_used_in_loader_loop_row >= 0)) {
    int used_row = trains ? m_ff.step_loop_nodes.front().row() : m_module_used_in_loader_loop_row;
    // Name the model whose parameters() the optimizer takes (or that is put in train mode) when
    // there is one: the first module built may be a layer or a helper.
    const bool named = !m_trained_module_name.empty() && m_trained_module_row >= 0;
    emit_at(RuleId::no_device_placement, named ? m_trained_module_row : m_first_module.row(),
         named ? m_trained_module_column : m_first_module.column(),
         fmt::format("`{}` is {} at {} but nothing in this file is placed on a GPU: no .to(device), .cuda(), device= "
                     "or device_map, so everything runs on the CPU",
                     named ? m_trained_module_name : m_first_module_name, trains ? "trained" : "run over a DataLoader",
                     where(used_row)),
         {fmt::format("model built at {}", where(named ? m_trained_module_row : m_first_module_row))}, {});
  }

  bool gpu_file = m_ff.uses_device;
  for (const auto& rec : m_loaders) {
    if (rec.opaque) continue;
    bool feeds = rec.fed_gpu_loop;
    if (feeds && rec.workers_unset_or_zero && !rec.in_memory) {
      emit(RuleId::dataloader_single_process, rec.call,
           "This DataLoader loads and collates every batch in the training process (num_workers=0): the GPU waits "
           "while the next batch is prepared");
    }
    // The loop over this loader copies with non_blocking=True (another loader's copies say nothing
    // about this one).
    if (gpu_file && rec.non_blocking_copies && !rec.pin_memory) {
      emit(RuleId::dataloader_no_pin_memory, rec.call,
           "Batches are copied with non_blocking=True, but this DataLoader does not pin memory: a copy from pageable "
           "memory is synchronous anyway");
    }
  }

  if (gpu_file && trains && !m_ff.uses_mixed_precision && !m_ff.uses_xla) {
    std::vector<std::string> others;
    for (std::size_t i = 1; i < m_ff.step_loop_nodes.size(); ++i) {
      others.push_back(fmt::format("also the training loop at {}", where(m_ff.step_loop_nodes[i].row())));
    }
    emit(RuleId::no_mixed_precision, m_ff.step_loop_nodes.front(),
         "This training loop runs in FP32: no autocast, no bf16/fp16 and no TF32 matmul precision anywhere in the "
         "file; tensor cores (Volta and newer) sit idle",
         others);
  }

  // The checkpoint mapped to the CPU fills a module built in the same function (a method that fills
  // `self` leaves the move to whoever moves the module).
  if (!m_module_on_accelerator) {
    if (m_state_loaded) {
      for (auto [ml, fn] : m_cpu_map_locations) {
        if (!m_state_loaded_in.count(fn)) continue;
        emit(RuleId::hardcoded_cpu, ml,
             "The checkpoint is loaded with map_location=\"cpu\" and the model it fills is never moved to a device "
             "afterwards: it stays on the CPU",
             {snippet(ml.parent().parent(), 80)}, "model.to(device) after load_state_dict(), or map_location=device");
      }
    }
  }
}

}  // namespace gpudoctor::scan
