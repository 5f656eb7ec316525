// ImportTable: what each imported name of a file stands for, so rules match qualified names and not
// spellings: after `import torch.nn as nn` and `from torch.utils.data import DataLoader as DL`,
// qualify("nn.Linear") is "torch.nn.Linear" and qualify("DL") is "torch.utils.data.DataLoader".
// Imports anywhere in the file count (function-local imports included); relative imports are ignored
// (they name the project's own modules). An import in an except, else or elif branch is a
// compatibility fallback: it does not rebind a name imported before it.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>

#include <scan/syntax.hpp>

namespace gpudoctor::scan {

class ImportTable {
 public:
  // Records an import_statement or import_from_statement node.
  void add(Node statement);
  // The dotted expression with its first component replaced by what it was imported as; the input
  // unchanged when the first component is not an imported name. Whitespace inside is dropped.
  std::string qualify(std::string_view dotted) const;
  // Whether any import names `package` or one of its submodules ("torch" matches "torch.nn").
  bool imports(std::string_view package) const;

 private:
  void bind(std::string_view local, std::string qualified);
  std::unordered_map<std::string, std::string> m_names;
  bool m_fallback = false;  // the statement being added is an except/else/elif branch
};

// "torch.nn.Linear" starts with package "torch.nn" (component-wise, so "torchvision" does not start
// with "torch").
bool starts_with_package(std::string_view qualified, std::string_view package);

// "torch.zeros" but not "torch.nn.functional.pad": a function of the torch namespace itself.
bool is_torch_function(std::string_view qualified);

}  // namespace gpudoctor::scan
