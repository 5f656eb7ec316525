"""Tiny real shared libraries for the framework scenarios, built at test time with the C compiler, so
that gpudoctor's loader model reads real ELF files: a soname, DT_NEEDED entries, DT_RPATH or DT_RUNPATH.
Nothing is linked against libc (-nostdlib): the only DT_NEEDED entries are the ones a scenario names.
A needed library is linked by passing a stub that carries its soname, which is how a real link records
it; the stub itself is never installed unless a scenario installs it.

Built files are cached by their recipe in the scratch directory, so a scenario tree costs a copy.
"""
import hashlib
import os
import shutil
import subprocess


class ElfLibs:
    def __init__(self, cc, scratch):
        self.cc = cc
        self.scratch = scratch
        os.makedirs(scratch, exist_ok=True)
        self.source = os.path.join(scratch, "lib.c")
        with open(self.source, "w") as f:
            f.write("int gpudoctor_test_symbol(void) { return 0; }\n")

    def build(self, soname, needed=(), rpath=None, runpath=None):
        """The path of a shared library with this soname, DT_NEEDED entries in order, and DT_RPATH
        (rpath, --disable-new-dtags) or DT_RUNPATH (runpath, --enable-new-dtags)."""
        recipe = repr((soname, tuple(needed), rpath, runpath))
        key = hashlib.sha1(recipe.encode()).hexdigest()[:12]
        out = os.path.join(self.scratch, f"{key}-{soname}")
        if os.path.exists(out):
            return out
        stubs = [self.build(n) for n in needed]
        cmd = [self.cc, "-shared", "-fPIC", "-nostdlib", "-o", out + ".tmp", self.source, f"-Wl,-soname,{soname}"]
        if rpath is not None:
            cmd += ["-Wl,--disable-new-dtags", f"-Wl,-rpath,{rpath}"]
        if runpath is not None:
            cmd += ["-Wl,--enable-new-dtags", f"-Wl,-rpath,{runpath}"]
        cmd += ["-Wl,--no-as-needed"] + stubs
        subprocess.run(cmd, check=True, capture_output=True)
        os.replace(out + ".tmp", out)
        return out

    def install(self, tree, path, soname=None, needed=(), rpath=None, runpath=None):
        """Installs a built library at `path` in the tree (the soname defaults to the file name)."""
        built = self.build(soname or os.path.basename(path), needed, rpath, runpath)
        full = tree.path(path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if os.path.lexists(full):
            os.unlink(full)
        shutil.copyfile(built, full)
        os.chmod(full, 0o755)
