#!/usr/bin/env python3
"""The Python package (python/gpudoctor) against the real portable binary, and its wheel built by
its own PEP 517 backend through pip, installed by pip, offline.

  python_cases.py --portable build/portable/gpudoctor --source . --work DIR CASE
"""
import os
import re
import shutil
import subprocess
import sys
import textwrap
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import SYSTEM_PYTHON, check, main, need_module, run  # noqa: E402

ARGS = None


def env(**extra):
    e = dict(os.environ)
    e.pop("PYTHONHOME", None)
    e["PYTHONPATH"] = os.path.join(ARGS.source, "python")
    e["GPUDOCTOR_BINARY"] = ARGS.portable
    e["PYTHONDONTWRITEBYTECODE"] = "1"
    e.update(extra)
    return e


def py(code, stdin=None, timeout=240, **extra):
    return run([SYSTEM_PYTHON, "-c", textwrap.dedent(code)], input=stdin, env=env(**extra), timeout=timeout)


def text(b):
    return b.decode("utf-8", "replace")


def write(path, content):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content)


BAD = "import torch\nmodel = torch.nn.Linear(2, 2).cuda()\nx = torch.zeros(2)\ny = model(x)\n"
GOOD = "import torch\ndevice = 'cuda'\nmodel = torch.nn.Linear(2, 2).to(device)\nx = torch.zeros(2, device=device)\ny = model(x)\n"
CUDA_TRACEBACK = (
    "Traceback (most recent call last):\n  File \"t.py\", line 3, in <module>\n    x = torch.zeros(3).cuda()\n"
    "AssertionError: Torch not compiled with CUDA enabled\n"
)


def case_api_typed(a):
    work = os.path.join(a.work, "api")
    write(os.path.join(work, "bad.py"), BAD)
    write(os.path.join(work, "good.py"), GOOD)
    r = py(f"""
        import dataclasses, gpudoctor
        c = gpudoctor.check()
        assert isinstance(c, gpudoctor.Report) and c.command == "check", c
        assert c.exit_status in (0, 1) and c.findings, c
        f = c.findings[0]
        assert isinstance(f, gpudoctor.Finding) and dataclasses.is_dataclass(f)
        assert all(isinstance(getattr(f, k), str) for k in ("id", "layer", "severity", "message", "fix"))
        assert isinstance(f.evidence, tuple) and all(isinstance(e, str) for e in f.evidence)
        assert f.severity in ("error", "warning", "info") and "." in f.id
        e = gpudoctor.explain({CUDA_TRACEBACK!r})
        assert e.command == "explain" and e.exit_status == 1, e
        assert "log.torch_not_compiled_with_cuda" in e.ids(), e.ids()
        assert e.errors and e.root_causes, e
        assert gpudoctor.explain(b"\\xff\\xfe nothing to see here").exit_status == 3
        s = gpudoctor.scan([{work + '/bad.py'!r}, {work + '/good.py'!r}])
        assert s.command == "scan" and s.exit_status == 1, s
        assert [f.location.file for f in s.findings] == [{work + '/bad.py'!r}], s
        loc = s.findings[0].location
        assert isinstance(loc, gpudoctor.Location) and loc.line == 4, loc
        assert s.findings[0].id == "code.inputs_not_moved", s.findings
        assert gpudoctor.scan({work + '/good.py'!r}).findings == ()
        try:
            gpudoctor.check(root="/no/such/root")
        except gpudoctor.GpudoctorError as err:
            print("check error:", err)
            assert "/no/such/root" in str(err), err
        else:
            raise AssertionError("a usage error must raise GpudoctorError")
        print(str(s))
        print(s._repr_html_()[:200])
    """)
    print(text(r.stdout), text(r.stderr)[-3000:])
    check(r.returncode == 0, f"the API calls failed (exit {r.returncode})")
    check("code.inputs_not_moved" in text(r.stdout) and "gpudoctor-finding" in text(r.stdout), "text and HTML renderings")


def case_python_m(a):
    r = run([SYSTEM_PYTHON, "-m", "gpudoctor", "--version"], env=env())
    check(r.returncode == 0 and text(r.stdout).startswith("gpudoctor "), f"--version: {r.returncode} {r.stdout!r} {r.stderr!r}")
    r = run([SYSTEM_PYTHON, "-m", "gpudoctor", "explain", "-"], input=CUDA_TRACEBACK.encode(), env=env())
    check(r.returncode == 1 and "CPU-only build" in text(r.stdout), f"explain: {r.returncode} {r.stdout[-500:]!r}")
    r = run([SYSTEM_PYTHON, "-m", "gpudoctor", "no-such-command"], env=env())
    check(r.returncode == 2, f"a usage error exits 2, not {r.returncode}")
    r = run([SYSTEM_PYTHON, "-m", "gpudoctor", "--version"], env=env(GPUDOCTOR_BINARY="/nonexistent/gpudoctor"))
    err = text(r.stderr).strip()
    check(r.returncode == 2 and err.count("\n") == 0 and "no gpudoctor binary at /nonexistent/gpudoctor" in err, repr(err))


