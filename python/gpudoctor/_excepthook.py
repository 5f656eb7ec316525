"""The diagnosis under a GPU error's traceback: `gpudoctor.install()` for scripts (sys.excepthook),
and the notebook extension's exception handler (_notebook.py) share it.

The original traceback always comes first and unchanged (the previous hook prints it before
gpudoctor runs). A failure of gpudoctor itself prints one line, never a second traceback."""
import re
import sys
import traceback
from dataclasses import dataclass

from gpudoctor._report import Report

# How much of a traceback is handed to `explain`: its head and its tail (the message usually sits
# at the end; a huge message must not cost a huge pipe or a slow read).
_TEXT_LIMIT = 256 * 1024
_MESSAGE_SCAN_LIMIT = 64 * 1024
# The messages of GPU errors (torch, CUDA, cuDNN, NCCL, cuBLAS, JAX/XLA, TensorFlow) and of a
# device mismatch ("Expected all tensors to be on the same device", "torch.cuda.FloatTensor").
# TensorFlow's own words for a cuBLAS or cuDNN failure name neither library ("Blas GEMM launch
# failed", "DNN library is not found", "Failed to get convolution algorithm"), nor does ptxas's.
_GPU_MESSAGE = re.compile(
    r"cuda|cudnn|nccl|cublas|cufft|cusolver|cusparse|curand|nvrtc|nvml|nvidia|\bgpu|\btpu|\bxla\b|"
    r"device-side assert|no kernel image|same device|\bhip(error)?\b|rocm|\bmps\b|"
    r"\bblas\b|\bdnn library|convolution algorithm|ptxas|libdevice|stream ?executor",
    re.IGNORECASE,
)
# Exception types that carry GPU errors: the message decides (a RuntimeError may be anything).
_CARRIERS = (RuntimeError, AssertionError, ValueError, TypeError, OSError, ImportError, MemoryError)
_GPU_MODULES = ("torch", "jax", "jaxlib", "tensorflow", "keras", "cupy", "numba", "triton")


def _message(value):
    try:
        text = str(value)
    except Exception:
        return ""
    return text[:_MESSAGE_SCAN_LIMIT]


def is_gpu_exception(etype, value):
    """Is this an exception whose cause gpudoctor may know: a torch.cuda error, or a GPU message
    carried by a RuntimeError, AssertionError, ... or by an exception of a GPU framework?"""
    module = getattr(etype, "__module__", "") or ""
    if module.startswith("torch.cuda"):
        return True
    from_framework = module.split(".")[0] in _GPU_MODULES
    if not (from_framework or isinstance(value, _CARRIERS)):
        return False
    return bool(_GPU_MESSAGE.search(_message(value)))


def traceback_text(etype, value, tb):
    """The traceback as Python prints it, bounded (head and tail kept), never raising."""
    try:
        text = "".join(traceback.format_exception(etype, value, tb))
    except Exception:
        text = f"{getattr(etype, '__name__', 'Exception')}: {_message(value)}"
    if len(text) > _TEXT_LIMIT:
        half = _TEXT_LIMIT // 2
        text = text[:half] + "\n[... cut by gpudoctor ...]\n" + text[-half:]
    return text


@dataclass(frozen=True)
class Diagnosis:
    """What the error means (explain on its traceback) joined with this machine's facts (check)."""

    error: Report
    machine: Report

    def __str__(self):
        lines = ["gpudoctor: what this error means"]
        lines += ["  " + l for l in (str(self.error) if self.error.findings else "not a message gpudoctor knows").splitlines()]
        if self.machine.findings:
            lines.append("gpudoctor: on this machine")
            for f in self.machine.findings:
                lines += ["  " + l for l in f.text().splitlines()]
        return "\n".join(lines)

    def _repr_pretty_(self, p, cycle):
        p.text(str(self))

    def _repr_html_(self):
        machine = "".join(f.html() for f in self.machine.findings)
        error = "".join(f.html() for f in self.error.findings) or "<p>Not a message gpudoctor knows.</p>"
        return (
            '<div class="gpudoctor-diagnosis"><div style="font-weight:bold">gpudoctor: what this error means</div>'
            f"{error}"
            + (f'<div style="font-weight:bold">gpudoctor: on this machine</div>{machine}' if machine else "")
            + "</div>"
        )


def diagnose(etype, value, tb):
    """The Diagnosis of one exception. Raises GpudoctorError (or any error) on failure."""
    from gpudoctor._api import check, explain

    # Bounded tighter than the API's defaults: this runs while someone waits under a traceback.
    return Diagnosis(error=explain(traceback_text(etype, value, tb), timeout=30.0), machine=check(timeout=60.0))


def one_line_failure(e):
    try:
        reason = str(e).splitlines()[0] if str(e) else type(e).__name__
    except Exception:
        reason = "unknown error"
    return f"gpudoctor: could not diagnose this error ({reason[:300]})"


_previous_hook = None


def _hook(etype, value, tb):
    (_previous_hook or sys.__excepthook__)(etype, value, tb)
    try:
        if is_gpu_exception(etype, value):
            print(str(diagnose(etype, value, tb)), file=sys.stderr, flush=True)
    except BaseException as e:  # noqa: BLE001 - one line, never a second traceback
        print(one_line_failure(e), file=sys.stderr, flush=True)


def install():
    """Print gpudoctor's diagnosis under the traceback of an uncaught GPU error in this script."""
    global _previous_hook
    if sys.excepthook is not _hook:
        _previous_hook = sys.excepthook
        sys.excepthook = _hook


def uninstall():
    global _previous_hook
    if sys.excepthook is _hook:
        sys.excepthook = _previous_hook or sys.__excepthook__
        _previous_hook = None
