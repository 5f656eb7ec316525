// ProjectIndex: what the files of one scan know about each other. A model is often defined in
// model.py and trained in train.py: the training file's analysis needs to know that `Net` (imported
// from the project) is an nn.Module. The index is built from a light pass over every Python file's
// text (class headers only, no parse), before the files are analysed, then shared read-only.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gpudoctor::scan {

class ProjectIndex {
 public:
  // Records the class headers of one file's text (`class Net(nn.Module):`, `class Big(Net):`).
  void add_source(std::string_view text);
  // Follows bases to a fixed point: a class whose base is nn.Module, LightningModule or another
  // module class of the project is a module class. Call once, after every add_source().
  void finish();
  // Whether a class of the project with this (unqualified) name is a torch module. A name defined
  // twice, once as a module and once not, counts as not one (it cannot be told apart here).
  bool is_module_class(std::string_view name) const;
  std::size_t module_class_count() const { return m_modules.size(); }
  // Whether any file names CUDA (`.cuda(`, "cuda", torch.device("cuda")): the project runs on GPUs.
  bool uses_gpu() const { return m_uses_gpu; }
  // Whether a top-level function of the project with this name (defined once) builds a module and
  // returns it without placing it anywhere: every return is a module class of the project or of
  // torch.nn, called there or bound to a name there, and its body names no .to(, .cuda( or device.
  // A model built by `build_model(cfg)` of models.py is on the CPU in train.py.
  bool returns_module_on_host(std::string_view function) const { return m_builders.count(std::string(function)) > 0; }

 private:
  void add_function(std::string_view name, std::string_view body);

  // Top-level functions: name -> the classes their returns construct ("" for a return of anything else).
  std::unordered_map<std::string, std::vector<std::string>> m_function_returns;
  std::unordered_set<std::string> m_ambiguous_functions;
  std::unordered_set<std::string> m_builders;
  std::unordered_map<std::string, std::vector<std::string>> m_bases;  // class -> base names (last component)
  std::unordered_set<std::string> m_ambiguous;
  std::unordered_set<std::string> m_modules;
  bool m_uses_gpu = false;
};

}  // namespace gpudoctor::scan