def case_import_is_lazy(a):
    # No process may start while gpudoctor is imported (audit events of every way to start one),
    # and none of the modules the API needs is loaded until it is used.
    r = py("""
        import sys
        events = []
        def audit(event, args):
            if event in ("subprocess.Popen", "os.posix_spawn", "os.exec", "os.fork", "os.system", "os.spawn"):
                events.append(event)
        sys.addaudithook(audit)
        before = set(sys.modules)
        import gpudoctor
        loaded = sorted(set(sys.modules) - before)
        assert events == [], events
        assert loaded == ["gpudoctor"], loaded
        assert callable(gpudoctor.check) and "gpudoctor._api" in sys.modules
        assert "load_ipython_extension" in dir(gpudoctor) and "scan" in dir(gpudoctor)
        print("loaded at import:", loaded)
    """)
    print(text(r.stdout), text(r.stderr)[-2000:])
    check(r.returncode == 0, "import gpudoctor started a process or loaded more than itself")


SCRIPT = """
import sys
sys.path.insert(0, {python_dir!r})
import gpudoctor
if {install}:
    gpudoctor.install()
kind = sys.argv[1]
if kind == "cuda":
    raise RuntimeError("CUDA error: no kernel image is available for execution on the device")
if kind == "huge":
    raise RuntimeError("CUDA error: out of memory " + "x" * 20_000_000)
if kind == "bytes":
    raise RuntimeError(b"CUDA error: \\xff\\xfe\\x80 device-side assert triggered".decode("utf-8", "surrogateescape"))
if kind == "plain":
    raise ValueError("invalid literal for int() with base 10: 'x'")
"""


def run_script(a, kind, install, **extra):
    path = os.path.join(a.work, f"script_{int(install)}.py")
    write(path, SCRIPT.format(python_dir=os.path.join(a.source, "python"), install=install))
    e = env(**extra)
    e.pop("PYTHONPATH")
    return run([SYSTEM_PYTHON, path, kind], env=e, timeout=120)


def case_excepthook_script(a):
    for kind in ("cuda", "huge", "bytes", "plain"):
        plain = run_script(a, kind, False)
        hooked = run_script(a, kind, True)
        p = text(plain.stderr).replace("script_0.py", "script.py")
        h = text(hooked.stderr).replace("script_1.py", "script.py")
        check(h.startswith(p), f"{kind}: the original traceback must come first, unchanged: {h[:1500]!r}")
        rest = h[len(p):]
        if kind == "plain":
            check(rest == "", f"a non-GPU error gets nothing more: {rest[:500]!r}")
            continue
        check(rest.startswith("gpudoctor: what this error means"), f"{kind}: diagnosis under it: {rest[:800]!r}")
        check("gpudoctor: on this machine" in rest, f"{kind}: joined with the machine's findings")
        print(f"--- {kind}\n{rest[:1500]}")
    broken = run_script(a, "cuda", True, GPUDOCTOR_BINARY="/nonexistent/gpudoctor")
    lines = text(broken.stderr).rstrip("\n").split("\n")
    check(lines[-2].startswith("RuntimeError: CUDA error"), f"traceback first: {lines[-3:]!r}")
    check(lines[-1].startswith("gpudoctor: could not diagnose this error (no gpudoctor binary"), repr(lines[-1]))
    check(text(broken.stderr).count("Traceback") == 1, "never a second traceback")


