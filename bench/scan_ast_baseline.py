#!/usr/bin/env python3
"""A CPython `ast` stand-in for pure-Python linters, for bench/scan.py.

Implements three of gpudoctor's code rules the way a flake8/pylint plugin would (ast.parse plus a
NodeVisitor with a per-function symbol table), single process:
  code.to_result_discarded  `x.to(...)` / `x.cuda()` as a statement on a name bound to a tensor
  code.dataparallel         calls of torch.nn.DataParallel (through import aliases)
  code.deprecated_amp       calls of torch.cuda.amp.* (through import aliases)
Prints one line per finding and a summary line "files=N bytes=B findings=F" on stderr.
"""
import ast
import os
import sys

TENSOR_FACTORIES = {"tensor", "zeros", "ones", "empty", "full", "rand", "randn", "randint", "arange", "linspace", "eye"}


class Checker(ast.NodeVisitor):
    def __init__(self, path):
        self.path = path
        self.imports = {}
        self.scopes = [{}]
        self.findings = []

    def qualify(self, node):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        parts.append(self.imports.get(node.id, node.id))
        return ".".join(reversed(parts))

    def visit_Import(self, node):
        for a in node.names:
            if a.asname:
                self.imports[a.asname] = a.name
            else:
                top = a.name.split(".")[0]
                self.imports[top] = top

    def visit_ImportFrom(self, node):
        if node.module and not node.level:
            for a in node.names:
                self.imports[a.asname or a.name] = node.module + "." + a.name

    def visit_FunctionDef(self, node):
        self.scopes.append({})
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def kind(self, name):
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def visit_Assign(self, node):
        self.generic_visit(node)
        k = None
        if isinstance(node.value, ast.Call):
            q = self.qualify(node.value.func)
            if q and q.startswith("torch.") and q.count(".") == 1 and q.split(".")[1] in TENSOR_FACTORIES:
                k = "tensor"
        for t in node.targets:
            if isinstance(t, ast.Name):
                self.scopes[-1][t.id] = k

    def visit_Expr(self, node):
        v = node.value
        if (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in ("to", "cuda")
                and isinstance(v.func.value, ast.Name) and self.kind(v.func.value.id) == "tensor"):
            self.findings.append((node.lineno, node.col_offset + 1, "code.to_result_discarded"))
        self.generic_visit(node)

    def visit_Call(self, node):
        q = self.qualify(node.func)
        if q in ("torch.nn.DataParallel", "torch.nn.parallel.DataParallel"):
            self.findings.append((node.lineno, node.col_offset + 1, "code.dataparallel"))
        elif q and q.startswith("torch.cuda.amp."):
            self.findings.append((node.lineno, node.col_offset + 1, "code.deprecated_amp"))
        self.generic_visit(node)


def files_under(root):
    if os.path.isfile(root):
        yield root
        return
    for d, dirs, names in os.walk(root):
        dirs[:] = sorted(x for x in dirs if x not in (".git", "__pycache__", "site-packages", "node_modules"))
        for n in sorted(names):
            if n.endswith(".py"):
                yield os.path.join(d, n)


def main(argv):
    files = nbytes = count = 0
    out = []
    for root in argv[1:]:
        for path in files_under(root):
            with open(path, "rb") as f:
                data = f.read()
            files += 1
            nbytes += len(data)
            try:
                tree = ast.parse(data, filename=path)
            except (SyntaxError, ValueError):
                continue
            c = Checker(path)
            c.visit(tree)
            for line, col, rule in c.findings:
                out.append(f"{path}:{line}:{col}: {rule}")
                count += 1
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))
    print(f"files={files} bytes={nbytes} findings={count}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