def case_gpu_exception_filter(a):
    """Which exceptions get a diagnosis: the GPU errors of torch (its real OutOfMemoryError class),
    cuDNN, NCCL, device mismatch, TensorFlow and JAX, and none of the everyday errors. TensorFlow's
    and JAX's classes are stand-ins (those frameworks are not installed here) that carry the real
    modules' names and the real messages."""
    r = py("""
        import torch
        from gpudoctor._excepthook import is_gpu_exception

        def framework_error(module, name):
            return type(name, (Exception,), {"__module__": module})

        TfInternal = framework_error("tensorflow.python.framework.errors_impl", "InternalError")
        TfUnknown = framework_error("tensorflow.python.framework.errors_impl", "UnknownError")
        TfInvalid = framework_error("tensorflow.python.framework.errors_impl", "InvalidArgumentError")
        XlaRuntime = framework_error("jaxlib.xla_extension", "XlaRuntimeError")
        gpu = [
            torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB"),
            RuntimeError("cuDNN error: CUDNN_STATUS_NOT_INITIALIZED"),
            RuntimeError("NCCL error in: ProcessGroupNCCL.cpp:1269, unhandled system error, NCCL version 2.14.3"),
            RuntimeError("Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"),
            AssertionError("Torch not compiled with CUDA enabled"),
            RuntimeError("CUDA error: no kernel image is available for execution on the device"),
            TfInternal("Blas GEMM launch failed : a.shape=(32, 784), b.shape=(784, 10), m=32, n=10, k=784"),
            TfUnknown("Failed to get convolution algorithm. This is probably because cuDNN failed to initialize"),
            TfUnknown("DNN library is not found."),
            TfInternal("ptxas returned an error during compilation of ptx to sass"),
            XlaRuntime("INTERNAL: Failed to execute XLA Runtime executable: custom call failed"),
            RuntimeError("Unable to initialize backend 'cuda': FAILED_PRECONDITION: No visible GPU devices."),
        ]
        other = [
            ValueError("invalid literal for int() with base 10: 'x'"),
            RuntimeError("dictionary changed size during iteration"),
            MemoryError("Unable to allocate 3.20 GiB for an array with shape (20000, 20000)"),
            TfInvalid("Input to reshape is a tensor with 10 values, but the requested shape has 12"),
            KeyError("cuda"),
        ]
        for e in gpu:
            print("gpu" if is_gpu_exception(type(e), e) else "MISSED", type(e).__name__, str(e)[:60])
        for e in other:
            print("WRONG" if is_gpu_exception(type(e), e) else "other", type(e).__name__, str(e)[:60])
    """)
    out = text(r.stdout)
    print(out)
    check(r.returncode == 0, text(r.stderr)[-2000:])
    check(out.count("\ngpu ") + out.startswith("gpu ") == 12, "every GPU error is recognised")
    check("MISSED" not in out and "WRONG" not in out, "no GPU error missed, no everyday error taken")


def case_unavailable_platform(a):
    # A copy of the package that says its binary needs a glibc newer than any: the message names
    # what the binary needs and what this platform is, on one line.
    pkg = os.path.join(a.work, "platform", "gpudoctor")
    shutil.rmtree(os.path.dirname(pkg), ignore_errors=True)
    shutil.copytree(os.path.join(a.source, "python", "gpudoctor"), pkg)
    write(os.path.join(pkg, "_build_info.py"), "VERSION = '0.0.0'\nGLIBC_MINOR = 999\nTAG = 'x'\n")
    e = env(PYTHONPATH=os.path.dirname(pkg))
    r = run([SYSTEM_PYTHON, "-m", "gpudoctor", "check"], env=e)
    err = text(r.stderr).strip()
    print(err)
    check(r.returncode == 2 and "\n" not in err, f"exit {r.returncode}, one line: {err!r}")
    check(re.search(r"runs on Linux x86-64 with glibc 2\.999 or newer; this is linux x86_64 with glibc 2\.\d+", err), err)
    r = run([SYSTEM_PYTHON, "-c", "import gpudoctor\ntry:\n    gpudoctor.check()\nexcept gpudoctor.BinaryUnavailable as e:\n"
             "    print('unavailable:', e)"], env=e)
    check("unavailable: the gpudoctor binary in this package runs on" in text(r.stdout), text(r.stdout + r.stderr))


def case_ipython_terminal(a):
    # A terminal IPython (not a notebook): the magic's report and the diagnosis come out as text.
    need_module("IPython", "python3-ipython")
    session = '%load_ext gpudoctor\n%gpudoctor check\nraise RuntimeError("CUDA error: out of memory")\n1 + 1\n'
    r = run([SYSTEM_PYTHON, "-m", "IPython", "--simple-prompt", "--colors=NoColor", "--no-banner"],
            input=session.encode(), env=env(), timeout=120)
    out = text(r.stdout)
    print(out[-3000:], text(r.stderr)[-1000:])
    check(r.returncode == 0, f"ipython exited {r.returncode}")
    check(re.search(r"Out\[2\]: \n[●▲✖] \w+ +\w+\.\w+", out), "%gpudoctor check prints its findings as text")
    check("<div" not in out, "no HTML in a terminal")
    tb = out.index("RuntimeError: CUDA error: out of memory\n")
    diagnosis = out.index("gpudoctor: what this error means", tb)
    check("log.cuda_oom" in out[diagnosis:], "the diagnosis under the traceback, as text")
    check("Out[4]: 2" in out, "the session goes on")


def glibc_minor_needed(binary):
    r = run(["objdump", "-T", binary])
    check(r.returncode == 0, f"objdump -T: {r.stderr!r}")
    return max(int(m) for m in re.findall(r"GLIBC_2\.(\d+)", text(r.stdout)))


def case_wheel(a):
    need_module("pip", "python3-pip")
    out = os.path.join(a.work, "wheel")
    shutil.rmtree(out, ignore_errors=True)
    # As scripts/release does: the wheel carries the portable binary, stripped.
    binary = os.path.join(a.work, "gpudoctor-stripped")
    r = run(["strip", "-o", binary, ARGS.portable])
    check(r.returncode == 0, f"strip: {text(r.stderr)}")
    e = env(GPUDOCTOR_WHEEL_BINARY=binary)
    e.pop("PYTHONPATH")
    r = run([SYSTEM_PYTHON, "-m", "pip", "wheel", "--no-index", "--no-build-isolation", "--no-deps", "-w", out,
             os.path.join(a.source, "python")], env=e, timeout=300)
    check(r.returncode == 0, f"pip wheel: {text(r.stdout)[-2000:]} {text(r.stderr)[-2000:]}")
    wheels = [f for f in os.listdir(out) if f.endswith(".whl")]
    check(len(wheels) == 1, f"one wheel: {wheels}")
    minor = glibc_minor_needed(ARGS.portable)
    version = text(run([ARGS.portable, "--version"]).stdout).split()[1]
    want = f"gpudoctor-{version}-py3-none-manylinux_2_{max(minor, 17)}_x86_64.whl"
    check(wheels[0] == want, f"wheel {wheels[0]}, want {want} (glibc 2.{minor} from objdump -T)")
    with zipfile.ZipFile(os.path.join(out, wheels[0])) as z:
        names = z.namelist()
        binary = z.getinfo("gpudoctor/bin/gpudoctor")
        check((binary.external_attr >> 16) & 0o111, "the binary is executable in the wheel")
        wheel_meta = z.read(f"gpudoctor-{version}.dist-info/WHEEL").decode()
    for n in ("gpudoctor/__init__.py", "gpudoctor/__main__.py", "gpudoctor/_notebook.py", "gpudoctor/_build_info.py",
              f"gpudoctor-{version}.dist-info/METADATA", f"gpudoctor-{version}.dist-info/RECORD",
              f"gpudoctor-{version}.dist-info/entry_points.txt"):
        check(n in names, f"{n} in the wheel: {names}")
    check("Root-Is-Purelib: false" in wheel_meta, wheel_meta)
    print(f"{wheels[0]}: {os.path.getsize(os.path.join(out, wheels[0])) / 1e6:.1f} MB")
    # pip checks the tag against this platform and every RECORD hash while it installs.
    target = os.path.join(a.work, "wheel-installed")
    shutil.rmtree(target, ignore_errors=True)
    r = run([SYSTEM_PYTHON, "-m", "pip", "install", "--no-index", "--no-deps", "--target", target,
             os.path.join(out, wheels[0])], env=e, timeout=300)
    check(r.returncode == 0, f"pip install: {text(r.stdout)[-2000:]} {text(r.stderr)[-2000:]}")
    e = dict(os.environ, PYTHONPATH=target, PYTHONDONTWRITEBYTECODE="1")
    e.pop("GPUDOCTOR_BINARY", None)
    r = run([SYSTEM_PYTHON, "-m", "gpudoctor", "--version"], env=e)
    check(r.returncode == 0 and text(r.stdout).strip() == f"gpudoctor {version}", f"{r.stdout!r} {r.stderr!r}")
    r = run([SYSTEM_PYTHON, "-c", "import gpudoctor; print(gpudoctor.__version__, gpudoctor.binary_path());"
             "print(gpudoctor.explain('RuntimeError: CUDA error: out of memory').ids())"], env=e)
    check(r.returncode == 0 and target in text(r.stdout) and version in text(r.stdout), f"{r.stdout!r} {r.stderr!r}")
    script = os.path.join(target, "bin", "gpudoctor")
    check(os.access(script, os.X_OK), "pip wrote the gpudoctor console script")
    r = run([script, "--version"], env=e)
    check(r.returncode == 0 and version in text(r.stdout), f"console script: {r.stdout!r} {r.stderr!r}")


CASES = {
    "api_typed": case_api_typed,
    "python_m": case_python_m,
    "import_is_lazy": case_import_is_lazy,
    "excepthook_script": case_excepthook_script,
    "gpu_exception_filter": case_gpu_exception_filter,
    "ipython_terminal": case_ipython_terminal,
    "unavailable_platform": case_unavailable_platform,
    "wheel": case_wheel,
}


def arguments(ap):
    ap.add_argument("--portable", required=True, help="the portable gpudoctor (build/portable/gpudoctor)")
    ap.add_argument("--source", required=True)


def prepare(a):
    global ARGS
    ARGS = a
    a.portable = os.path.abspath(a.portable)
    a.source = os.path.abspath(a.source)


if __name__ == "__main__":
    sys.exit(main(CASES, arguments, prepare))
